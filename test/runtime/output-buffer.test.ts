/**
 * A script's stdout is held as it arrives until the script ends. Written a byte at a time, it came
 * as a Buffer per write, each costing the runner ~70 bytes beyond its byte: under the 10 MB cap
 * that was hundreds of megabytes. The runner now joins small chunks as they come.
 */
import { describe, expect, it } from 'vitest';
import { OutputBuffer, runBoundedProcess } from '../../src/runtime/node/bounded-process.ts';

describe('the stdout a runner holds', () => {
  it('joins small chunks as they come: 100,000 one-byte writes are a few hundred Buffers, in order', () => {
    const out = new OutputBuffer();
    let expected = '';
    for (let i = 0; i < 100_000; i++) {
      const byte = String.fromCharCode(97 + (i % 26));
      out.push(Buffer.from(byte));
      expected += byte;
    }
    expect(out.held).toBeLessThanOrEqual(100_000 / 1024 + 1024);
    expect(out.text()).toEqual({ text: expected });
  });

  it('keeps a character whose bytes came in different chunks whole', () => {
    const out = new OutputBuffer();
    const bytes = Buffer.from('校对 ✓ '.repeat(500));
    for (const byte of bytes) out.push(Buffer.of(byte));
    expect(out.text()).toEqual({ text: '校对 ✓ '.repeat(500) });
  });

  it('says where the output stops being UTF-8, past a U+FFFD the script wrote itself', () => {
    const out = new OutputBuffer();
    out.push(Buffer.from('{"a": "\uFFFD caf'));
    out.push(Buffer.from([0xe9, 0x22, 0x7d]));
    // 7 ASCII bytes, U+FFFD as EF BF BD, then " caf": the Latin-1 é is at offset 14.
    expect(out.text()).toEqual({ text: '{"a": "\uFFFD caf\uFFFD"}', notUtf8At: 14 });
    const truncated = new OutputBuffer();
    truncated.push(Buffer.from('ok ✓').subarray(0, 5));
    expect(truncated.text().notUtf8At).toBe(3);
  });

  it('gives back every byte of a real process that writes one byte per write call', async () => {
    const script = 'import os\nfor i in range(200000):\n    os.write(1, b"abcdefghij"[i % 10:i % 10 + 1])\n';
    const result = await runBoundedProcess({ command: 'python3', args: ['-c', script], cwd: process.cwd(), env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, stdin: '', timeoutMs: 30_000 });
    expect(result.exitCode).toBe(0);
    expect(result.outputTooLarge).toBe(false);
    expect(result.stdout).toBe('abcdefghij'.repeat(20_000));
  });
});
