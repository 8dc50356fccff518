/**
 * The catalog site in a real browser: builds the registry's own example skills plus the site
 * fixtures (an XSS probe and a Chinese skill) once, serves the result with scripts/preview.ts on
 * 127.0.0.1 and drives Debian's Chromium through playwright-core.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SkillManifest } from '../../src/core/schemas/manifest.ts';
import type { RegistryIndex } from '../../src/core/schemas/registry-index.ts';
import { startPreview, type PreviewServer } from '../../scripts/preview.ts';
import { fillName } from '../../src/core/url-template.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const fixtures = path.join(repoRoot, 'test/fixtures/site/skills');
const results = path.join(repoRoot, 'test-results');
/** Small pages, so the examples span several and pagination is exercised. */
const PAGE_SIZE = 5;
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'];

let work: string;
let dist: string;
let index: RegistryIndex;
let preview: PreviewServer;
let browser: Browser;
let context: BrowserContext;
let buildLog: string;
/** Console errors and uncaught exceptions from every page any test opened (but the 404 probe). */
const consoleProblems: string[] = [];
const visited = new Set<string>();

/** A registry repository in a temp dir: the examples and the fixtures, committed with fixed dates. */
function makeRepo(root: string): void {
  cpSync(path.join(repoRoot, 'skills'), path.join(root, 'skills'), { recursive: true });
  writeFileSync(
    path.join(root, 'skilldex.config.json'),
    JSON.stringify({ title: 'Skilldex test registry', repository: { url: 'https://github.com/example/skills', branch: 'main' } }, null, 2),
  );
  const git = (args: string[], date: string) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], {
      cwd: root,
      env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
      stdio: 'pipe',
    });
  git(['init', '-q', '-b', 'main'], '2026-01-01T00:00:00Z');
  git(['add', '.'], '2026-01-01T00:00:00Z');
  git(['commit', '-q', '-m', 'examples'], '2026-01-01T00:00:00Z');
  // The fixtures arrive later, so "recently updated" has a known order.
  cpSync(path.join(fixtures, 'memory-recall'), path.join(root, 'skills/fixtures/memory-recall'), { recursive: true });
  git(['add', '.'], '2026-03-01T00:00:00Z');
  git(['commit', '-q', '-m', 'memory-recall'], '2026-03-01T00:00:00Z');
  cpSync(path.join(fixtures, 'xss-probe'), path.join(root, 'skills/fixtures/xss-probe'), { recursive: true });
  git(['add', '.'], '2026-04-01T00:00:00Z');
  git(['commit', '-q', '-m', 'xss-probe'], '2026-04-01T00:00:00Z');
}

/** A file the preview server answers with 200, as text. */
async function servedText(pathname: string): Promise<string> {
  const r = await fetch(new URL(pathname, preview.url));
  expect(r.status, pathname).toBe(200);
  return r.text();
}

/** A full site build takes seconds; a hung one is killed with its output instead of stalling the suite. */
const BUILD_TIMEOUT_MS = 150_000;

/** Runs scripts/build.ts in a child process, asynchronously so the preview server keeps answering. */
function build(root: string, out: string, args: string[] = ['--page-size', String(PAGE_SIZE)]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(repoRoot, 'scripts/build.ts'), '--root', root, '--out', out, ...args],
      {
        cwd: repoRoot,
        encoding: 'utf8',
        timeout: BUILD_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, SOURCE_DATE_EPOCH: '1767225600' },
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`site build failed (${error.killed ? `killed after ${BUILD_TIMEOUT_MS} ms` : `exit ${String(error.code)}`}):\n${stdout}\n${stderr}`));
        else resolve(`${stdout}${stderr}`);
      },
    );
  });
}

function manifest(name: string): SkillManifest {
  return JSON.parse(readFileSync(path.join(dist, 'skills', `${name}.json`), 'utf8')) as SkillManifest;
}

async function open(pathname: string, page?: Page): Promise<Page> {
  const p = page ?? (await newPage());
  const response = await p.goto(new URL(pathname, preview.url).href);
  expect(response?.status(), pathname).toBe(200);
  visited.add(pathname);
  return p;
}

async function newPage(ctx = context): Promise<Page> {
  const page = await ctx.newPage();
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') consoleProblems.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => consoleProblems.push(`${page.url()}: uncaught ${error.message}`));
  return page;
}

async function xssCount(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __xss?: number }).__xss ?? 0);
}

