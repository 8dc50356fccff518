import { describe, expect, it } from 'vitest';
import { compareBytes, sha256Hex, treeDigest, treeDigestText } from '../../src/core/digest.ts';
import { treeDigestSync, sha256HexSync } from '../../src/pipeline/hash.ts';

describe('tree digest (FIELD-NOTES §2)', () => {
  it('reproduces the worked example', async () => {
    const files = [
      { path: 'scripts/run.sh', hex: await sha256Hex('#!/bin/sh\n') },
      { path: 'SKILL.md', hex: await sha256Hex('# Hello\n') },
    ];
    const expected = 'sha256:34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e';
    expect(await treeDigest(files)).toBe(expected);
    expect(treeDigestSync(files)).toBe(expected);
  });

  it('sorts paths by UTF-8 bytes, not UTF-16 code units', () => {
    // U+FF21 (3 UTF-8 bytes, EF BC A1) sorts before U+1F600 (F0 …) in bytes, and after it in UTF-16 (D83D …).
    expect(compareBytes('\uFF21', '\u{1F600}')).toBeLessThan(0);
    expect(treeDigestText([{ path: 'b', hex: '2' }, { path: 'B', hex: '1' }, { path: 'a/b', hex: '3' }])).toBe('B\u00001\na/b\u00003\nb\u00002\n');
  });

  it('orders any two strings as their UTF-8 bytes do', () => {
    const encoder = new TextEncoder();
    const byBytes = (a: string, b: string) => Math.sign(Buffer.compare(encoder.encode(a), encoder.encode(b)));
    // Prefixes, ASCII, BMP letters, the private-use area, astral characters and lone surrogates.
    const pieces = ['', 'a', 'B', 'z', '/', '.', '\u00e9', '\u4e2d', '\ud7ff', '\ue000', '\uff21', '\uffff', '\u{1F600}', '\u{10000}', '\ud83d', '\ude00'];
    const strings = pieces.flatMap((x) => pieces.map((y) => `${x}${y}`));
    let pairs = 0;
    for (const a of strings) {
      for (const b of strings) {
        expect(Math.sign(compareBytes(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(byBytes(a, b));
        pairs++;
      }
    }
    expect(pairs).toBe(256 * 256);
  });

  it('WebCrypto and node:crypto agree', async () => {
    const bytes = new TextEncoder().encode('skilldex ✓ 技能');
    expect(await sha256Hex(bytes)).toBe(sha256HexSync(bytes));
  });
});
