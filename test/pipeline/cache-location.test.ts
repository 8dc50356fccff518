/**
 * The build cache lives in the repository being built, which a pull request controls: a `.cache`
 * (or `.cache/skilldex`) that is a symbolic link must not carry the cache's reads and writes out
 * of the checkout (the build then goes without a cache), and a cache file that was committed is
 * never read.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultCacheFile } from '../../src/pipeline/cache-file.ts';
import { buildRegistry } from '../../src/pipeline/index.ts';
import { dateBack } from '../helpers/at-rest.ts';
import { GitRepo, skillMd } from '../helpers/git-repo.ts';

const work = mkdtempSync(join(tmpdir(), 'skilldex-cache-location-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function registry(name: string): string {
  const root = join(work, name);
  mkdirSync(join(root, 'skills', 'word-count'), { recursive: true });
  writeFileSync(join(root, 'skills', 'word-count', 'SKILL.md'), '---\nname: word-count\ndescription: Counts the words of a text when the user asks how long it is.\n---\n\nCount the words.\n');
  return root;
}

describe('the build cache file', () => {
  it('is under .cache/skilldex in a plain repository, whether or not the folders exist yet', () => {
    const root = registry('plain');
    expect(defaultCacheFile(root)).toBe(join(root, '.cache', 'skilldex', 'build-cache.json'));
    mkdirSync(join(root, '.cache', 'skilldex'), { recursive: true });
    expect(defaultCacheFile(root)).toBe(join(root, '.cache', 'skilldex', 'build-cache.json'));
  });

  it('is not used where .cache or .cache/skilldex is a link or a file', () => {
    const outside = mkdtempSync(join(work, 'outside-'));
    const linked = registry('linked');
    symlinkSync(outside, join(linked, '.cache'));
    expect(defaultCacheFile(linked)).toBeUndefined();
    const inner = registry('inner');
    mkdirSync(join(inner, '.cache'));
    symlinkSync(outside, join(inner, '.cache', 'skilldex'));
    expect(defaultCacheFile(inner)).toBeUndefined();
    const file = registry('file');
    writeFileSync(join(file, '.cache'), 'not a folder');
    expect(defaultCacheFile(file)).toBeUndefined();
  });

  it('a build through a linked .cache writes nothing behind the link, and builds all the same', async () => {
    const outside = mkdtempSync(join(work, 'target-'));
    const root = registry('build');
    symlinkSync(outside, join(root, '.cache'));
    const result = await buildRegistry({ root, outDir: join(work, 'build-out'), workers: false, signingKeys: [] });
    expect(result.ok).toBe(true);
    expect(result.manifests.map((m) => m.name)).toEqual(['word-count']);
    expect(result.cache).toBeUndefined();
    expect(readdirSync(outside)).toEqual([]);
    // Without the link, the same build keeps its cache where it belongs.
    const plain = registry('build-plain');
    const cached = await buildRegistry({ root: plain, outDir: join(work, 'plain-out'), workers: false, signingKeys: [] });
    expect(cached.cache).toBeDefined();
    expect(existsSync(join(plain, '.cache', 'skilldex', 'build-cache.json'))).toBe(true);
  });

  it('is not read once git tracks it, as a cache a commit brought would be', async () => {
    const repo = new GitRepo('committed-cache');
    try {
      repo.write('skills/word-count/SKILL.md', skillMd('word-count', '1.0.0'));
      repo.write('.gitignore', '.cache/\n');
      repo.commit('add a skill', '2026-01-02T03:04:05Z');
      dateBack(join(repo.root, 'skills'));
      const build = () => buildRegistry({ root: repo.root, outDir: join(work, 'committed-out'), workers: false, signingKeys: [] });
      await build();
      // On disk only, as every build leaves it: the next build takes the skill from it.
      expect((await build()).cache?.hits).toBe(1);
      // Committed (past the .gitignore), as a pull request may: not read, the skill is read and checked again.
      repo.git('add', '-f', '.cache/skilldex/build-cache.json');
      repo.git('commit', '-q', '-m', 'a cache');
      const after = await build();
      expect(after.ok).toBe(true);
      expect(after.cache).toMatchObject({ hits: 0, misses: 1 });
    } finally {
      rmSync(repo.root, { recursive: true, force: true });
    }
  });
});
