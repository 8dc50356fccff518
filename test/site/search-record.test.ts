/**
 * The record of the search index a build wrote (src/site/integration/search-record.ts): what its
 * key covers, and that a record someone else wrote can only cost the next build its shortcut.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptSearchIndex, saveSearchRecord, searchInputKey } from '../../src/site/integration/search-record.ts';

let work: string;
const outDir = () => path.join(work, 'out');
const record = () => path.join(work, 'cache', 'skilldex-search.json');
const write = (rel: string, text: string) => {
  mkdirSync(path.dirname(path.join(outDir(), rel)), { recursive: true });
  writeFileSync(path.join(outDir(), rel), text);
};

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'skilldex-search-record-'));
  write('skills/a/index.html', '<p>a</p>');
  write('skills/b/index.html', '<p>b</p>');
  write('pagefind/pagefind-entry.json', '{}');
  write('pagefind/fragment/en_1.pf_fragment', 'f');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the search index record', () => {
  it('keeps the index for the same key while every file of it is unchanged', () => {
    const key = searchInputKey('code', outDir());
    saveSearchRecord(record(), key, outDir(), 2);
    expect(keptSearchIndex(record(), key, outDir())).toEqual({ pages: 2, files: ['pagefind/fragment/en_1.pf_fragment', 'pagefind/pagefind-entry.json'] });
    expect(keptSearchIndex(record(), searchInputKey('other code', outDir()), outDir())).toBeUndefined();
  });

  it('has a key that moves with any skill page: added, removed or touched', () => {
    const key = searchInputKey('code', outDir());
    write('skills/c/index.html', '<p>c</p>');
    const added = searchInputKey('code', outDir());
    expect(added).not.toBe(key);
    rmSync(path.join(outDir(), 'skills/c'), { recursive: true });
    expect(searchInputKey('code', outDir())).toBe(key);
    utimesSync(path.join(outDir(), 'skills/a/index.html'), new Date(), new Date(Date.now() - 60_000));
    expect(searchInputKey('code', outDir())).not.toBe(key);
  });

  it('is not kept once a file of the index was touched', () => {
    const key = searchInputKey('code', outDir());
    saveSearchRecord(record(), key, outDir(), 2);
    write('pagefind/pagefind-entry.json', '{"x":1}');
    expect(keptSearchIndex(record(), key, outDir())).toBeUndefined();
  });

  it('ignores a forged record: paths out of the index folder, no files, wrong shapes, deep JSON', () => {
    const key = searchInputKey('code', outDir());
    const forged = (files: unknown, pages: unknown = 1) => writeFileSync(record(), JSON.stringify({ format: 1, key, pages, files }));
    forged([['../../etc/passwd', 1, 1, 1]]);
    expect(keptSearchIndex(record(), key, outDir())).toBeUndefined();
    forged([['skills/a/index.html', 8, 1, 1]]);
    expect(keptSearchIndex(record(), key, outDir())).toBeUndefined();
    forged([]);
    expect(keptSearchIndex(record(), key, outDir())).toBeUndefined();
    forged('x', -1);
    expect(keptSearchIndex(record(), key, outDir())).toBeUndefined();
    writeFileSync(record(), `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(keptSearchIndex(record(), key, outDir())).toBeUndefined();
  });
});
