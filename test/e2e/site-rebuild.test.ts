/**
 * Rebuilding a site after one skill changed, as a deploy after a one-skill pull request does:
 * `node scripts/build.ts` twice over the same root and output folder, with the render cache
 * (src/site/render/) between them. The changed skill's pages show the new text; every other
 * skill's pages are kept as the first build wrote them (src/site/catalog/kept-pages.ts) and its
 * files are byte for byte the same. A build into another folder, which keeps nothing, takes every
 * document from the cache but one that was tampered with. A rebuild in which no skill page changed
 * keeps the search index as it was, unless a file of it was touched.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateRegistry, type GeneratedRegistry } from '../../scripts/generate-registry.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
let work: string;
let registry: GeneratedRegistry;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'skilldex-site-rebuild-'));
  registry = await generateRegistry({ count: 12, seed: 16, out: path.join(work, 'root') });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `node scripts/build.ts` into `out`, as a deploy runs it; its report line. */
function runBuild(out: string): string {
  const run = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/build.ts'), '--root', registry.root, '--out', out], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, SOURCE_DATE_EPOCH: '1767225600' },
  });
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  return run.stdout;
}

function build(out: string) {
  const stdout = runBuild(out);
  const counts = /(\d+) skill documents, (\d+) from the render cache; (\d+) skill pages kept/.exec(stdout);
  expect(counts, stdout).not.toBeNull();
  return { documents: Number(counts![1]), hits: Number(counts![2]), kept: Number(counts![3]) };
}

/** How many pages a build into `out` made searchable, and whether it kept the last search index. */
function buildSearch(out: string) {
  const stdout = runBuild(out);
  const searchable = /(\d+) pages searchable( \(search index kept as it was\))?/.exec(stdout);
  expect(searchable, stdout).not.toBeNull();
  return { searchable: Number(searchable![1]), searchKept: searchable![2] !== undefined };
}