/** Every skill name listed across the pages of a listing, following "Next" links. */
async function collectListing(page: Page, start: string): Promise<string[]> {
  const names: string[] = [];
  let next: string | null = start;
  while (next) {
    await open(next, page);
    names.push(...(await page.locator('.cards .card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-skill')!))));
    const link = page.locator('.pagination a[rel="next"]');
    next = (await link.count()) > 0 ? await link.getAttribute('href') : null;
  }
  return names;
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'skilldex-site-'));
  const root = path.join(work, 'repo');
  mkdirSync(root);
  makeRepo(root);
  dist = path.join(work, 'dist');
  buildLog = await build(root, dist);
  index = JSON.parse(readFileSync(path.join(dist, 'index.json'), 'utf8')) as RegistryIndex;
  preview = await startPreview({ dir: dist, port: 0 });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: preview.url.replace(/\/$/, '') });
  mkdirSync(results, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await preview?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('catalog site', () => {
  it('builds every example skill and the fixtures', () => {
    const examples = readdirSync(path.join(repoRoot, 'skills'), { recursive: true, encoding: 'utf8' })
      .filter((f) => /(^|\/)(SKILL\.md|skill\.json)$/.test(f)).length;
    expect(index.skills.length, buildLog).toBe(examples + 2);
    expect(buildLog).toMatch(/built \d+ skills/);
  });

  it('lists every skill across the catalog pages', async () => {
    const page = await newPage();
    const byName = await collectListing(page, '/');
    expect(await page.locator('.pagination a[rel="prev"]').count()).toBe(1);
    expect([...byName].sort()).toEqual(index.skills.map((s) => s.name).sort());
    expect(new Set(byName).size).toBe(byName.length);
    const byUpdated = await collectListing(page, '/browse/updated/1/');
    expect(byUpdated.slice(0, 2)).toEqual(['xss-probe', 'memory-recall']);
    expect([...byUpdated].sort()).toEqual([...byName].sort());
    await page.close();
  });

  it('narrows the list with each facet filter, without JavaScript', async () => {
    const noJs = await browser.newContext({ javaScriptEnabled: false });
    const page = await newPage(noJs);
    await open('/', page);
    expect(await page.locator('#search').isHidden()).toBe(true);
    const total = Number(await page.locator('.listing-title .count').getAttribute('data-total'));
    expect(total).toBe(index.skills.length);
    const facetOf: Record<string, (s: RegistryIndex['skills'][number]) => string[]> = {
      category: (s) => (s.category ? [s.category] : []),
      tag: (s) => s.tags,
      format: (s) => [s.format],
      mode: (s) => [s.mode],
    };
    for (const facet of ['category', 'tag', 'format', 'mode']) {
      await open('/', page);
      const link = page.locator(`.facets a[data-facet="${facet}"]`).first();
      const value = (await link.locator('.facet-value').textContent())!;
      await link.click();
      await page.waitForLoadState();
      visited.add(new URL(page.url()).pathname);
      const names = await page.locator('.cards .card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-skill')!));
      const expected = index.skills.filter((s) => facetOf[facet]!(s).includes(value)).map((s) => s.name);
      const shown = Number(await page.locator('.listing-title .count').getAttribute('data-total'));
      expect(shown, `${facet}=${value}`).toBe(expected.length);
      expect(shown, `${facet}=${value}`).toBeLessThan(total);
      expect(names.length, `${facet}=${value}`).toBe(Math.min(shown, PAGE_SIZE));
      for (const name of names) expect(expected, `${facet}=${value}`).toContain(name);
      expect(await page.locator(`.facets a[aria-current="page"]`).count()).toBe(1);
    }
    await noJs.close();
  });

  it('reaches the search box and the first skill with few Tab presses, and the skip link goes straight to the content', async () => {
    const page = await open('/');
    const focused = () => page.evaluate(() => {
      const el = document.activeElement!;
      return { id: el.id, inCard: el.closest('.cards .card') !== null, text: (el.textContent ?? '').trim() };
    });
    const tabs: { id: string; inCard: boolean; text: string }[] = [];
    while (tabs.length < 40 && !tabs.at(-1)?.inCard) {
      await page.keyboard.press('Tab');
      tabs.push(await focused());
    }
    expect(tabs[0]!.text).toBe('Skip to content');
    expect(tabs.findIndex((t) => t.id === 'search-input') + 1).toBeLessThanOrEqual(8);
    expect(tabs.length, tabs.map((t) => t.text || t.id).join(' | ')).toBeLessThanOrEqual(15);
    await page.goto(new URL('/', preview.url).href);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    await page.close();
  });

  it('one list: filters and the query narrow it, counts follow the selection, and the address bar keeps the state', async () => {
    const page = await open('/');
    const staticList = page.locator('.catalog > .results:not(.search-section)');
    const section = page.locator('#search-section');
    expect(await staticList.isVisible()).toBe(true);
    expect(await section.isVisible()).toBe(false);
    const shown = async () => {
      await page.waitForFunction(() => (document.querySelector('#search-results') as HTMLElement).dataset.filters !== undefined);
      return page.locator('#search-results a').evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname.split('/')[2]!).sort());
    };
    const settle = (filters: Record<string, string>) =>
      page.waitForFunction((f) => (document.querySelector('#search-results') as HTMLElement).dataset.filters === f, JSON.stringify(filters));
    const expected = (pick: (s: RegistryIndex['skills'][number]) => boolean) => index.skills.filter(pick).map((s) => s.name).sort();

    // A category from the sidebar: the one list shows exactly its skills, the static list steps aside.
    const category = index.skills.find((s) => s.category === 'text')?.category ?? index.skills.find((s) => s.category)!.category!;
    await page.locator(`.facets a[data-facet="category"]`, { has: page.locator('.facet-value', { hasText: new RegExp(`^${category}$`) }) }).click();
    await settle({ category });
    const inCategory = expected((s) => s.category === category);
    expect(await shown()).toEqual(inCategory);
    expect(await staticList.isVisible()).toBe(false);
    expect(await section.isVisible()).toBe(true);
    expect(await page.locator('#search-status').textContent()).toBe(`${inCategory.length} ${inCategory.length === 1 ? 'skill matches' : 'skills match'}.`);
    expect(new URL(page.url()).searchParams.get('category')).toBe(category);

    // A second facet combines with the first; every option now counts within the selection.
    const mode = index.skills.find((s) => s.category === category)!.mode;
    await page.selectOption('#search-filter-mode', mode);
    await settle({ category, mode });
    expect(await shown()).toEqual(expected((s) => s.category === category && s.mode === mode));
    const formatCounts = await page.locator('#search-filter-format option').evaluateAll((options) => options.slice(1).map((o) => o.textContent));
    for (const label of formatCounts) {
      const [, value, count] = label!.match(/^(.*) \((\d+)\)$/)!;
      expect(Number(count), label!).toBe(expected((s) => s.category === category && s.mode === mode && s.format === value).length);
    }
    const url = new URL(page.url());
    expect([url.searchParams.get('category'), url.searchParams.get('mode')]).toEqual([category, mode]);

    // Reload and a shared link restore the same state; Back undoes one filter at a time.
    await page.reload();
    await settle({ category, mode });
    expect(await page.locator('#search-filter-mode').inputValue()).toBe(mode);
    expect(await shown()).toEqual(expected((s) => s.category === category && s.mode === mode));
    await page.goBack();
    await settle({ category });
    expect(await page.locator('#search-filter-mode').inputValue()).toBe('');
    expect(await shown()).toEqual(inCategory);

    // A query narrows the same list and reaches the address bar too.
    await page.fill('#search-input', 'zzzz-no-such-skill');
    await page.waitForFunction(() => (document.querySelector('#search-results') as HTMLElement).dataset.query === 'zzzz-no-such-skill');
    expect(await page.locator('#search-results li').count()).toBe(0);
    expect(await page.locator('#search-status').textContent()).toBe('No skills match.');
    expect(await staticList.isVisible()).toBe(false);
    expect(new URL(page.url()).searchParams.get('q')).toBe('zzzz-no-such-skill');

    // Clearing everything brings the full static list back.
    await page.fill('#search-input', '');
    await page.selectOption('#search-filter-category', '');
    await page.waitForFunction(() => (document.getElementById('search-section') as HTMLElement).hidden);
    expect(await staticList.isVisible()).toBe(true);
    expect(new URL(page.url()).search).toBe('');
    await page.close();
  });

  it('searches in English and in Chinese from the English home page, with filters', async () => {
    const page = await open('/');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    const hits = () => page.locator('#search-results a').evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
    const search = async (query: string) => {
      await page.fill('#search-input', query);
      // search.js stamps the list with the query it shows, so stale results can't be read.
      await page.waitForFunction((q) => (document.querySelector('#search-results') as HTMLElement).dataset.query === q, query);
      return hits();
    };
    expect(await search('code review')).toContain('/skills/code_review/');
    expect((await search('长期记忆'))[0]).toBe('/skills/memory-recall/');
    // The examples' own Chinese and Japanese skills, found by words from their descriptions.
    expect(await search('错别字')).toContain('/skills/chinese-proofreading/');
    expect(await search('敬語')).toContain('/skills/japanese-business-email/');
    // A category or tag is found by its text, also a Chinese category on an English page.
    const inCategory = index.skills.filter((s) => s.category === '代码').map((s) => `/skills/${s.name}/`);
    expect(inCategory.length).toBeGreaterThan(0);
    for (const hit of inCategory) expect(await search('代码')).toContain(hit);
    // Excerpts show the skill's text, not its title, name and version again.
    await search('conventional');
    for (const excerpt of await page.locator('#search-results li p:not(.search-facts)').allTextContents()) expect(excerpt).not.toMatch(/^[^.]*\. [\w-]+ v\d/);

    // A filter narrows the results: mode=llm keeps only llm skills.
    const all = await search('text');
    await page.selectOption('#search-filter-mode', 'llm');
    await page.waitForFunction(() => (document.querySelector('#search-results') as HTMLElement).dataset.filters === '{"mode":"llm"}');
    const llmOnly = await hits();
    const llmNames = new Set(index.skills.filter((s) => s.mode === 'llm').map((s) => `/skills/${s.name}/`));
    expect(llmOnly.length).toBeGreaterThan(0);
    expect(llmOnly.length).toBeLessThan(all.length);
    for (const hit of llmOnly) expect(llmNames.has(hit), hit).toBe(true);
    expect(await xssCount(page)).toBe(0);
    await page.screenshot({ path: path.join(results, 'site-search.png'), fullPage: true });

    // The filter options are written at build time (loading Pagefind's filter index slows every
    // search down); their totals must be exactly the values and counts Pagefind holds.
    const options = await page.locator('select[data-filter]').evaluateAll((selects) =>
      Object.fromEntries(selects.map((s) => [(s as HTMLSelectElement).dataset.filter, [...(s as HTMLSelectElement).options].slice(1).map((o) => `${o.value}=${o.dataset.total ?? o.textContent}`).sort()])),
    );
    // A string, so the test runner does not rewrite the browser's import().
    const fromPagefind = (await page.evaluate(`(async () => {
      const pf = await import('/pagefind/pagefind.js');
      const available = await pf.filters();
      return Object.fromEntries(Object.entries(available).map(([facet, values]) => [facet, Object.entries(values).map(([v, n]) => v + '=' + v + ' (' + n + ')').sort()]));
    })()`)) as Record<string, string[]>;
    // `lang` (the page's search index) is Pagefind's own business, not a filter a reader picks.
    delete fromPagefind.lang;
    expect(Object.keys(options).sort()).toEqual(Object.keys(fromPagefind).sort());
    for (const facet of Object.keys(options)) expect(options[facet], facet).toEqual(fromPagefind[facet]);
    await page.close();
  });

  it('shows a skill page with signature, schema table, files, digests and working copy buttons', async () => {
    const m = manifest('code_review');
    const page = await open('/skills/code_review/');
    await expect.poll(() => page.locator('h1').textContent()).toBe(m.title);
    const signature = (await page.locator('.signature').textContent())!;
    expect(signature).toMatch(/^code_review\(.*\) → \{ .* \}$/);
    for (const param of Object.keys((m.inputSchema as { properties: object }).properties)) expect(signature).toContain(`${param}`);
    const inputRows = page.locator('#schema-input ~ .table-scroll tbody tr');
    expect(await inputRows.count()).toBeGreaterThanOrEqual(Object.keys((m.inputSchema as { properties: object }).properties).length);
    expect(await page.locator('.schema-table th[scope="row"]', { hasText: 'code' }).first().isVisible()).toBe(true);
    // Raw JSON sits behind a <details> toggle.
    const raw = page.locator('.raw-json').first();
    expect(await raw.locator('pre').isVisible()).toBe(false);
    await raw.locator('summary').click();
    expect(await raw.locator('pre').isVisible()).toBe(true);

    for (const file of m.files) {
      const row = page.locator(`.file-tree tr[data-path="${file.path}"]`);
      expect(await row.locator('.digest').textContent()).toBe(file.digest);
      const href = (await row.locator('a.tree-name').getAttribute('href'))!;
      const body = await (await fetch(new URL(href, preview.url))).arrayBuffer();
      expect(`sha256:${createHash('sha256').update(Buffer.from(body)).digest('hex')}`).toBe(file.digest);
    }
    const archiveHref = (await page.locator('.archive a').getAttribute('href'))!;
    const archive = Buffer.from(await (await fetch(new URL(archiveHref, preview.url))).arrayBuffer());
    expect(await page.locator('.archive code').textContent()).toBe(`sha256:${createHash('sha256').update(archive).digest('hex')}`);

    // Copy buttons put the exact command on the clipboard, with this site's URL (base path and all) filled in.
    const origin = preview.url;
    const button = page.locator('button[data-copy-target="cmd-skills-add"]');
    await button.click();
    await expect.poll(() => button.textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`npx skills add ${origin} --skill code-review`);
    await page.locator('button[data-copy-target="cmd-run"]').click();
    const run = await page.evaluate(() => navigator.clipboard.readText());
    expect(run).toMatch(new RegExp(`^npx skilldex run code_review --registry ${origin} --input '\\{.*\\}'$`));
    const input = JSON.parse(run.slice(run.indexOf("'") + 1, -1)) as Record<string, unknown>;
    for (const required of ((m.inputSchema as { required?: string[] }).required ?? [])) expect(input).toHaveProperty(required);

    // Source and edit links come from the registry config's repository.
    expect(await page.locator('.meta-links a', { hasText: 'Edit this skill' }).getAttribute('href')).toBe(
      `https://github.com/example/skills/edit/main/${m.sourcePath}/${m.sourceFile}`,
    );
    expect(await page.locator('.meta-links a', { hasText: 'Report an issue' }).getAttribute('href')).toBe(
      `https://github.com/example/skills/issues/new?title=${encodeURIComponent(`${m.name}: `)}`,
    );
    await page.screenshot({ path: path.join(results, 'site-skill.png'), fullPage: true });
    await page.close();
  });

  it("lists a package's ABP tools with their signatures and how to call them", async () => {
    const page = await open('/skills/date-calc/');
    const tools = page.locator('.abp li');
    expect(await tools.count()).toBe(3);
    expect(await tools.nth(1).textContent()).toContain('addDays(date: string, days: integer, businessDays?: boolean) → object');
    expect(await tools.nth(1).textContent()).toContain("npx skilldex run date-calc --tool addDays --input '…'");
    await page.close();
  });

  it('shows on every skill.json page the signature the runtime gives agents', async () => {
    const { openRegistry } = await import('../../src/runtime/node/index.ts');
    const registry = await openRegistry(preview.url, { cacheDir: path.join(work, 'runtime-cache'), configDir: path.join(work, 'runtime-config') });
    const functions = index.skills.filter((s) => s.format === 'skill-json');
    expect(functions.length, 'example skill.json skills').toBeGreaterThanOrEqual(5);
    const page = await newPage();
    for (const skill of functions) {
      const { body } = await registry.load(skill.name);
      const fromRuntime = /## Signature\n\n```ts\n(.*)\n```/.exec(body)?.[1];
      expect(fromRuntime, skill.name).toMatch(new RegExp(`^${skill.name}\\(`));
      await open(`/skills/${skill.name}/`, page);
      expect(await page.locator('.signature').textContent(), skill.name).toBe(fromRuntime);
    }
    await page.close();
  });

  it('links composite pipelines, callees and, under Used by, callers', async () => {
    const composite = index.skills.find((s) => s.mode === 'composite');
    expect(composite, 'an example composite skill').toBeDefined();
    const m = manifest(composite!.name);
    const page = await open(`/skills/${m.name}/`);
    for (const callee of m.calls) {
      await expect.poll(() => page.locator(`#composition ~ * a[href="/skills/${callee}/"]`).count()).toBeGreaterThan(0);
    }
    const callee = m.calls[0]!;
    await page.locator(`.skill-links a[href="/skills/${callee}/"]`).first().click();
    await page.waitForURL(`**/skills/${callee}/`);
    // The callee's Used by links back, saying how.
    const back = page.locator(`.used-by li:has(a[href="/skills/${m.name}/"])`);
    expect(await back.count()).toBe(1);
    expect(await back.textContent()).toContain('calls it');
    await page.close();
  });

  it('renders hostile skill text inertly', async () => {
    const page = await newPage();
    for (const pathname of ['/', '/skills/xss-probe/', '/tag/', '/category/', '/browse/updated/1/']) {
      await open(pathname, page);
      expect(await xssCount(page), pathname).toBe(0);
    }
    await open('/skills/xss-probe/', page);
    // The payloads are visible as text…
    expect(await page.locator('.lead').textContent()).toContain('<script>');
    expect(await page.locator('.prose').innerHTML()).not.toMatch(/<script|onerror=|onload=|<iframe|javascript:/i);
    // Its Markdown files are pages of their own, sanitised the same way, links rewritten.
    await open('/skills/xss-probe/docs/references/notes/', page);
    expect(await xssCount(page)).toBe(0);
    const notes = await page.locator('.prose').innerHTML();
    expect(notes).not.toMatch(/<script|onerror=|onload=|<iframe|javascript:/i);
    expect(await page.locator('.prose pre code').textContent()).toContain('<script>window.__xss++</script>');
    expect(await page.locator('.prose a', { hasText: 'back to the skill' }).getAttribute('href')).toBe('/skills/xss-probe/');
    expect(await page.locator('.prose a', { hasText: 'outside' }).getAttribute('href')).toBeNull();
    await open('/skills/xss-probe/', page);
    // …and every tag link leads to a page that is just as inert.
    for (const href of await page.locator('.chips a').evaluateAll((links) => links.map((a) => a.getAttribute('href')!))) {
      await open(href, page);
      expect(await xssCount(page), href).toBe(0);
    }
    // Search results render excerpts as text.
    await open('/', page);
    await page.fill('#search-input', 'hostile');
    await page.waitForFunction(() => (document.querySelector('#search-results') as HTMLElement).dataset.query === 'hostile');
    expect(await page.locator('#search-results a[href="/skills/xss-probe/"]').count()).toBe(1);
    expect(await xssCount(page)).toBe(0);
    // Raw files are served sandboxed: an SVG with script, opened directly, runs nothing. (A page
    // of its own: Chromium reports the blocked script as a console error, which is the point.)
    const m = manifest('xss-probe');
    const svg = m.files.find((f) => f.path.endsWith('.svg'))!;
    const raw = await context.newPage();
    const response = await raw.goto(new URL(`/${m.urls.files}${svg.path.split('/').map(encodeURIComponent).join('/')}`, preview.url).href);
    expect(response?.headers()['content-security-policy']).toContain('sandbox');
    expect(await xssCount(raw)).toBe(0);
    await raw.close();
    await page.close();
  });

  it("links the docs to the repository's other files, and to the site's own copy of a schema", async () => {
    const readme = await servedText('/docs/readme/');
    expect(readme).toContain('href="https://github.com/example/skills/blob/main/README.md"');
    expect(readme).toContain('href="https://github.com/example/skills/blob/main/CONTRIBUTING.md"');
    expect(await servedText('/docs/skill-json/')).toContain('href="/schemas/skill-json.schema.json"');
    expect(JSON.parse(await servedText('/schemas/skill-json.schema.json')).$schema).toMatch(/json-schema\.org/);
  });

  it('serves the feeds, llms.txt, sitemap, security page and a useful 404', async () => {
    const text = servedText;
    const llms = await text('/llms.txt');
    for (const s of index.skills) expect(llms).toContain(`(/${fillName(index.urls.manifest, s.name)})`);
    const feed = await text('/feed.xml');
    expect(feed).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(feed.indexOf('xss-probe')).toBeLessThan(feed.indexOf('memory-recall'));
    expect(await text('/sitemap.xml')).toContain('<loc>/skills/code_review/</loc>');
    expect(await text('/.well-known/agent-skills/index.json')).toContain('"skills"');

    // Every finding on the XSS probe links to its rule's entry on the security page.
    const page = await open('/skills/xss-probe/');
    const ruleLinks = await page.locator('.findings a[href^="/security/#"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
    expect(ruleLinks.length).toBeGreaterThan(0);
    expect(await page.locator('.file-tree .flag').count()).toBeGreaterThan(0);
    await open('/security/', page);
    expect(await page.locator('h1').count()).toBeGreaterThan(0);
    for (const href of new Set(ruleLinks)) {
      expect(await page.locator(`[id="${href.slice('/security/#'.length)}"]`).count(), href).toBe(1);
    }
    const missing = await context.newPage();
    const response = await missing.goto(new URL('/skills/no-such-skill/', preview.url).href);
    expect(response?.status()).toBe(404);
    expect(await missing.locator('h1').textContent()).toBe('Page not found');
    expect(await missing.locator('main a[href="/tag/"]').count()).toBe(1);
    await missing.close();
    await page.close();
  });

  it('has OpenGraph and Twitter meta, a strict CSP and no inline scripts on every page', async () => {
    const page = await open('/skills/memory-recall/');
    expect(await page.locator('html').getAttribute('lang')).toBe('zh');
    expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toBeTruthy();
    expect(await page.locator('meta[name="twitter:card"]').getAttribute('content')).toBe('summary');
    const csp = (await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content'))!;
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).not.toContain('unsafe-inline');
    const htmlFiles = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html') && !/^skills\/[^/]+\/[0-9a-f]{16}\//.test(f));
    // Parsed by the browser's own HTML parser: a `<script>` inside an attribute value is text.
    const pages = htmlFiles.map((file) => ({ file, html: readFileSync(path.join(dist, file), 'utf8') }));
    const offenders = await page.evaluate((docs) => docs.flatMap(({ file, html }) => {
      const doc = new DOMParser().parseFromString(html, 'text/html');
      const problems: string[] = [];
      if (doc.querySelector('script:not([src])')) problems.push(`${file}: inline script`);
      if (doc.querySelector('[style]')) problems.push(`${file}: inline style`);
      if ([...doc.querySelectorAll('*')].some((el) => [...el.attributes].some((a) => a.name.startsWith('on')))) problems.push(`${file}: event handler attribute`);
      if (!doc.querySelector('meta[http-equiv="Content-Security-Policy"]')) problems.push(`${file}: no CSP`);
      return problems;
    }), pages);
    expect(offenders).toEqual([]);
    await page.close();
  });

  it('saves screenshots of the catalog in light and dark mode', async () => {
    const page = await open('/');
    await page.screenshot({ path: path.join(results, 'site-catalog.png'), fullPage: false });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: path.join(results, 'site-catalog-dark.png'), fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(results, 'site-catalog-mobile.png'), fullPage: false });
    expect(statSync(path.join(results, 'site-catalog.png')).size).toBeGreaterThan(10_000);
    await page.close();
  });

  it('builds the examples alone, as the README shows them', async () => {
    // The README screenshot shows the registry's own skills, without the test fixtures.
    const root = path.join(work, 'examples');
    mkdirSync(root);
    cpSync(path.join(repoRoot, 'skills'), path.join(root, 'skills'), { recursive: true });
    const out = path.join(work, 'dist-examples');
    await build(root, out, []);
    const server = await startPreview({ dir: out, port: 0 });
    try {
      const page = await newPage();
      await page.goto(server.url);
      const cards = await page.locator('.cards .card').count();
      // skills/ also holds each skill's versions document: the index counts the skills.
      expect(cards).toBe(Math.min(24, (JSON.parse(readFileSync(path.join(out, 'index.json'), 'utf8')) as { totalSkills: number }).totalSkills));
      // A test run must not dirty the checkout: the README's copy is refreshed only on request.
      const target = process.env.SKILLDEX_UPDATE_SCREENSHOTS === '1' ? path.join(repoRoot, 'docs/screenshot-catalog.png') : path.join(repoRoot, 'test-results/readme-catalog.png');
      mkdirSync(path.dirname(target), { recursive: true });
      await page.screenshot({ path: target, fullPage: false });
      expect(statSync(target).size).toBeGreaterThan(10_000);
      await page.close();
    } finally {
      await server.close();
    }
  }, BUILD_TIMEOUT_MS + 30_000);

  it('is navigable by keyboard with a visible focus ring', async () => {
    const page = await open('/');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).toBe('solid');
    await page.close();
  });

  it('fits every page in the viewport from 320 px phones to 1366 px desktops', async () => {
    const firstDir = (facet: string) => readdirSync(path.join(dist, facet)).find((f) => statSync(path.join(dist, facet, f)).isDirectory())!;
    const pages = ['/', `/tag/${firstDir('tag')}/`, `/category/${firstDir('category')}/`, '/docs/', '/docs/skill-json/'];
    pages.push(...index.skills.map((s) => `/skills/${s.name}/`));
    for (const width of [320, 390, 768, 1366]) {
      const ctx = await browser.newContext({ viewport: { width, height: 800 } });
      const page = await newPage(ctx);
      for (const pathname of pages) {
        await open(pathname, page);
        const fit = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: innerWidth }));
        expect(fit.scroll, `${pathname} at ${width} px`).toBeLessThanOrEqual(fit.inner);
      }
      // The home page's filter dropdowns stay inside their panel.
      await open('/', page);
      const spill = await page.evaluate(() => {
        const panel = document.querySelector('.search')!.getBoundingClientRect();
        return [...document.querySelectorAll('.search select')].filter((s) => s.getBoundingClientRect().right > panel.right).length;
      });
      expect(spill, `filters outside their panel at ${width} px`).toBe(0);
      // Search results too, with an excerpt holding a 158-character word (xss-probe's body).
      await page.fill('#search-input', 'overlong');
      await page.waitForFunction(() => (document.querySelector('#search-results') as HTMLElement).dataset.query === 'overlong');
      expect(await page.locator('#search-results li').count()).toBeGreaterThan(0);
      const results = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: innerWidth }));
      expect(results.scroll, `search results at ${width} px`).toBeLessThanOrEqual(results.inner);
      await ctx.close();
    }
  }, 120_000);

  it('puts the content before the filters and details on a phone, without hiding the selected filter', async () => {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 800 } });
    const page = await newPage(ctx);
    const top = (selector: string) => page.locator(selector).first().evaluate((e) => e.getBoundingClientRect().top);
    for (const facet of ['tag', 'category']) {
      const values = readdirSync(path.join(dist, facet)).filter((f) => statSync(path.join(dist, facet, f)).isDirectory());
      for (const value of values) {
        await open(`/${facet}/${value}/`, page);
        expect(await top('h1'), `${facet} ${value}: heading before the filters`).toBeLessThan(await top('.facet'));
        // The selected value is visible inside its list, even when the list scrolls.
        const visible = await page.locator('.facet a[aria-current="page"]').evaluate((a) => {
          const list = a.closest('ul')!.getBoundingClientRect();
          const link = a.getBoundingClientRect();
          return link.top >= list.top - 0.5 && link.bottom <= list.bottom + 0.5;
        });
        expect(visible, `${facet} ${value}: selected filter visible`).toBe(true);
      }
    }
    // Lists that scroll say so: a shadow marks the edge with more values beyond it.
    await open('/', page);
    const hints = await page.locator('.facet ul').evaluateAll((lists) =>
      lists.filter((l) => l.scrollHeight > l.clientHeight).map((l) => getComputedStyle(l).backgroundImage.includes('radial-gradient')),
    );
    expect(hints.length).toBeGreaterThan(0);
    expect(hints.every(Boolean)).toBe(true);
    await open('/skills/code_review/', page);
    expect(await top('.skill-name'), 'skill name before its details').toBeLessThan(await top('.skill-meta'));
    await ctx.close();
    // Every tag and category page: about 70 pages, which takes a minute on a busy 2-core machine.
  }, 180_000);

  it('marks the English interface of a Chinese page as English, and never skips a heading level', async () => {
    const page = await open('/skills/memory-recall/');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh');
    const langOf = (selector: string) => page.locator(selector).first().evaluate((e) => e.closest('[lang]')!.getAttribute('lang'));
    for (const selector of ['.skip-link', '.site-header nav', '.site-footer', '.breadcrumbs', '#install', '.copy-label', '#files', '.skill-meta dt']) {
      expect(await langOf(selector), selector).toBe('en');
    }
    expect(await langOf('h1'), "the skill's own title").toBe('zh');
    const skipped = async () =>
      page.evaluate(() => {
        let previous = 1;
        const out: string[] = [];
        for (const h of document.querySelectorAll('main h1, main h2, main h3, main h4, main h5, main h6')) {
          const level = Number(h.tagName[1]);
          if (level > previous + 1) out.push(`${h.tagName} "${h.textContent}" after h${previous}`);
          previous = level;
        }
        return out;
      });
    const firstTag = readdirSync(path.join(dist, 'tag')).find((f) => statSync(path.join(dist, 'tag', f)).isDirectory())!;
    for (const pathname of ['/', `/tag/${firstTag}/`, '/browse/name/2/', '/docs/', ...index.skills.map((s) => `/skills/${s.name}/`)]) {
      await open(pathname, page);
      expect(await skipped(), pathname).toEqual([]);
    }
    await page.close();
  });

  it('scrolls code blocks sideways instead of breaking commands mid-word, and lets the keyboard scroll them', async () => {
    const ctx = await browser.newContext({ viewport: { width: 320, height: 800 } });
    const page = await open('/skills/code_review/', await newPage(ctx));
    // Words break only when a single token is wider than its line, never anywhere.
    expect(await page.evaluate(() => getComputedStyle(document.body).overflowWrap)).toBe('break-word');
    const block = page.locator('pre:has(#cmd-skills-add)');
    const shape = await block.evaluate((pre) => {
      const code = pre.querySelector('code')!;
      return { lines: Math.round(code.getBoundingClientRect().height / parseFloat(getComputedStyle(code).lineHeight)), scrolls: pre.scrollWidth > pre.clientWidth };
    });
    expect(shape).toEqual({ lines: 1, scrolls: true });
    // A scrolling box is a tab stop with a name, so keyboard users can scroll it.
    expect(await block.getAttribute('tabindex')).toBe('0');
    const name = await block.evaluate((pre) => document.getElementById(pre.getAttribute('aria-labelledby')!)?.textContent);
    expect(name).toBeTruthy();
    await ctx.close();
  });

  it('announces the copy result and names the copy shortcut of the reader\'s platform', async () => {
    for (const [platform, shortcut] of [['Linux x86_64', 'Ctrl+C'], ['MacIntel', '⌘C']] as const) {
      // Plain-HTTP sites have no navigator.clipboard; the button then selects the command instead.
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await ctx.addInitScript((p: string) => {
        Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
        Object.defineProperty(Navigator.prototype, 'userAgentData', { get: () => undefined });
        Object.defineProperty(Navigator.prototype, 'platform', { get: () => p });
      }, platform);
      const page = await open('/skills/code_review/', await newPage(ctx));
      const status = page.locator('[data-copy-status="cmd-skills-add"]');
      expect(await status.getAttribute('aria-live')).toBe('polite');
      await page.locator('button[data-copy-target="cmd-skills-add"]').click();
      await expect.poll(() => page.locator('button[data-copy-target="cmd-skills-add"]').textContent()).toBe(`Press ${shortcut}`);
      expect(await status.textContent()).toContain(shortcut);
      expect(await page.evaluate(() => getSelection()?.toString().trim())).toMatch(/^npx skills add /);
      await ctx.close();
    }
  });

  it('builds byte-identical output from the same input', async () => {
    const again = path.join(work, 'dist-again');
    await build(path.join(work, 'repo'), again);
    const digestTree = (dir: string) =>
      readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((f) => statSync(path.join(dir, f)).isFile())
        .sort()
        .map((f) => `${f} ${createHash('sha256').update(readFileSync(path.join(dir, f))).digest('hex')}`);
    const first = new Set(digestTree(dist));
    const second = digestTree(again);
    expect(second.length).toBe(first.size);
    expect(second.filter((line) => !first.has(line)), 'files that differ between two builds').toEqual([]);
  }, BUILD_TIMEOUT_MS + 30_000);

  it('logged no console errors on any page it visited', () => {
    expect(visited.size).toBeGreaterThan(10);
    expect(consoleProblems).toEqual([]);
  });
});
