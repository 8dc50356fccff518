import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateRegistry, type GeneratedRegistry } from '../../scripts/generate-registry.ts';
import { buildRegistry } from '../../src/pipeline/index.ts';
import type { RegistryIndex } from '../../src/core/schemas/registry-index.ts';

/** Every file under `dir` with its bytes, for byte-for-byte comparison of two outputs. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const abs = join(entry.parentPath, entry.name);
    out.set(relative(dir, abs), readFileSync(abs).toString('base64'));
  }
  return out;
}

/** Backdates every file, so none is "racy" (modified within the cache's timestamp window). */
function backdate(dir: string, seconds = 3600): void {
  const when = Date.now() / 1000 - seconds;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) utimesSync(join(entry.parentPath, entry.name), when, when);
  utimesSync(dir, when, when);
}

let work: string;
let reg: GeneratedRegistry;
const out = (name: string) => join(work, name);
const cacheFile = () => join(work, 'cache.json');
const build = (outDir: string, cache: string | false) => buildRegistry({ root: reg.root, outDir, cache, sourceDateEpoch: 1767225600 });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'skilldex-cache-'));
  reg = await generateRegistry({ count: 60, seed: 3, out: join(work, 'root') });
  backdate(join(reg.root, 'skills'));
}, 60_000);
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('build cache', () => {
  it('a no-op rebuild reads nothing, rewrites nothing, and the output is byte-identical to a cold build', async () => {
    const cold = await build(out('cold'), false);
    expect(cold.ok).toBe(true);
    expect(cold.cache).toBeUndefined();

    const first = await build(out('cached'), cacheFile());
    expect(first.cache).toMatchObject({ hits: 0, misses: 60, emitSkipped: false });
    const again = await build(out('cached'), cacheFile());
    expect(again.cache).toMatchObject({ hits: 60, misses: 0, scanHits: 60, emitSkipped: true });
    const cacheStamp = statSync(cacheFile()).mtimeMs;
    const third = await build(out('cached'), cacheFile());
    expect(third.cache).toMatchObject({ hits: 60, misses: 0, scanHits: 60, scanMisses: 0, emitSkipped: true });
    expect(statSync(cacheFile()).mtimeMs).toBe(cacheStamp); // nothing changed, nothing rewritten
    // A fresh folder from a warm cache: nothing is re-read or re-scanned, but everything is written.
    const elsewhere = await build(out('elsewhere'), cacheFile());
    expect(elsewhere.cache).toMatchObject({ hits: 60, misses: 0, scanHits: 60, emitSkipped: false });

    const expected = snapshot(out('cold'));
    expect(expected.size).toBeGreaterThan(60 * 3);
    expect(snapshot(out('cached'))).toEqual(expected);
    expect(snapshot(out('elsewhere'))).toEqual(expected);
    // The results handed to callers (the site build) match too.
    for (const r of [again, elsewhere]) {
      expect(r.index).toEqual(cold.index);
      expect(r.manifests).toEqual(cold.manifests);
      expect(r.diagnostics).toEqual(cold.diagnostics);
      expect(r.notDiscoverable).toEqual(cold.notDiscoverable);
    }
    // The cache file is plain ASCII (other characters escaped), yet gave back the Chinese and
    // Japanese descriptions and instructions unchanged (the manifests above).
    expect(cold.manifests.some((m) => /[^\x00-\x7f]/.test(`${m.description}${m.instructions ?? ''}`))).toBe(true);
    expect(/[^\x00-\x7f]/.test(readFileSync(cacheFile(), 'latin1'))).toBe(false);
  }, 120_000);

  it('a truncated or altered cache file is not trusted: the build reads everything again and its output is the same', async () => {
    const file = join(work, 'damaged-cache.json');
    await build(out('damaged'), file);
    const whole = readFileSync(file, 'utf8');
    const expected = snapshot(out('damaged'));
    const damaged = [
      whole.slice(0, Math.floor(whole.length / 2)), // cut off mid-write
      whole.replace(/"salt":"[0-9a-f]+"/, `"salt":"${'0'.repeat(64)}"`), // written with other rules or another config
      whole.replace(/"format":\d+/, '"format":1'), // an older shape
    ];
    for (const text of damaged) {
      expect(text).not.toBe(whole);
      writeFileSync(file, text);
      const result = await build(out('damaged'), file);
      expect(result.cache).toMatchObject({ hits: 0, misses: 60, emitSkipped: false });
      expect(snapshot(out('damaged'))).toEqual(expected);
    }
  }, 120_000);

  it('an edited skill is rebuilt and only its URLs change; the rest keep theirs (content addressing)', async () => {
    const before = JSON.parse(readFileSync(join(out('cached'), 'index.json'), 'utf8')) as RegistryIndex;
    const target = reg.skills.find((s) => s.kind === 'skill-md') as GeneratedRegistry['skills'][number];
    const file = join(reg.root, target.dir, 'SKILL.md');
    const size = statSync(file).size;
    appendFileSync(file, '\nOne more line of instructions.\n');
    expect(statSync(file).size).toBeGreaterThan(size);

    const rebuilt = await build(out('cached'), cacheFile());
    expect(rebuilt.cache).toMatchObject({ hits: 59, misses: 1, emitSkipped: false });
    // The 59 skills' lines written back as they were read are, byte for byte, what a build without
    // a cache to start from writes: the file's first line is its header, then a line per skill.
    const fresh = join(work, 'fresh-cache.json');
    await build(out('fresh'), fresh);
    const skillLines = (file: string) => readFileSync(file, 'utf8').split('\n').slice(1);
    expect(skillLines(fresh)).toHaveLength(60 + 1); // and the newline that ends the file
    expect(skillLines(cacheFile())).toEqual(skillLines(fresh));
    const cold = await build(out('cold-after'), false);
    expect(snapshot(out('cached'))).toEqual(snapshot(out('cold-after')));

    const after = JSON.parse(readFileSync(join(out('cached'), 'index.json'), 'utf8')) as RegistryIndex;
    expect(after).toEqual(cold.index);
    const byName = new Map(before.skills.map((s) => [s.name, s]));
    let changed = 0;
    for (const skill of after.skills) {
      const old = byName.get(skill.name);
      if (skill.name === target.name) {
        changed++;
        expect(skill.digest).not.toBe(old?.digest);
        expect(skill.path).not.toBe(old?.path);
        expect(skill.manifestDigest).not.toBe(old?.manifestDigest);
      } else {
        expect(skill.path).toBe(old?.path);
        expect(skill.digest).toBe(old?.digest);
      }
    }
    expect(changed).toBe(1);
    // The old content-addressed files are gone from the output, never overwritten in place.
    const oldFiles = byName.get(target.name)?.path as string;
    const listing = [...snapshot(out('cached')).keys()];
    expect(listing.some((p) => p.startsWith(oldFiles))).toBe(false);
  }, 120_000);

  it('a skill added or removed misses only where it must', async () => {
    const dropped = reg.skills.find((s) => s.kind === 'skill-md' && s.dir.split('/').length === 2) as GeneratedRegistry['skills'][number];
    await rm(join(reg.root, dropped.dir), { recursive: true });
    const result = await build(out('cached'), cacheFile());
    expect(result.manifests.some((m) => m.name === dropped.name)).toBe(false);
    expect(result.cache?.misses ?? 0).toBeLessThanOrEqual(1); // only the skill edited in the previous test, if racy
    await build(out('cold-dropped'), false);
    expect(snapshot(out('cached'))).toEqual(snapshot(out('cold-dropped')));
  }, 120_000);

  it('discovery is taken from the cache only while no folder changed: a new or nested skill is found, its problems reported', async () => {
    const root = join(work, 'discovery');
    cpSync(reg.root, root, { recursive: true });
    // A skill folder inside another one: discovery reports it (and publishes it as the outer skill's files).
    const outer = reg.skills.find((s) => s.kind === 'skill-md' && s.dir.split('/').length === 2 && existsSync(join(root, s.dir))) as GeneratedRegistry['skills'][number];
    mkdirSync(join(root, outer.dir, 'references', 'inner'), { recursive: true });
    writeFileSync(join(root, outer.dir, 'references', 'inner', 'SKILL.md'), '---\nname: inner\ndescription: A skill inside another skill.\n---\n# inner\n');
    backdate(join(root, 'skills'));
    const cacheAt = join(work, 'discovery-cache.json');
    const run = (outDir: string, cache: string | false) => buildRegistry({ root, outDir: join(work, outDir), cache, lenient: true, sourceDateEpoch: 1767225600 });
    const cold = await run('discovery-cold', false);
    expect(cold.diagnostics.map((d) => d.rule)).toContain('discovery/nested-skill');
    await run('discovery-cached', cacheAt);
    const written = statSync(cacheAt).mtimeMs;
    const cached = await run('discovery-cached', cacheAt);
    expect(cached.cache).toMatchObject({ misses: 0, emitSkipped: true });
    expect(statSync(cacheAt).mtimeMs).toBe(written); // discovery's record reused as it was, so nothing to rewrite
    expect(cached.diagnostics).toEqual(cold.diagnostics);
    expect(JSON.parse(readFileSync(cacheAt, 'utf8').split('\n')[0] as string).discovery.found).toHaveLength(cold.manifests.length + cold.rejected.length);

    // A skill added to a category folder, everything dated back again: only that folder's stamp
    // (its ctime) tells the cache that listing it again would find more.
    const category = reg.skills.find((s) => s.dir.split('/').length === 3) as GeneratedRegistry['skills'][number];
    const added = join(root, category.dir, '..', 'added-later');
    mkdirSync(added);
    writeFileSync(join(added, 'SKILL.md'), '---\nname: added-later\ndescription: A skill added after the cache was written.\n---\n# added-later\n\nDo the thing.\n');
    backdate(join(root, 'skills'));
    const grown = await run('discovery-cached', cacheAt);
    expect(grown.manifests.map((m) => m.name)).toContain('added-later');
    const coldGrown = await run('discovery-cold-grown', false);
    expect(grown.diagnostics).toEqual(coldGrown.diagnostics);
    expect(snapshot(join(work, 'discovery-cached'))).toEqual(snapshot(join(work, 'discovery-cold-grown')));

    // A skill nested two folders deep in a skill the cache holds, declared twice: reading that
    // skill again reports it, once, at its skill.json.
    const host = reg.skills.find((s) => s.kind === 'skill-md' && s.dir !== outer.dir && existsSync(join(root, s.dir))) as GeneratedRegistry['skills'][number];
    const deep = join(root, host.dir, 'references', 'more', 'deep');
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'SKILL.md'), '---\nname: deep\ndescription: Nested.\n---\n# deep\n');
    writeFileSync(join(deep, 'skill.json'), '{}\n');
    backdate(join(root, 'skills'));
    const nested = await run('discovery-cached', cacheAt);
    const reports = nested.diagnostics.filter((d) => d.rule === 'discovery/nested-skill' && d.file.startsWith(host.dir));
    expect(reports.map((d) => [d.file, d.message])).toEqual([[`${host.dir}/references/more/deep/skill.json`, `skill folder '${host.dir}/references/more/deep' sits inside skill '${host.dir}'; it is published only as files of the outer skill`]]);
    expect(nested.diagnostics).toEqual((await run('discovery-cold-nested', false)).diagnostics);
  }, 120_000);

  it('registry-wide diagnostics from cached skills point where a cold build points', async () => {
    // Two folders declaring one name, and a composite calling a missing function: registry rules
    // report these at positions inside files the cached build never reads.
    const root = join(work, 'dupes');
    cpSync(reg.root, root, { recursive: true });
    const plain = reg.skills.findLast((s) => s.kind === 'skill-md' && s.dir.split('/').length === 2 && existsSync(join(root, s.dir))) as GeneratedRegistry['skills'][number];
    const copy = join(root, 'skills', 'zz-copies', plain.name);
    mkdirSync(copy, { recursive: true });
    cpSync(join(root, plain.dir), copy, { recursive: true });
    const composite = reg.skills.find((s) => s.kind === 'json-composite') as GeneratedRegistry['skills'][number];
    const jsonFile = join(root, composite.dir, 'skill.json');
    const json = JSON.parse(readFileSync(jsonFile, 'utf8'));
    json.calls.push('no_such_function');
    writeFileSync(jsonFile, `${JSON.stringify(json, null, 2)}\n`);
    backdate(join(root, 'skills'));
    const run = (cache: string | false) => buildRegistry({ root, outDir: join(work, `dupes-${cache === false ? 'cold' : 'cached'}`), cache, lenient: true, sourceDateEpoch: 1767225600 });
    const cold = await run(false);
    const registryRules = cold.diagnostics.filter((d) => d.rule.startsWith('registry/'));
    expect(registryRules.map((d) => d.rule).sort()).toEqual(expect.arrayContaining(['registry/duplicate-name', 'registry/unknown-call']));
    await run(join(work, 'dupes-cache.json'));
    const cached = await run(join(work, 'dupes-cache.json'));
    expect(cached.cache).toMatchObject({ misses: 0 });
    expect(cached.diagnostics).toEqual(cold.diagnostics);
    expect(cached.rejected).toEqual(cold.rejected);
    expect(snapshot(join(work, 'dupes-cached'))).toEqual(snapshot(join(work, 'dupes-cold')));
  }, 120_000);
});
