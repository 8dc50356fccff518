/**
 * Creating an output folder always ends: with the folder, or with the system's error for the path.
 * Node's own recursive mkdir never returns under /proc, where mkdir answers ENOENT below a folder
 * that exists.
 */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeFolder } from '../../src/core-node/make-folder.ts';

const work = mkdtempSync(join(tmpdir(), 'skilldex-make-folder-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('makeFolder', () => {
  it('creates every missing folder on the way and returns the first one it created', () => {
    const target = join(work, 'a', 'b', 'c');
    expect(makeFolder(target)).toBe(join(work, 'a'));
    expect(statSync(target).isDirectory()).toBe(true);
    expect(makeFolder(target)).toBeUndefined();
    expect(makeFolder(join(target, 'd'))).toBe(join(target, 'd'));
  });

  it('throws the system error where a file stands on the way, and creates nothing past it', () => {
    writeFileSync(join(work, 'file'), 'x');
    expect(() => makeFolder(join(work, 'file', 'x', 'y'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    expect(() => makeFolder(join(work, 'file'))).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(existsSync(join(work, 'file', 'x'))).toBe(false);
  });

  it.runIf(existsSync('/proc/self'))('fails at once under /proc, where a recursive mkdir never returns', () => {
    const started = performance.now();
    expect(() => makeFolder('/proc/skilldex-no-such/out')).toThrow(expect.objectContaining({ code: 'ENOENT', path: '/proc/skilldex-no-such' }));
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
