import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readOwnFile } from '../../src/core-node/read-own-file.ts';
import { writeFileAtomically } from '../../src/core-node/write-atomically.ts';

/** The files a build keeps for itself (its cache, its last build's record) live where a pull request can put anything. */
const dir = mkdtempSync(join(tmpdir(), 'skilldex-own-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readOwnFile', () => {
  it('reads a regular file up to its cap, and nothing else: no link, pipe, device or folder', () => {
    writeFileSync(join(dir, 'plain.json'), '{"a":1}');
    expect(readOwnFile(join(dir, 'plain.json'), 100)).toBe('{"a":1}');
    expect(readOwnFile(join(dir, 'plain.json'), 3)).toBeUndefined();
    expect(readOwnFile(join(dir, 'missing.json'), 100)).toBeUndefined();
    symlinkSync(join(dir, 'plain.json'), join(dir, 'link.json'));
    expect(readOwnFile(join(dir, 'link.json'), 100)).toBeUndefined();
    symlinkSync('/dev/zero', join(dir, 'zero.json'));
    expect(readOwnFile(join(dir, 'zero.json'), 100)).toBeUndefined();
    expect(readOwnFile('/dev/zero', 100)).toBeUndefined();
    // A FIFO with no writer: a plain read would wait forever.
    execFileSync('mkfifo', [join(dir, 'fifo.json')]);
    expect(readOwnFile(join(dir, 'fifo.json'), 100)).toBeUndefined();
    mkdirSync(join(dir, 'folder.json'));
    expect(readOwnFile(join(dir, 'folder.json'), 100)).toBeUndefined();
  });
});

describe('writeFileAtomically', () => {
  it('replaces a link instead of writing through it, and leaves no temporary file when it cannot write', () => {
    writeFileSync(join(dir, 'target.txt'), 'theirs');
    mkdirSync(join(dir, 'w'));
    symlinkSync(join(dir, 'target.txt'), join(dir, 'w', 'record.json'));
    writeFileAtomically(join(dir, 'w', 'record.json'), 'mine');
    expect(readFileSync(join(dir, 'target.txt'), 'utf8')).toBe('theirs');
    expect(readFileSync(join(dir, 'w', 'record.json'), 'utf8')).toBe('mine');
    mkdirSync(join(dir, 'w', 'taken.json'));
    expect(() => writeFileAtomically(join(dir, 'w', 'taken.json'), 'mine')).toThrow();
    expect(readdirSync(join(dir, 'w')).sort()).toEqual(['record.json', 'taken.json']);
  });
});
