/**
 * The per-skill phase (src/pipeline/phases/prepare.ts) runs on worker threads in a large build
 * and on the main thread in a small one. These build one generated registry both ways and
 * compare everything: diagnostics (order included), manifests, the build cache's entries and
 * every byte of the output. They also check that a skill whose read fails half-way is held back
 * with a clear `internal/check-failed` error, the same with and without workers, while every
 * other skill is checked as usual.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateRegistry } from '../../scripts/generate-registry.ts';
import { RegistryConfig } from '../../src/core/schemas/config.ts';
import { discoverSkills } from '../../src/pipeline/discover.ts';
import { DiagnosticSink } from '../../src/pipeline/diagnostics.ts';
import { buildRegistry, type BuildResult } from '../../src/pipeline/index.ts';
import { readSkills } from '../../src/pipeline/phases/read.ts';

let work: string;
let root: string;
const builds: Record<'workers' | 'busy' | 'inline', { out: string; cache: string; result: BuildResult }> = {} as never;

/** Every file under `dir`, by relative path, with its bytes. */
function tree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const visit = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const abs = join(d, e.name);
      if (e.isDirectory()) visit(abs);
      else out.set(relative(dir, abs), readFileSync(abs));
    }
  };
  visit(dir);
  return out;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'skilldex-prepare-'));
  root = (await generateRegistry({ count: 60, seed: 7, out: join(work, 'root') })).root;
  // Skills with problems of their own: a warning, an error that holds the skill back, a scan finding.
  const skill = (dir: string, text: string) => {
    mkdirSync(join(root, 'skills', dir), { recursive: true });
    writeFileSync(join(root, 'skills', dir, 'SKILL.md'), text);
  };
  skill('zero-width', '---\nname: zero-width\ndescription: Hides a zero\u200bwidth space. Use it when testing.\n---\n\n# Zero\n');
  skill('bad-name', '---\nname: Bad_Name\ndescription: A name that breaks the rules. Use it when testing.\n---\n\n# Bad\n');
  skill('fetcher', '---\nname: fetcher\ndescription: Fetches a page. Use it when testing.\n---\n\nRun `curl https://example.org/data.json` to fetch it.\n');
  // Older than the build cache's racy window, so that the rebuild below may trust every stamp.
  const hourAgo = new Date(Date.now() - 3_600_000);
  const age = (path: string) => {
    for (const e of readdirSync(path, { withFileTypes: true })) if (e.isDirectory()) age(join(path, e.name));
    else utimesSync(join(path, e.name), hourAgo, hourAgo);
    utimesSync(path, hourAgo, hourAgo);
  };
  age(join(root, 'skills'));
  // Workers beside this thread, workers alone (this thread busy with other work, as in the site build), this thread alone.
  for (const [kind, workers] of [['workers', 2], ['busy', 2], ['inline', false]] as const) {
    const out = join(work, `out-${kind}`);
    const cache = join(work, `cache-${kind}.json`);
    builds[kind] = { out, cache, result: await buildRegistry({ root, outDir: out, cache, workers, callerBusy: kind === 'busy', lenient: true, sourceDateEpoch: 1_700_000_000, signingKeys: [] }) };
  }
}, 240_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a build with and without worker threads', () => {
  it.each(['workers', 'busy'] as const)('reports the same diagnostics in the same order, and the same manifests (%s)', (kind) => {
    const { [kind]: threaded, inline } = builds;
    expect(threaded.result.diagnostics.map((d) => d.rule)).toEqual(expect.arrayContaining(['files/zero-width', 'name/charset']));
    expect(threaded.result.diagnostics).toEqual(inline.result.diagnostics);
    expect(threaded.result.rejected).toEqual(inline.result.rejected);
    expect(threaded.result.manifests).toEqual(inline.result.manifests);
    expect(threaded.result.manifests.length).toBeGreaterThan(60);
  });

  it.each(['workers', 'busy'] as const)('writes byte-identical output (%s)', (kind) => {
    const a = tree(builds[kind].out);
    const b = tree(builds.inline.out);
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    const differing = [...a].filter(([path, bytes]) => !bytes.equals(b.get(path) as Buffer)).map(([path]) => path);
    expect(differing).toEqual([]);
    expect(a.size).toBeGreaterThan(300);
  });

  it.each(['workers', 'busy'] as const)('records the same build cache entries (%s)', (kind) => {
    // A header line, then one line per skill.
    const entries = (file: string) => readFileSync(file, 'utf8').split('\n').slice(1);
    expect(entries(builds[kind].cache).length).toBeGreaterThan(30);
    expect(entries(builds[kind].cache)).toEqual(entries(builds.inline.cache));
  });

  it('rebuilds from the cache alone when nothing changed', async () => {
    const { out, cache } = builds.workers;
    const again = await buildRegistry({ root, outDir: out, cache, workers: 2, lenient: true, sourceDateEpoch: 1_700_000_000, signingKeys: [] });
    expect(again.cache).toMatchObject({ misses: 0, scanMisses: 0, emitSkipped: true });
    expect(again.diagnostics).toEqual(builds.workers.result.diagnostics);
  });
});

describe('a skill whose files change while it is read', () => {
  it('is held back with internal/check-failed naming the file, with and without workers; the others are checked', async () => {
    const config = RegistryConfig.parse({});
    const outcomes = [];
    for (const workers of [2, false] as const) {
      const found = await discoverSkills(root, 'skills', new DiagnosticSink(config.rules));
      // Removed after discovery listed it, before the skill is read: as a checkout being switched would.
      const victim = found.find((f) => f.dir === 'skills/fetcher') as (typeof found)[number];
      rmSync(join(root, victim.dir, 'SKILL.md'));
      try {
        const read = await readSkills(root, found, config, { workers });
        const failed = read.filter((r) => r.diagnostics.some((d) => d.rule === 'internal/check-failed'));
        expect(failed.map((r) => r.source.dir)).toEqual(['skills/fetcher']);
        const [error] = failed[0]?.diagnostics ?? [];
        expect(error).toMatchObject({ rule: 'internal/check-failed', severity: 'error', file: 'skills/fetcher/SKILL.md', line: 1, skill: 'fetcher' });
        expect(error?.message).toMatch(/^the skill could not be checked: ENOENT: no such file or directory, open '.*skills\/fetcher\/SKILL\.md'$/);
        expect(error?.hint).toBeTruthy();
        expect(failed[0]?.draft).toBeUndefined();
        expect(read.filter((r) => r.draft)).toHaveLength(found.length - 2); // all but the victim and Bad_Name
        outcomes.push(read.map((r) => [r.source.dir, r.diagnostics, r.draft]));
      } finally {
        writeFileSync(join(root, victim.dir, 'SKILL.md'), '---\nname: fetcher\ndescription: Fetches a page. Use it when testing.\n---\n\nRun `curl https://example.org/data.json` to fetch it.\n');
      }
    }
    expect(outcomes[0]).toEqual(outcomes[1]);
  }, 120_000);
});

describe('discovery', () => {
  it('tells of each declaration as the walk meets it, so worker threads can start before it ends', async () => {
    const config = RegistryConfig.parse({});
    const counts: number[] = [];
    const found = await discoverSkills(root, 'skills', new DiagnosticSink(config.rules), { onDeclaration: (count) => counts.push(count) });
    expect(found.length).toBeGreaterThan(60);
    expect(counts).toEqual(Array.from({ length: counts.length }, (_, i) => i + 1));
    // Every skill folder's declaration was met (a folder may hold both SKILL.md and skill.json).
    expect(counts.length).toBeGreaterThanOrEqual(found.length);
  });
});
