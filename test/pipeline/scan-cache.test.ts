/**
 * A rebuild reuses an unchanged skill's scan without working out the names it could imitate when
 * the list of skill names is the one its scan was keyed with (src/pipeline/phases/scan.ts). A new
 * look-alike changes that list, so the original is scanned again and the typosquatting finding
 * appears; removing the look-alike takes it away again.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistry } from '../../src/pipeline/index.ts';

let work: string;
let root: string;

const skillMd = (name: string) => `---\nname: ${name}\ndescription: Formats ${name} reports. Use it when testing.\n---\n\n# ${name}\n`;

function skill(name: string): void {
  mkdirSync(join(root, 'skills', name), { recursive: true });
  writeFileSync(join(root, 'skills', name, 'SKILL.md'), skillMd(name));
  // Older than the build cache's racy window, so the next build may trust every stamp.
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const path of [join(root, 'skills', name, 'SKILL.md'), join(root, 'skills', name), join(root, 'skills')]) utimesSync(path, hourAgo, hourAgo);
}

const build = () => buildRegistry({ root, outDir: join(work, 'out'), cache: join(work, 'cache.json'), workers: false, lenient: true, sourceDateEpoch: 1_700_000_000, signingKeys: [] });
const typosquatted = (result: Awaited<ReturnType<typeof build>>) => result.manifests.filter((m) => m.scan?.findings.some((f) => f.rule === 'name/typosquat')).map((m) => m.name).sort();

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'skilldex-scan-cache-'));
  root = join(work, 'root');
  for (const name of ['invoice-parser', 'meeting-notes', 'release-checklist']) skill(name);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('scans reused by a rebuild', () => {
  it('are reused while the names are the same, and redone for every skill a new look-alike imitates', async () => {
    const cold = await build();
    expect(typosquatted(cold)).toEqual([]);
    const noop = await build();
    expect(noop.cache).toMatchObject({ hits: 3, misses: 0, scanHits: 3, scanMisses: 0 });
    expect(noop.manifests).toEqual(cold.manifests);

    skill('invoice-parsar');
    const withLookalike = await build();
    expect(withLookalike.cache).toMatchObject({ hits: 3, misses: 1 });
    expect(typosquatted(withLookalike)).toEqual(['invoice-parsar', 'invoice-parser']);
    // Reused from the cache now, findings and all: the rescan above replaced what the cache held.
    const again = await build();
    expect(again.cache).toMatchObject({ misses: 0, scanMisses: 0 });
    expect(typosquatted(again)).toEqual(['invoice-parsar', 'invoice-parser']);

    rmSync(join(root, 'skills', 'invoice-parsar'), { recursive: true });
    utimesSync(join(root, 'skills'), new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    const without = await build();
    expect(readdirSync(join(root, 'skills')).sort()).toEqual(['invoice-parser', 'meeting-notes', 'release-checklist']);
    expect(typosquatted(without)).toEqual([]);
    expect(without.manifests).toEqual(cold.manifests);
  });
});