/** Every file under `dir`, path → sha256. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, file), createHash('sha256').update(readFileSync(file)).digest('hex'));
  }
  return files;
}

describe('a site rebuilt after one skill changed', () => {
  // Two site builds; minutes on a busy two-core machine.
  it("shows the new text on that skill's pages and leaves every other skill's files identical", { timeout: 600_000 }, () => {
    const out = path.join(work, 'site');
    const cold = build(out);
    expect(cold.hits).toBe(0);
    expect(cold.documents).toBeGreaterThan(registry.count);
    const before = snapshot(out);
    // Listing pages (all skills, and each facet value, by any sort and page) with their mtimes.
    const listingTimes = () => new Map([...snapshot(out).keys()].filter((f) => /^(browse|tag|category|format|mode)\/.+\/index\.html$/.test(f)).map((f) => [f, statSync(path.join(out, f)).mtimeMs]));
    const listingsBefore = listingTimes();
    expect(listingsBefore.size).toBeGreaterThan(10);

    // One skill with reference files gets a new line in SKILL.md and in one of its references.
    const changed = registry.skills.find((s) => s.kind === 'skill-md' && readdirSync(path.join(registry.root, s.dir)).includes('references'))!;
    expect(changed, 'the generated registry has a SKILL.md skill with references').toBeDefined();
    const reference = readdirSync(path.join(registry.root, changed.dir, 'references')).find((f) => f.endsWith('.md'))!;
    appendFileSync(path.join(registry.root, changed.dir, 'SKILL.md'), '\nA sentence added after the first build.\n');
    appendFileSync(path.join(registry.root, changed.dir, 'references', reference), '\nA reference line added after the first build.\n');

    // The cached render of another skill's documentation is rewritten to carry a script, with a
    // consistent digest.
    const other = registry.skills.find((s) => s.name !== changed.name && s.kind === 'skill-md')!;
    const otherPage = readFileSync(path.join(out, 'skills', other.name, 'index.html'), 'utf8');
    const cacheDir = path.join(registry.root, '.cache/skilldex/site-render');
    const victim = readdirSync(cacheDir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name))
      .find((file) => otherPage.includes((JSON.parse(readFileSync(file, 'utf8')) as { html: string }).html))!;
    expect(victim, "the other skill's documentation is in the cache").toBeDefined();
    const entry = JSON.parse(readFileSync(victim, 'utf8')) as { html: string };
    const html = `${entry.html}<script>window.__owned = 1</script>`;
    writeFileSync(victim, JSON.stringify({ ...entry, html, sha256: createHash('sha256').update(html).digest('hex') }));

    const warm = build(out);
    // Only the changed skill's pages are generated: every document of it is rendered afresh (its
    // files moved to a new digest's folder, which their links name); the other skills keep their pages.
    const changedDocuments = readdirSync(path.join(registry.root, changed.dir), { recursive: true }).filter((f) => String(f).endsWith('.md')).length;
    expect(warm).toEqual({ documents: changedDocuments, hits: 0, kept: registry.count - 1 });
    const after = snapshot(out);
    // A change to a skill's documentation changes no card, count or sidebar: every listing page is kept.
    expect(listingTimes()).toEqual(listingsBefore);

    const page = readFileSync(path.join(out, 'skills', changed.name, 'index.html'), 'utf8');
    expect(page).toContain('A sentence added after the first build.');
    const docPage = readFileSync(path.join(out, 'skills', changed.name, 'docs/references', reference.replace(/\.md$/, ''), 'index.html'), 'utf8');
    expect(docPage).toContain('A reference line added after the first build.');

    const otherSkills = [...before.keys()].filter((f) => f.startsWith('skills/') && !f.startsWith(`skills/${changed.name}/`) && !f.startsWith(`skills/${changed.name}.`));
    expect(otherSkills.length).toBeGreaterThan(registry.count * 3);
    for (const file of otherSkills) expect(after.get(file), file).toBe(before.get(file));
    for (const [file] of after) {
      if (file.endsWith('.html')) expect(readFileSync(path.join(out, file), 'utf8'), file).not.toContain('__owned');
    }

    // Into another folder nothing is kept: every document but the tampered one comes from the cache.
    const elsewhere = path.join(work, 'site-elsewhere');
    const fresh = build(elsewhere);
    expect(fresh).toEqual({ documents: cold.documents, hits: cold.documents - 1, kept: 0 });
    for (const [file] of snapshot(elsewhere)) {
      if (file.endsWith('.html')) expect(readFileSync(path.join(elsewhere, file), 'utf8'), file).not.toContain('__owned');
    }
    expect(snapshot(elsewhere).get(`skills/${other.name}/index.html`)).toBe(after.get(`skills/${other.name}/index.html`));
  });
});

describe('a site rebuilt with no skill page changed', () => {
  // Four site builds of a dozen skills.
  it('keeps its search index as it was, and indexes again once a file of it or a skill page is not', { timeout: 600_000 }, () => {
    const out = path.join(work, 'site-search');
    expect(buildSearch(out)).toEqual({ searchable: registry.count, searchKept: false });
    const first = snapshot(out);
    const searchFiles = [...first.keys()].filter((f) => f.startsWith('pagefind/'));
    expect(searchFiles.length).toBeGreaterThan(registry.count);
    const stamps = () => searchFiles.map((f) => [statSync(path.join(out, f)).mtimeMs, statSync(path.join(out, f)).ino]);
    const stampsBefore = stamps();

    // Nothing changed: the index is not rebuilt (its files keep their times and inodes), the
    // final sweep leaves it, and the folder is byte for byte what the first build wrote.
    expect(buildSearch(out)).toEqual({ searchable: registry.count, searchKept: true });
    expect(stamps()).toEqual(stampsBefore);
    expect(snapshot(out)).toEqual(first);

    // A file of the index damaged since: the pages are indexed again, to the same bytes.
    const fragment = searchFiles.find((f) => f.includes('fragment'))!;
    appendFileSync(path.join(out, fragment), 'x');
    expect(buildSearch(out)).toEqual({ searchable: registry.count, searchKept: false });
    expect(snapshot(out)).toEqual(first);

    // A skill gone: its page goes, and so does it from the index.
    const textOf = (dir: string) =>
      readdirSync(path.join(registry.root, dir), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => readFileSync(path.join(e.parentPath, e.name), 'utf8'))
        .join('\n');
    const gone = registry.skills.find((s) => s.kind === 'skill-md' && !registry.skills.some((o) => o !== s && textOf(o.dir).includes(s.name)))!;
    expect(gone, 'a skill no other skill names').toBeDefined();
    rmSync(path.join(registry.root, gone.dir), { recursive: true, force: true });
    expect(buildSearch(out)).toEqual({ searchable: registry.count - 1, searchKept: false });
    const entry = JSON.parse(readFileSync(path.join(out, 'pagefind/pagefind-entry.json'), 'utf8')) as { languages: Record<string, { page_count: number }> };
    expect(Object.values(entry.languages).reduce((n, l) => n + l.page_count, 0)).toBe(registry.count - 1);
  });
});
