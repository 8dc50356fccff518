/**
 * A rebuild into the folder the last build wrote leaves each unchanged skill's output as it is
 * (src/pipeline/emit/write-registry.ts, OutputFolder.keep): its files are neither read, packed nor
 * written again. These check that this never changes what is published: after one skill changed,
 * after files were deleted or edited by hand in the output, and with a forged record beside the
 * cache, the folder holds byte for byte what a build into an empty folder writes.
 */
import { appendFileSync, cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistry } from '../../../src/pipeline/index.ts';
import type { SkillManifest } from '../../../src/core/schemas/manifest.ts';

const repo = join(import.meta.dirname, '..', '..', '..');
let work: string;
let root: string;
let cache: string;
let outDir: string;

/** Every file under `dir`, by relative path, with its bytes. */
function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) out.set(relative(dir, join(e.parentPath, e.name)), readFileSync(join(e.parentPath, e.name), 'latin1'));
  return out;
}

const build = (into: string, withCache = true) => buildRegistry({ root, outDir: into, cache: withCache ? cache : false, workers: false, sourceDateEpoch: 1_700_000_000, signingKeys: [] });

/** What a build into an empty folder, without a cache, writes from the same skills. */
async function fresh(): Promise<Map<string, string>> {
  const dir = mkdtempSync(join(work, 'fresh-'));
  const result = await build(dir, false);
  expect(result.ok).toBe(true);
  return tree(dir);
}

const manifestOf = (name: string): SkillManifest => JSON.parse(readFileSync(join(outDir, 'skills', `${name}.json`), 'utf8')) as SkillManifest;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'skilldex-outputs-'));
  root = join(work, 'root');
  cpSync(join(repo, 'skills'), join(root, 'skills'), { recursive: true });
  cache = join(work, 'cache', 'build-cache.json');
  outDir = join(work, 'out');
  expect((await build(outDir)).ok).toBe(true);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a rebuild keeps the output of unchanged skills', () => {
  it('after one skill changed, writes that skill again and leaves the others untouched', async () => {
    // The 0.1.0 mirror's SKILL.md of a skill.json skill is generated and written anew by every
    // emit, and a mirror of a published file linked anew: the same change time afterwards shows
    // the skill was not written again.
    const mirrorOf = (name: string, file: string) => join(outDir, '.well-known', 'skills', name, file);
    const stamps = () => [statSync(mirrorOf('summarize', 'SKILL.md')).ctimeMs, statSync(mirrorOf('action-items', 'SKILL.md')).ctimeMs];
    const untouched = stamps();
    const before = manifestOf('date-calc');
    appendFileSync(join(root, 'skills', 'productivity', 'date-calc', 'SKILL.md'), '\nOne more line.\n');

    const result = await build(outDir);
    expect(result.ok).toBe(true);
    expect(manifestOf('date-calc').digest).not.toBe(before.digest);
    expect(stamps()).toEqual(untouched);
    expect(tree(outDir)).toEqual(await fresh());
  });

  it('writes again what was deleted, edited, replaced or linked out by hand in a kept skill', async () => {
    const summarize = manifestOf('summarize');
    rmSync(join(outDir, summarize.urls.archive));
    appendFileSync(join(outDir, summarize.urls.manifest), ' ');
    rmSync(join(outDir, manifestOf('checksum').urls.files), { recursive: true });
    // A mirror file replaced by another of the same size, and a content-addressed file made a
    // link to a file outside the folder: neither is published, and the outside file is untouched.
    const mirror = join(outDir, '.well-known', 'skills', 'action-items', 'SKILL.md');
    writeFileSync(`${mirror}.new`, 'x'.repeat(statSync(mirror).size));
    renameSync(`${mirror}.new`, mirror);
    const outside = join(work, 'outside-link-target.md');
    writeFileSync(outside, 'outside\n');
    const linked = join(outDir, manifestOf('semver-tool').urls.files, 'SKILL.md');
    rmSync(linked);
    symlinkSync(outside, linked);
    // A content-addressed file cut short.
    const keywords = manifestOf('keyword_extract');
    const cut = join(outDir, keywords.urls.files, keywords.files[0]!.path);
    writeFileSync(cut, readFileSync(cut).subarray(0, 3));
    // Another skill changes, so the registry is written at all.
    appendFileSync(join(root, 'skills', 'productivity', 'date-calc', 'SKILL.md'), '\nAnd another.\n');

    expect((await build(outDir)).ok).toBe(true);
    expect(existsSync(join(outDir, summarize.urls.archive))).toBe(true);
    expect(lstatSync(linked).isFile()).toBe(true);
    expect(readFileSync(outside, 'utf8')).toBe('outside\n');
    expect(tree(outDir)).toEqual(await fresh());
  });

  it('ignores a forged record of skill outputs, whatever it claims', async () => {
    const sidecar = join(work, 'cache', 'build-cache.outputs.json');
    const record = JSON.parse(readFileSync(sidecar, 'utf8')) as { skills: { name: string; key: string; files: unknown[]; manifestDigest: string }[] };
    const outside = join(work, 'outside.txt');
    writeFileSync(outside, 'not the registry\n');
    // Claims on files outside the folder, on files that are not there, and records of the wrong shape.
    // Claims on no file at all, and on another skill's files, which would have this build delete
    // the skill's own output while the index still lists it.
    const filesOf = (name: string) => record.skills.find((s) => s.name === name)!.files;
    const keyOf = (name: string) => record.skills.find((s) => s.name === name)!.key;
    for (const s of record.skills) {
      if (s.name === 'summarize') s.files.push(['../outside.txt', 17, 0, 0]);
      if (s.name === 'checksum') s.files.push(['skills/checksum/never-written.txt', 1, 1, 1]);
      if (s.name === 'text_stats') s.manifestDigest = 42 as unknown as string;
      if (s.name === 'unit-converter') s.files = [];
      if (s.name === 'json-toolkit') s.files = filesOf('csv-profile');
    }
    for (const name of ['summarize', 'checksum', 'text_stats', 'unit-converter', 'json-toolkit', 'csv-profile']) expect(keyOf(name), name).toBeTruthy();
    record.skills.push({ name: 'ghost', key: 'x', files: [['index.json', 'big', 0, 0]], manifestDigest: '' });
    writeFileSync(sidecar, JSON.stringify(record));
    appendFileSync(join(root, 'skills', 'productivity', 'date-calc', 'SKILL.md'), '\nA third line.\n');

    expect((await build(outDir)).ok).toBe(true);
    expect(readFileSync(outside, 'utf8')).toBe('not the registry\n');
    expect(tree(outDir)).toEqual(await fresh());

    writeFileSync(sidecar, '{"format": 2, "salt": [], "skills": {"deep": ' + '['.repeat(5000) + ']'.repeat(5000) + '}}');
    appendFileSync(join(root, 'skills', 'productivity', 'date-calc', 'SKILL.md'), '\nA fourth line.\n');
    expect((await build(outDir)).ok).toBe(true);
    expect(tree(outDir)).toEqual(await fresh());
  });
});

