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
    expect(out.toString()).toBe(expected);
  });

  it('keeps a character whose bytes came in different chunks whole', () => {
    const out = new OutputBuffer();
    const bytes = Buffer.from('校对 ✓ '.repeat(500));
    for (const byte of bytes) out.push(Buffer.of(byte));
    expect(out.toString()).toBe('校对 ✓ '.repeat(500));
  });

  it('gives back every byte of a real process that writes one byte per write call', async () => {
    const script = 'import os\nfor i in range(200000):\n    os.write(1, b"abcdefghij"[i % 10:i % 10 + 1])\n';
    const result = await runBoundedProcess({ command: 'python3', args: ['-c', script], cwd: process.cwd(), env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, stdin: '', timeoutMs: 30_000 });
    expect(result.exitCode).toBe(0);
    expect(result.outputTooLarge).toBe(false);
    expect(result.stdout).toBe('abcdefghij'.repeat(20_000));
  });
});
