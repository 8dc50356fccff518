/** Strict UTF-8 decoding with the position of the first bad byte, and offset → line/column. */
import { describe, expect, it } from 'vitest';
import { decodeUtf8, positionAt, sourceFromString } from '../../../src/core/parse/source-text.ts';

const bytes = (...parts: (string | number[])[]) => new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))));

describe('decodeUtf8', () => {
  it('decodes UTF-8, strips one BOM and remembers it', () => {
    const r = decodeUtf8(bytes([0xef, 0xbb, 0xbf], 'héllo 技能\n'));
    expect(r).toMatchObject({ ok: true, source: { text: 'héllo 技能\n', bom: true, lineStarts: [0, 9] } });
  });

  it.each([
    ['a stray continuation byte', ['ab\ncd', [0x80], 'x'], 5, { line: 2, column: 3 }],
    ['a Latin-1 byte', ['line1\nline2\nnaïve ', [0xe9], '\n'], 19, { line: 3, column: 7 }],
    ['a truncated sequence at the end', ['ok ', [0xe6, 0x8a]], 3, { line: 1, column: 4 }],
    ['an invalid lead byte', ['\n\n', [0xff]], 2, { line: 3, column: 1 }],
    ['an overlong encoding', ['a', [0xc0, 0xaf]], 1, { line: 1, column: 2 }],
    ['an encoded surrogate (U+D800)', ['ab\n', [0xed, 0xa0, 0x80], 'cd'], 3, { line: 2, column: 1 }],
    ['an overlong three-byte form', ['x\n', [0xe0, 0x80, 0xaf]], 2, { line: 2, column: 1 }],
    ['a code point above U+10FFFF', ['xyz', [0xf4, 0x90, 0x80, 0x80]], 3, { line: 1, column: 4 }],
  ] as const)('points at %s', (_what, parts, byteOffset, position) => {
    const r = decodeUtf8(bytes(...(parts as unknown as (string | number[])[])));
    expect(r).toEqual({ ok: false, byteOffset, position });
  });
});

describe('positionAt', () => {
  it('maps offsets to 1-based lines and columns, with LF and CRLF', () => {
    const lf = sourceFromString('ab\ncd\n\nef');
    expect([0, 2, 3, 6, 7, 8].map((o) => positionAt(lf, o))).toEqual([
      { line: 1, column: 1 },
      { line: 1, column: 3 },
      { line: 2, column: 1 },
      { line: 3, column: 1 },
      { line: 4, column: 1 },
      { line: 4, column: 2 },
    ]);
    const crlf = sourceFromString('ab\r\ncd\r\n');
    expect(positionAt(crlf, 2)).toEqual({ line: 1, column: 3 });
    expect(positionAt(crlf, 4)).toEqual({ line: 2, column: 1 });
  });
});