/** Every entry under `dir` that is neither a file nor a folder (a link, a fifo), by relative path. */
const oddEntries = (dir: string): string[] => readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => !e.isFile() && !e.isDirectory()).map((e) => relative(dir, join(e.parentPath, e.name)));

describe('a rebuild over links put in the output folder', () => {
  it('never writes, reads or deletes through a link in place of a folder, and publishes none', async () => {
    // The whole skills/ folder moved out and linked back, with the output of a skill that is then
    // removed from the registry behind it: its stale files are not deleted out there.
    const outside = join(work, 'outside-skills');
    renameSync(join(outDir, 'skills'), outside);
    symlinkSync(outside, join(outDir, 'skills'));
    const wellKnown = join(outDir, '.well-known', 'skills');
    renameSync(join(wellKnown, 'summarize'), join(work, 'outside-summarize'));
    symlinkSync(join(work, 'outside-summarize'), join(wellKnown, 'summarize'));
    const removed = join(root, 'skills', 'data', 'checksum');
    const saved = join(work, 'checksum-source');
    renameSync(removed, saved);
    const before = [tree(outside), tree(join(work, 'outside-summarize'))];
    appendFileSync(join(root, 'skills', 'productivity', 'date-calc', 'SKILL.md'), '\nA fifth line.\n');
    try {
      expect((await build(outDir)).ok).toBe(true);
      expect([tree(outside), tree(join(work, 'outside-summarize'))]).toEqual(before);
      expect(oddEntries(outDir)).toEqual([]);
      expect(tree(outDir)).toEqual(await fresh());
    } finally {
      renameSync(saved, removed);
    }
  });

  it('never writes its record of what it wrote through a link', async () => {
    // The link leads to a copy of the record, so reading through it still finds what is stale.
    const outside = join(work, 'outside-record.json');
    renameSync(join(outDir, '.skilldex-build.json'), outside);
    symlinkSync(outside, join(outDir, '.skilldex-build.json'));
    const copy = readFileSync(outside, 'utf8');
    appendFileSync(join(root, 'skills', 'productivity', 'date-calc', 'SKILL.md'), '\nA sixth line.\n');
    expect((await build(outDir)).ok).toBe(true);
    expect(readFileSync(outside, 'utf8')).toBe(copy);
    expect(lstatSync(join(outDir, '.skilldex-build.json')).isFile()).toBe(true);
    expect(tree(outDir)).toEqual(await fresh());
  });

  it('publishes no archive or content file that someone replaced under its own name', async () => {
    // Replaced with bytes of the same size: the name does not vouch for the content, and the
    // archive's digest in the discovery index must be that of the archive the skill packs to.
    const summarize = manifestOf('summarize');
    const archive = join(outDir, summarize.urls.archive);
    writeFileSync(archive, Buffer.alloc(statSync(archive).size, 0x41));
    const toolkit = manifestOf('json-toolkit');
    const content = join(outDir, toolkit.urls.files, toolkit.files[0]!.path);
    writeFileSync(content, Buffer.alloc(statSync(content).size, 0x41));
    appendFileSync(join(root, 'skills', 'productivity', 'date-calc', 'SKILL.md'), '\nA seventh line.\n');
    expect((await build(outDir)).ok).toBe(true);
    expect(tree(outDir)).toEqual(await fresh());

    // A skill the build does not keep (its record's key no longer matches) packs its archive
    // again rather than reading the one found under its name.
    writeFileSync(archive, Buffer.alloc(100, 0x42));
    const sidecar = join(work, 'cache', 'build-cache.outputs.json');
    const record = JSON.parse(readFileSync(sidecar, 'utf8')) as { skills: { name: string; key: string }[] };
    for (const s of record.skills) if (s.name === 'summarize') s.key = 'changed';
    writeFileSync(sidecar, JSON.stringify(record));
    appendFileSync(join(root, 'skills', 'productivity', 'date-calc', 'SKILL.md'), '\nAn eighth line.\n');
    expect((await build(outDir)).ok).toBe(true);
    expect(tree(outDir)).toEqual(await fresh());
  });
});
