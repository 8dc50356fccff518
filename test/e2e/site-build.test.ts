/**
 * `node scripts/build.ts` as a user runs it: the failures it must report before any page is built,
 * an empty registry, and the site URL.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscoveryIndexV2, RegistryIndex } from '../../src/core/schemas/registry-index.ts';
import { docPageSlug } from '../../src/site/catalog/markdown.ts';
import { fillName } from '../../src/core/url-template.ts';
import { writeFixtureRegistry } from '../fixtures/site/registry.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
let work: string;

function build(args: string[]) {
  return spawnSync(process.execPath, [path.join(repoRoot, 'scripts/build.ts'), ...args], { cwd: repoRoot, encoding: 'utf8' });
}

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'skilldex-site-build-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('scripts/build.ts', () => {
  it('stops with the registry errors, located, and a non-zero exit', () => {
    const root = path.join(work, 'broken');
    mkdirSync(path.join(root, 'skills/good-name'), { recursive: true });
    writeFileSync(path.join(root, 'skills/good-name/SKILL.md'), '---\nname: other-name\ndescription: Mismatched on purpose.\n---\n# Body\n');
    const run = build(['--root', root, '--out', path.join(work, 'out-broken')]);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/skills\/good-name\/SKILL\.md:\d+:\d+ \S+/);
    expect(run.stderr).toMatch(/error E_REGISTRY: The registry has \d+ errors?/);
  });

  it('publishes the valid skills with --lenient and lists why the others were left out', () => {
    const root = path.join(work, 'lenient');
    mkdirSync(path.join(root, 'skills/good'), { recursive: true });
    mkdirSync(path.join(root, 'skills/bad'), { recursive: true });
    writeFileSync(path.join(root, 'skills/good/SKILL.md'), '---\nname: good\ndescription: A good skill. Use it when testing lenient builds.\n---\n\n# Good\n\nDo it.\n');
    writeFileSync(path.join(root, 'skills/bad/SKILL.md'), '---\nname: Bad Name!\n---\n\nbody\n');
    const out = path.join(work, 'out-lenient');
    const strict = build(['--root', root, '--out', out]);
    expect(strict.status).toBe(1);
    expect(strict.stderr).toContain('E_REGISTRY');
    const run = build(['--root', root, '--out', out, '--lenient']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/skills\/bad\/SKILL\.md:\d+:\d+ \S+ /);
    expect(run.stdout).toMatch(/lenient: \d+ errors? above kept their skills out of the registry/);
    expect(existsSync(path.join(out, 'skills/good/index.html'))).toBe(true);
    expect(existsSync(path.join(out, 'skills/bad'))).toBe(false);
    expect(RegistryIndex.parse(JSON.parse(readFileSync(path.join(out, 'index.json'), 'utf8'))).skills.map((s) => s.name)).toEqual(['good']);
  });

  it('shows the control characters and line feeds of a file name it reports, so a skill cannot write to the terminal or forge a CI log line', () => {
    const root = path.join(work, 'control-names');
    mkdirSync(path.join(root, 'skills/good'), { recursive: true });
    mkdirSync(path.join(root, 'skills/sly'), { recursive: true });
    writeFileSync(path.join(root, 'skills/good/SKILL.md'), '---\nname: good\ndescription: A good skill. Use it when testing lenient builds.\n---\n\n# Good\n\nDo it.\n');
    writeFileSync(path.join(root, 'skills/sly/SKILL.md'), '---\nname: sly\ndescription: A skill with odd file names. Use it when testing the build log.\n---\n\n# Sly\n\nDo it.\n');
    writeFileSync(path.join(root, 'skills/sly/a\u001b]0;owned\u0007\u001b[2J.md'), 'x\n');
    writeFileSync(path.join(root, 'skills/sly/b\n::error title=forged::all good.md'), 'x\n');
    const run = build(['--root', root, '--out', path.join(work, 'out-control-names'), '--lenient']);
    expect(run.status, run.stderr).toBe(0);
    const log = `${run.stdout}${run.stderr}`;
    expect(log).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(log).not.toMatch(/^::/m);
    expect(run.stdout).toContain('skills/sly/a\u241b]0;owned\u2407\u241b[2J.md:1:1 files/path ');
    expect(run.stdout).toContain('skills/sly/b\u240a::error title=forged::all good.md:1:1 files/path ');
  });

  it('refuses to empty an output folder that is not a build', () => {
    const out = path.join(work, 'precious');
    mkdirSync(out);
    writeFileSync(path.join(out, 'thesis.tex'), 'years of work');
    const run = build(['--root', work, '--out', out, '--registry', work]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('E_OUT_DIR');
  });

  it.runIf(existsSync('/proc/self'))('names an output folder the system cannot make, instead of hanging (/proc)', () => {
    const run = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/build.ts'), '--root', work, '--registry', work, '--out', '/proc/skilldex-site/out'], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('error cannot mkdir /proc/skilldex-site: no such file or folder (ENOENT)');
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  it('publishes an already-built registry with --registry', () => {
    // The hand-written registry in test/fixtures/site holds what the examples may not: a Japanese
    // llm skill and an extended package with triggers, security policy, resources and ABP tools.
    const registry = path.join(work, 'registry');
    mkdirSync(registry);
    const index = writeFixtureRegistry(registry);
    const out = path.join(work, 'out-registry');
    const run = build(['--root', work, '--out', out, '--registry', registry]);
    expect(run.status, run.stderr).toBe(0);
    for (const skill of index.skills) expect(readFileSync(path.join(out, fillName(index.urls.page, skill.name), 'index.html'), 'utf8')).toContain('data-pagefind-body');
    expect(readFileSync(path.join(out, 'skills/translate-ja/index.html'), 'utf8')).toMatch(/^<!DOCTYPE html><html lang="ja"[ >]/);
    const pkg = readFileSync(path.join(out, 'skills/memory-search/index.html'), 'utf8');
    expect(pkg).toMatch(/^<!DOCTYPE html><html lang="zh"[ >]/);
    // The package is Chinese; its English section headings say so (lang="en").
    for (const heading of ['Triggers', 'Security policy', 'Resources', 'ABP tools']) expect(pkg).toContain(`<h3 lang="en">${heading}`);
    expect(pkg).toContain('<code>search(query: string) → array</code>');
    expect(readFileSync(path.join(out, 'skills/code_review/index.html'), 'utf8')).toContain('href="/skills/review_pipeline/"');
    // The caller's registry is copied into the site, never moved out of its folder.
    for (const skill of index.skills) {
      const manifest = fillName(index.urls.manifest, skill.name);
      expect(existsSync(path.join(registry, manifest)), manifest).toBe(true);
      expect(readFileSync(path.join(out, manifest), 'utf8')).toBe(readFileSync(path.join(registry, manifest), 'utf8'));
    }
  });

  it('says a time is unknown, never 1970, when the skills have no git history and no SOURCE_DATE_EPOCH', () => {
    const root = path.join(work, 'no-time');
    mkdirSync(path.join(root, 'skills/alpha'), { recursive: true });
    writeFileSync(path.join(root, 'skills/alpha/SKILL.md'), '---\nname: alpha\ndescription: Alpha skill for the unknown-time test.\n---\n# Alpha\n');
    const out = path.join(work, 'out-no-time');
    const { SOURCE_DATE_EPOCH: _unset, ...env } = process.env;
    const run = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/build.ts'), '--root', root, '--out', out], { cwd: repoRoot, encoding: 'utf8', env });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const page = readFileSync(path.join(out, 'skills/alpha/index.html'), 'utf8');
    expect(page).toMatch(/<dt>Last updated<\/dt>\s*<dd>unknown<\/dd>/);
    const home = readFileSync(path.join(out, 'index.html'), 'utf8');
    expect(home).toContain('alpha');
    expect(home).not.toContain('· updated');
    for (const file of ['index.html', 'skills/alpha/index.html', 'feed.xml', 'sitemap.xml', 'index.json', 'skills/alpha.json']) {
      expect(readFileSync(path.join(out, file), 'utf8'), file).not.toMatch(/1970-01-01|Jan 1, 1970/);
    }
    expect(readFileSync(path.join(out, 'feed.xml'), 'utf8')).not.toContain('<updated>');
  });

  it('builds an empty, valid site and index from an empty skills/ folder', () => {
    const root = path.join(work, 'empty');
    mkdirSync(path.join(root, 'skills'), { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: root });
    const out = path.join(work, 'out-empty-registry');
    const run = build(['--root', root, '--out', out]);
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('built 0 skills');
    const index = RegistryIndex.parse(JSON.parse(readFileSync(path.join(out, 'index.json'), 'utf8')));
    expect(index.skills).toEqual([]);
    expect(index.totalSkills).toBe(0);
    expect(DiscoveryIndexV2.parse(JSON.parse(readFileSync(path.join(out, '.well-known/agent-skills/index.json'), 'utf8'))).skills).toEqual([]);
    const home = readFileSync(path.join(out, 'index.html'), 'utf8');
    expect(home).toContain('No skills here yet.');
    // Pagefind writes no index for zero pages, so there is no search box to fail.
    expect(home).not.toContain('search.js');
    for (const page of ['404.html', 'feed.xml', 'sitemap.xml', 'llms.txt', 'security/index.html', 'docs/index.html', 'tag/index.html']) {
      expect(existsSync(path.join(out, page)), page).toBe(true);
    }
    expect(readdirSync(out)).not.toContain('skills');
    // The docs pages are there whatever the registry holds, with the files beside them.
    for (const file of readdirSync(path.join(repoRoot, 'docs'))) {
      if (file.endsWith('.md')) expect(existsSync(path.join(out, 'docs', docPageSlug(file), 'index.html')), file).toBe(true);
      else if (!file.endsWith('.html')) expect(readFileSync(path.join(out, 'docs', file)).equals(readFileSync(path.join(repoRoot, 'docs', file))), file).toBe(true);
    }
  });

  it('warns once, with a hint, when the registry has no siteUrl', () => {
    const out = path.join(work, 'out-no-site-url');
    const registry = path.join(work, 'registry-no-site-url');
    mkdirSync(registry);
    writeFixtureRegistry(registry);
    const run = build(['--root', work, '--out', out, '--registry', registry]);
    expect(run.status, run.stderr).toBe(0);
    const warnings = `${run.stdout}${run.stderr}`.split('\n').filter((l) => l.includes('no siteUrl'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/feed.*sitemap.*OpenGraph/);
    expect(run.stdout).toMatch(/hint: set "siteUrl" in skilldex\.config\.json .*--site-url/);
    // robots.txt lets crawlers in; without an absolute URL it cannot name the sitemap.
    expect(readFileSync(path.join(out, 'robots.txt'), 'utf8')).toBe('User-agent: *\nAllow: /\n');
    // With one, from the flag, there is no warning and the pages carry absolute URLs.
    const withUrl = build(['--root', work, '--out', out, '--registry', registry, '--site-url', 'https://skills.example.org/reg']);
    expect(withUrl.status, withUrl.stderr).toBe(0);
    expect(`${withUrl.stdout}${withUrl.stderr}`).not.toContain('no siteUrl');
    expect(readFileSync(path.join(out, 'sitemap.xml'), 'utf8')).toContain('<loc>https://skills.example.org/reg/skills/code_review/</loc>');
    expect(readFileSync(path.join(out, 'robots.txt'), 'utf8')).toContain('\nSitemap: https://skills.example.org/reg/sitemap.xml\n');
    expect(readFileSync(path.join(out, 'feed.xml'), 'utf8')).toContain('href="https://skills.example.org/reg/skills/code_review/"');
    expect(readFileSync(path.join(out, 'llms.txt'), 'utf8')).toContain('(https://skills.example.org/reg/skills/code_review.json)');
    const skillPage = readFileSync(path.join(out, 'skills/code_review/index.html'), 'utf8');
    expect(skillPage).toContain('<link rel="canonical" href="https://skills.example.org/reg/skills/code_review/">');
    expect(skillPage).toContain('<meta property="og:url" content="https://skills.example.org/reg/skills/code_review/">');
    // Two site builds.
  }, 180_000);

  it('refuses a site URL that is not an absolute http(s) URL, with a hint', () => {
    const run = build(['--root', work, '--out', path.join(work, 'out-bad-url'), '--registry', path.join(work, 'registry'), '--site-url', 'skills.example.org']);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('error E_SITE_URL: --site-url (or SKILLDEX_SITE_URL): "skills.example.org" is not a usable site URL');
    expect(run.stderr).toContain('hint: give the absolute http(s) URL');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('answers a mistyped command line with exit 2 and the usage, not a stack trace', () => {
    for (const [args, message] of [
      [['--root', work, '--sit-url', 'https://x.org/'], "Unknown option '--sit-url'"],
      [['--root', work, '--page-size', 'ten'], '--page-size "ten" is not a whole number from 1 to 1000'],
      [['--root', work, '--page-size', '0'], '--page-size "0" is not a whole number from 1 to 1000'],
    ] as const) {
      const run = build([...args, '--out', path.join(work, 'out-usage')]);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(`error E_USAGE: ${message}`);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(path.join(work, 'out-usage'))).toBe(false);
    }
    expect(build(['--root', work, '--bogus']).stderr).toContain('Usage: node scripts/build.ts');
  });

  it('explains a --registry folder without index.json', () => {
    const run = build(['--root', work, '--out', path.join(work, 'out-empty'), '--registry', path.join(work, 'nothing-here')]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('E_NO_REGISTRY');
  });

  it('updates its last build in place: the folder then equals a build into an empty folder', async () => {
    const tree = (dir: string) => new Map(readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => {
      const file = path.join(e.parentPath, e.name);
      return [path.relative(dir, file), readFileSync(file).toString('base64')] as const;
    }));
    const { generateRegistry } = await import('../../scripts/generate-registry.ts');
    const root = path.join(work, 'in-place');
    const reg = await generateRegistry({ count: 12, seed: 5, out: root });
    const out = path.join(work, 'out-in-place');
    const first = build(['--root', root, '--out', out, '--lenient']);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('old output removed');
    // buildRegistry's record of what it wrote waits outside the published folder.
    expect(existsSync(path.join(out, '.skilldex-build.json'))).toBe(false);

    // One skill edited, one removed, one added; a file a failed build left behind.
    const [edited, removed] = reg.skills.filter((s) => s.kind === 'skill-md');
    const untouched = reg.skills.find((s) => s !== edited && s !== removed && s.kind === 'skill-md');
    const untouchedIndex = RegistryIndex.parse(JSON.parse(readFileSync(path.join(out, 'index.json'), 'utf8'))).skills.find((s) => s.name === untouched?.name);
    const untouchedArchive = path.join(out, `skills/${untouched?.name}/${untouchedIndex?.digest.slice('sha256:'.length, 'sha256:'.length + 16)}.tar.gz`);
    const archiveBefore = statSync(untouchedArchive);
    // Pages made of unchanged inputs are left as they were; one deleted by hand is generated again.
    const untouchedPage = path.join(out, `skills/${untouched?.name}/index.html`);
    const pageBefore = statSync(untouchedPage);
    const deletedPage = reg.skills.find((s) => s !== edited && s !== removed && s !== untouched);
    rmSync(path.join(out, `skills/${deletedPage?.name}/index.html`));
    // A forged page record: one skill claims no file, another claims a third skill's page. Neither
    // keeps a page, and no page is swept for it.
    const pageRecord = path.join(root, '.cache/skilldex/astro/skilldex-pages.json');
    const pages = JSON.parse(readFileSync(pageRecord, 'utf8')) as { skills: Record<string, { files: unknown[] }> };
    const [claimsNothing, claimsOther, claimed] = reg.skills.filter((s) => ![edited, removed, untouched, deletedPage].includes(s)).map((s) => s.name);
    pages.skills[claimsNothing!]!.files = [];
    pages.skills[claimsOther!]!.files = pages.skills[claimed!]!.files;
    writeFileSync(pageRecord, JSON.stringify(pages));
    writeFileSync(path.join(root, edited!.dir, 'SKILL.md'), `${readFileSync(path.join(root, edited!.dir, 'SKILL.md'), 'utf8')}\nOne more step.\n`);
    rmSync(path.join(root, removed!.dir), { recursive: true });
    mkdirSync(path.join(root, 'skills/added-later'));
    writeFileSync(path.join(root, 'skills/added-later/SKILL.md'), '---\nname: added-later\ndescription: Added between two builds. Use it to check rebuilds.\n---\n\n# Added later\n\nDo the thing.\n');
    mkdirSync(path.join(out, 'skills/left-by-a-failed-build'), { recursive: true });
    writeFileSync(path.join(out, 'skills/left-by-a-failed-build/index.html'), '<p>stale</p>');
    // The folder kept as a git worktree of a gh-pages branch: its repository is not the build's to sweep.
    mkdirSync(path.join(out, '.git'));
    writeFileSync(path.join(out, '.git/HEAD'), 'ref: refs/heads/gh-pages\n');
    // Links put in the folder (it may come from a cache others could write): at a kept page's path,
    // in place of a listing folder Astro writes into, of Pagefind's, of the browser runtime's and of
    // the public assets'. Nothing is written, read or deleted through them, and none is published.
    const outside = path.join(work, 'outside-in-place');
    mkdirSync(outside);
    const linkedPage = reg.skills.find((s) => ![edited, removed, untouched, deletedPage].includes(s) && ![claimsNothing, claimsOther, claimed].includes(s.name))!;
    writeFileSync(path.join(outside, 'page.html'), 'outside\n');
    rmSync(path.join(out, `skills/${linkedPage.name}/index.html`));
    symlinkSync(path.join(outside, 'page.html'), path.join(out, `skills/${linkedPage.name}/index.html`));
    for (const folder of ['category', 'pagefind', 'runtime', 'assets']) {
      renameSync(path.join(out, folder), path.join(outside, folder));
      symlinkSync(path.join(outside, folder), path.join(out, folder));
    }
    const outsideBefore = tree(outside);

    const again = build(['--root', root, '--out', out, '--lenient']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('stale output removed');
    const fresh = path.join(work, 'out-in-place-fresh');
    const cold = build(['--root', root, '--out', fresh, '--lenient']);
    expect(cold.status, cold.stderr).toBe(0);
    expect(tree(outside)).toEqual(outsideBefore);
    expect(readdirSync(out, { recursive: true, withFileTypes: true }).filter((e) => !e.isFile() && !e.isDirectory()).map((e) => e.name)).toEqual([]);
    expect(lstatSync(path.join(out, 'category')).isDirectory()).toBe(true);
    expect(readFileSync(path.join(out, '.git/HEAD'), 'utf8')).toBe('ref: refs/heads/gh-pages\n');
    rmSync(path.join(out, '.git'), { recursive: true });
    const [updated, built] = [tree(out), tree(fresh)];
    const [extra, missing] = [[...updated.keys()].filter((f) => !built.has(f)), [...built.keys()].filter((f) => !updated.has(f))];
    expect({ extra, missing }).toEqual({ extra: [], missing: [] });
    for (const [file, bytes] of built) expect(updated.get(file), file).toBe(bytes);
    expect(updated.has(`skills/${removed!.name}/index.html`)).toBe(false);
    expect(updated.has('skills/added-later/index.html')).toBe(true);
    // An unchanged skill's archive and page were left as they were, not written again.
    expect(statSync(untouchedArchive).mtimeMs).toBe(archiveBefore.mtimeMs);
    expect(statSync(untouchedPage).mtimeMs).toBe(pageBefore.mtimeMs);
    expect(updated.has(`skills/${deletedPage?.name}/index.html`)).toBe(true);
  }, 240_000);

  it('keeps every file when the clock went back during an in-place build', async () => {
    const { sweepStale } = await import('../../scripts/build.ts');
    const out = path.join(work, 'out-clock');
    mkdirSync(path.join(out, 'skills/old'), { recursive: true });
    writeFileSync(path.join(out, 'skills/old/index.html'), '<p>written before the mark</p>');
    const lines: string[] = [];
    // A mark an hour ahead: the build's own files look older than the build.
    const plan = { inPlace: true, since: (BigInt(Date.now()) + 3_600_000n) * 1_000_000n, removal: Promise.resolve(), finish: () => {}, linksRemoved: Promise.resolve() };
    sweepStale(out, plan, (line) => lines.push(line));
    expect(existsSync(path.join(out, 'skills/old/index.html'))).toBe(true);
    expect(lines.join('\n')).toMatch(/^warning: the clock went back during the build/);
    // With the mark just after the file was written, the file is stale and goes, with the folders it empties.
    sweepStale(out, { ...plan, since: statSync(path.join(out, 'skills/old/index.html'), { bigint: true }).mtimeNs + 1n }, (line) => lines.push(line));
    expect(existsSync(path.join(out, 'skills'))).toBe(false);
    expect(lines).toHaveLength(1);
  });

  it('shows a signed registry\'s keys and, on each skill page, that the signed index pins its manifest', async () => {
    const { generateSigningKey } = await import('../../src/pipeline/index.ts');
    const key = await generateSigningKey();
    const root = path.join(work, 'signed');
    mkdirSync(path.join(root, 'skills/notes'), { recursive: true });
    writeFileSync(path.join(root, 'skills/notes/SKILL.md'), '---\nname: notes\ndescription: Writes meeting notes. Use it after a meeting.\n---\n\n# Notes\n\nWrite them as a list.\n');
    writeFileSync(path.join(root, 'skilldex.config.json'), JSON.stringify({ title: 'Signed', siteUrl: 'https://skills.example.org/', repository: { url: 'https://github.com/acme/skills' }, signing: { keys: [{ publicKey: key.publicKey }] } }));
    const out = path.join(work, 'out-signed');
    const run = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/build.ts'), '--root', root, '--out', out], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, SKILLDEX_SIGNING_KEY: key.privateKeyPem } });
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(path.join(out, 'index.jws.json'))).toBe(true);
    const security = readFileSync(path.join(out, 'security/index.html'), 'utf8');
    expect(security).toContain(`<code>${key.publicKey}</code>`);
    expect(security).toContain(key.kid);
    expect(security).toContain(`skilldex search &lt;query&gt; --registry https://skills.example.org/ --trust ${key.publicKey}`);
    const index = RegistryIndex.parse(JSON.parse(readFileSync(path.join(out, 'index.json'), 'utf8')));
    const page = readFileSync(path.join(out, 'skills/notes/index.html'), 'utf8');
    expect(page).toContain(`Manifest SHA-256: <code>${index.skills[0]!.manifestDigest}</code>`);
    expect(page).toMatch(/pinned by the <a href="\/security\/#registry-keys">signed index<\/a>/);
  }, 180_000);
});
