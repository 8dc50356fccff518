import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `npm run bench --quick` (N=200, one run) as a smoke test: the benchmark runs end to end and
 * produces sane figures. How fast anything is, is not asserted: CI machines are noisy.
 */
const repo = join(import.meta.dirname, '..', '..');
const out = mkdtempSync(join(tmpdir(), 'skilldex-bench-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const positive = (x: unknown) => typeof x === 'number' && Number.isFinite(x) && x > 0;

describe('npm run bench -- --quick', () => {
  it('runs every measurement and writes results.json and results.md', () => {
    const run = spawnSync(process.execPath, [join(repo, 'scripts', 'bench.ts'), '--quick', '--out', out], { cwd: repo, encoding: 'utf8', timeout: 480_000 });
    expect(run.status, `${run.stderr}\n${run.stdout}`).toBe(0);
    expect(run.stdout).toContain('| measure | N = 200 |');
    expect(existsSync(join(out, 'results.md'))).toBe(true);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));

    expect(results.machine.nproc).toBeGreaterThan(0);
    expect(results.machine.node).toMatch(/^v\d+/);
    expect(results.runs).toBe(1);
    expect(results.sizes).toHaveLength(1);
    const s = results.sizes[0];
    expect(s.n).toBe(200);
    expect(s.generated.files).toBeGreaterThan(200);

    // 1 and 2: index build against its floor, no-op rebuild from the cache.
    expect(s.index.ok).toBe(true);
    for (const x of [s.index.wallMs, s.index.floorMs, s.index.ratioToFloor, s.index.maxRssMb, s.noop.wallMs, s.noop.fractionOfCold]) expect(positive(x), JSON.stringify(s.index)).toBe(true);
    // `skilldex build` answered from the last build's record, the first time already: the bench
    // waited out the racy window after generating the registry, so the cold build recorded it.
    expect(s.noop.unchanged).toBe(true);
    expect(`${run.stdout}${run.stderr}`).not.toContain('no-op ran the whole build');
    // The second floor: copy every file into a fresh folder and gzip each skill, as the build writes.
    for (const x of [s.index.writeFloorMs, s.index.ratioToWriteFloor]) expect(positive(x), JSON.stringify(s.index)).toBe(true);
    expect(run.stdout).toMatch(/\| {3}write floor: copy every file \+ gzip each skill \| \d+\.\d\d s \|/);
    // One skill changed: that skill alone is read again, and the registry is written.
    expect(positive(s.oneChanged.wallMs), JSON.stringify(s.oneChanged)).toBe(true);
    expect(s.oneChanged.unchanged).toBe(false);
    expect(run.stdout).toMatch(/\| one skill changed: index rebuilt, wall \(fraction of cold\) \| \d+\.\d\d s \(\d+ %\) \|/);

    // 3: the site build and the bare-Astro floor.
    expect(s.site.error).toBeUndefined();
    for (const x of [s.site.wallMs, s.site.floorMs, s.site.ratioToFloor, s.site.maxRssMb, s.site.floorRssMb]) expect(positive(x), JSON.stringify(s.site)).toBe(true);
    expect(s.site.floorBreakdown.pages).toBe(200);
    // Site rebuilds over the warm caches: one skill changed, and nothing changed.
    expect(positive(s.site.oneSkillChangedMs), JSON.stringify(s.site)).toBe(true);
    expect(run.stdout).toMatch(/\| {3}one skill changed: site rebuilt, wall \(fraction of cold\) \| \d+\.\d\d s \(\d+ %\) \|/);
    expect(positive(s.site.noopMs), JSON.stringify(s.site)).toBe(true);
    expect(run.stdout).toMatch(/\| {3}nothing changed: site rebuilt, wall \(fraction of cold\) \| \d+\.\d\d s \(\d+ %\) \|/);
    // Nothing changed: every skill's pages were kept as the last build wrote them, and no skill
    // document was rendered; after one skill changed, every other skill's pages were kept.
    const kept = (breakdown: string) => Number(/(\d+) skill pages kept as they were/.exec(breakdown)?.[1]);
    expect(kept(s.site.noopBreakdown), s.site.noopBreakdown).toBe(200);
    expect(s.site.noopBreakdown).toMatch(/; 0 skill documents, 0 from the render cache/);
    expect(kept(s.site.oneSkillChangedBreakdown), s.site.oneSkillChangedBreakdown).toBe(199);

    // 4: sizes.
    const z = s.sizes;
    for (const x of [z.indexJson.bytes, z.indexJson.gzipBytes, z.indexJson.bytesPerSkill, z.wellKnownIndex.bytes, z.pagefind.bytes, z.site.bytes, z.nameDescriptionFloor.gzipBytes, z.indexToFloorGzipRatio, z.indexJson.brotliBytes, z.nameDescriptionFloor.brotliBytes, z.indexToFloorBrotliRatio]) expect(positive(x), JSON.stringify(z)).toBe(true);
    expect(z.indexJson.gzipBytes).toBeLessThan(z.indexJson.bytes);
    expect(z.site.bytes).toBeGreaterThan(z.pagefind.bytes);

    // 5: runtime over HTTP.
    const rt = s.runtime;
    expect(rt.error).toBeUndefined();
    for (const x of [rt.openMs, rt.searchMedianMs, rt.searchP95Ms, rt.installMs]) expect(positive(x), JSON.stringify(rt)).toBe(true);
    expect(rt.queries).toBe(1000);
    expect(rt.searchP95Ms).toBeGreaterThanOrEqual(rt.searchMedianMs);
    expect(rt.installFiles).toBe(20);
    expect(rt.averageHits).toBeGreaterThan(0);

    // 6: Chromium found results for both terms.
    const br = s.browser;
    expect(br.error).toBeUndefined();
    for (const kind of ['rare', 'common']) {
      expect(positive(br[kind].firstResultMs), JSON.stringify(br)).toBe(true);
      expect(br[kind].results).toBeGreaterThan(0);
    }

    // Once per run: start-up medians beside bare Node, and the corpus beside skills-ref.
    const up = results.modules.startup;
    expect(up.runs).toBeGreaterThanOrEqual(5);
    for (const x of [up.floorMs, up.versionMs, up.validateOneMs, up.installed.versionMs, up.installed.validateOneMs]) expect(positive(x), JSON.stringify(up)).toBe(true);
    expect(up.samples.version).toHaveLength(up.runs);
    expect(up.samples.installedValidateOne).toHaveLength(up.runs);
    expect(up.versionMs).toBeGreaterThan(up.floorMs);
    expect(up.installed.versionMs).toBeGreaterThan(up.floorMs);
    const corpus = results.modules.corpus;
    expect(corpus.skills).toBe(200);
    for (const x of [corpus.floorMs, corpus.skillsRefMs, corpus.noScanMs, corpus.scanMs, corpus.checkoutNoScanMs, corpus.noScanToSkillsRef, corpus.scanToSkillsRef]) expect(positive(x), JSON.stringify(corpus)).toBe(true);
    expect(run.stdout).toContain('| `skilldex --version`, installed package / checkout |');
    // Lighthouse's four scores and axe's count, for the catalog page at the quick scale.
    const audit = results.modules['site-audit'];
    expect(audit.lighthouse.map((r: { formFactor: string }) => r.formFactor)).toEqual(['mobile', 'desktop']);
    for (const r of audit.lighthouse) for (const c of ['performance', 'accessibility', 'best-practices', 'seo']) expect(r.scores[c], JSON.stringify(r)).toBeGreaterThan(0);
    expect(audit.axe.pages).toBe(1);
    expect(run.stdout).toMatch(/\| Lighthouse \/, mobile: performance \/ accessibility \/ best practices \/ SEO \| \d+ \/ \d+ \/ \d+ \/ \d+ \|/);
    expect(run.stdout).toMatch(/\| 200-skill corpus \([\d,]+ files, [\d.]+ MB\): `skilldex validate --no-scan`, installed package \| [\d.]+ s \([\d.]+× skills-ref\) \|/);
  }, 500_000);
});
