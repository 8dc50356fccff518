/**
 * The site deployed under a sub-path, as GitHub Pages serves a project site
 * (`https://user.github.io/repo/`): builds the example skills with `SKILLDEX_SITE_URL` set the way
 * the deploy workflow sets it, serves `dist/` under `/repo/` with scripts/preview.ts, and crawls
 * every internal link in Chromium. Then packs the Pages artifact with the workflow's own script,
 * checks that the discovery index and every file it names are in it, and installs every skill from
 * it, unpacked under /repo/, with the real `skills` client.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { extract } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiscoveryIndexV2, RegistryIndex } from '../../src/core/schemas/registry-index.ts';
import { startPreview, type PreviewServer } from '../../scripts/preview.ts';
import { docPageSlug } from '../../src/site/catalog/markdown.ts';
import { fillName } from '../../src/core/url-template.ts';
import type { SkillManifest } from '../../src/core/schemas/manifest.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const results = path.join(repoRoot, 'test-results');
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'];
const BUILD_TIMEOUT_MS = 150_000;
const BASE = '/repo/';

let work: string;
let dist: string;
let preview: PreviewServer;
let siteUrl: string;
let origin: string;
let browser: Browser;
let context: BrowserContext;
/** Every request the browser made, and every response status it got. */
const requests: string[] = [];
const failures: string[] = [];
const consoleProblems: string[] = [];

function build(root: string, out: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(repoRoot, 'scripts/build.ts'), '--root', root, '--out', out],
      { cwd: repoRoot, encoding: 'utf8', timeout: BUILD_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024, env: { ...process.env, SOURCE_DATE_EPOCH: '1767225600', ...env } },
      (error, stdout, stderr) => (error ? reject(new Error(`site build failed:\n${stdout}\n${stderr}`)) : resolve(`${stdout}${stderr}`)),
    );
  });
}

async function newPage(ctx = context): Promise<Page> {
  const page = await ctx.newPage();
  page.on('request', (request) => requests.push(request.url()));
  page.on('response', (response) => {
    if (response.status() >= 400) failures.push(`${response.status()} ${response.url()} (from ${page.url()})`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleProblems.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => consoleProblems.push(`${page.url()}: uncaught ${error.message}`));
  return page;
}

/** Site pages are folders (`…/`) or .html files; everything else is fetched, not rendered. */
const isPage = (url: URL) => url.pathname.endsWith('/') || url.pathname.endsWith('.html');

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'skilldex-subpath-'));
  const root = path.join(work, 'repo');
  cpSync(path.join(repoRoot, 'skills'), path.join(root, 'skills'), { recursive: true });
  // The config names another host: the deploy workflow's URL must win over it.
  writeFileSync(path.join(root, 'skilldex.config.json'), JSON.stringify({ title: 'Sub-path registry', siteUrl: 'https://skills.example.org/' }));
  const git = (args: string[]) => execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: root, stdio: 'pipe', env: { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' } });
  git(['init', '-q', '-b', 'main']);
  git(['add', '.']);
  git(['commit', '-q', '-m', 'examples']);
  dist = path.join(work, 'dist');
  // The server comes first: the site URL holds its port. It reads files on each request.
  mkdirSync(dist);
  preview = await startPreview({ dir: dist, port: 0, base: BASE });
  siteUrl = preview.url;
  origin = new URL(siteUrl).origin;
  expect(siteUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/repo\/$/);
  // As configure-pages reports it: no trailing slash.
  const log = await build(root, dist, { SKILLDEX_SITE_URL: siteUrl.replace(/\/$/, '') });
  expect(log).not.toContain('no siteUrl');
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  mkdirSync(results, { recursive: true });
}, BUILD_TIMEOUT_MS + 30_000);

afterAll(async () => {
  await browser?.close();
  await preview?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the site under a sub-path', () => {
  it('has no broken link: every page, asset and file linked from /repo/ answers, and nothing leaves /repo/', async () => {
    const page = await newPage();
    const queue = [siteUrl];
    const seen = new Set(queue);
    let pages = 0;
    let files = 0;
    while (queue.length > 0) {
      const url = new URL(queue.shift()!);
      if (isPage(url)) {
        const response = await page.goto(url.href);
        expect(response?.status(), url.href).toBe(200);
        pages++;
        const links = await page.locator('a[href], link[href], script[src], img[src]').evaluateAll((elements) =>
          elements.map((el) => (el as HTMLAnchorElement).href || (el as HTMLScriptElement).src),
        );
        for (const link of links) {
          const target = new URL(link);
          target.hash = '';
          if (target.origin !== origin || seen.has(target.href)) continue;
          seen.add(target.href);
          queue.push(target.href);
        }
      } else {
        const response = await context.request.get(url.href);
        expect(response.status(), url.href).toBe(200);
        files++;
      }
    }
    // The examples' pages: home, facets, listings, every skill, docs, security, plus their files.
    expect(pages).toBeGreaterThan(40);
    expect(files).toBeGreaterThan(30);
    for (const visited of seen) expect(visited.startsWith(siteUrl), visited).toBe(true);
    expect(requests.filter((r) => r.startsWith(origin) && !r.startsWith(siteUrl))).toEqual([]);
    expect(failures).toEqual([]);
    await page.close();
  }, 240_000);

  it('finds skills with the search box and links the results under /repo/', async () => {
    const page = await newPage();
    await page.goto(siteUrl);
    await page.fill('#search-input', 'code review');
    await page.waitForFunction(() => (document.querySelector('#search-results') as HTMLElement).dataset.query === 'code review');
    const hits = await page.locator('#search-results a').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).pathname));
    expect(hits).toContain(`${BASE}skills/code_review/`);
    for (const hit of hits) expect(hit.startsWith(`${BASE}skills/`), hit).toBe(true);
    // A Chinese query merges the other language's index from the same sub-path bundle.
    await page.fill('#search-input', '错别字');
    await page.waitForFunction(() => (document.querySelector('#search-results') as HTMLElement).dataset.query === '错别字');
    expect(await page.locator(`#search-results a[href="${BASE}skills/chinese-proofreading/"]`).count()).toBe(1);
    await page.locator(`#search-results a[href="${BASE}skills/chinese-proofreading/"]`).click();
    await page.waitForURL(`${siteUrl}skills/chinese-proofreading/`);
    expect(await page.locator('h1').count()).toBe(1);
    expect(failures).toEqual([]);
    await page.close();
  });

  it('puts the deployed URL in the feed, the sitemap, llms.txt, OpenGraph, index.json and install commands', async () => {
    const text = async (p: string) => (await context.request.get(new URL(p, siteUrl).href)).text();
    const sitemap = [...(await text('sitemap.xml')).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    const feed = [...(await text('feed.xml')).matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
    const llms = [...(await text('llms.txt')).matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(sitemap).toContain(`${siteUrl}docs/`);
    for (const url of [...sitemap, ...feed, ...llms]) {
      expect(url.startsWith(siteUrl), url).toBe(true);
      expect((await context.request.get(url)).status(), url).toBe(200);
    }
    expect(llms.length).toBeGreaterThan(10);
    const index = JSON.parse(await text('index.json')) as RegistryIndex;
    expect(index.registry.url).toBe(siteUrl);
    const page = await newPage();
    await page.goto(`${siteUrl}skills/code_review/`);
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(`${siteUrl}skills/code_review/`);
    expect(await page.locator('meta[property="og:url"]').getAttribute('content')).toBe(`${siteUrl}skills/code_review/`);
    expect(await page.locator('#cmd-skills-add').textContent()).toBe(`npx skills add ${siteUrl} --skill code-review`);
    await page.close();
  });

  it('serves every registry URL relative to index.json, and the runtime loads a skill from another origin', async () => {
    const index = JSON.parse(readFileSync(path.join(dist, 'index.json'), 'utf8')) as RegistryIndex;
    const indexUrl = `${siteUrl}index.json`;
    for (const skill of index.skills) {
      const m = JSON.parse(readFileSync(path.join(dist, fillName(index.urls.manifest, skill.name)), 'utf8')) as SkillManifest;
      for (const link of [m.urls.page, m.urls.manifest, m.urls.archive, ...m.files.map((f) => `${m.urls.files}${f.path}`)]) {
        const url = new URL(link, indexUrl).href;
        expect(url.startsWith(siteUrl), url).toBe(true);
        expect((await context.request.get(url)).status(), url).toBe(200);
      }
    }
    // A page on another origin (another port) imports the runtime bundle and opens the registry:
    // module scripts and fetch are CORS requests, so this needs Access-Control-Allow-Origin.
    const elsewhere = path.join(work, 'elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(path.join(elsewhere, 'index.html'), '<!doctype html><title>another site</title>');
    const other = await startPreview({ dir: elsewhere, port: 0 });
    // Not newPage(): that other site has no favicon, and its 404 is none of this site's business.
    const page = await context.newPage();
    await page.goto(other.url);
    const loaded = (await page.evaluate(`(async () => {
      const { openRegistry } = await import(${JSON.stringify(`${siteUrl}runtime/skilldex.js`)});
      const registry = await openRegistry(${JSON.stringify(siteUrl)});
      const skill = await registry.load('code_review');
      return { name: skill.name, text: skill.text };
    })()`)) as { name: string; text: string };
    expect(loaded.name).toBe('code_review');
    expect(loaded.text).toContain('# Skill: code_review');
    expect(failures).toEqual([]);
    await page.close();
    await other.close();
  });

  it('lists the docs pages and renders one, linked from the header', async () => {
    const docs = readdirSync(path.join(repoRoot, 'docs')).filter((f) => f.endsWith('.md'));
    expect(docs.length).toBeGreaterThan(0);
    const page = await newPage();
    await page.goto(siteUrl);
    await page.locator('.site-header a', { hasText: 'Docs' }).click();
    await page.waitForURL(`${siteUrl}docs/`);
    const links = await page.locator('.doc-list a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).pathname));
    expect(links.length).toBe(docs.length);
    for (const file of docs) expect(links, file).toContain(`${BASE}docs/${docPageSlug(file)}/`);
    const title = await page.locator('.doc-list a').first().textContent();
    await page.locator('.doc-list a').first().click();
    await page.waitForURL(`${siteUrl}docs/*/`);
    expect(await page.locator('main h1').first().textContent()).toBe(title);
    expect((await page.locator('.doc-page').innerText()).length).toBeGreaterThan(200);
    expect(failures).toEqual([]);
    await page.close();
  });

  it('works at 390 px wide: header, docs, a skill page, without sideways scrolling', async () => {
    const mobile = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await newPage(mobile);
    const noSideScroll = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth), page.url()).toBeLessThanOrEqual(390);
    await page.goto(siteUrl);
    await noSideScroll();
    // The search filters' selects stay inside their panel (a long option once pushed them out).
    const overflow = await page.evaluate(() => {
      const panel = document.querySelector('#search')!.getBoundingClientRect();
      return [...document.querySelectorAll('#search select, #search input')].filter((c) => c.getBoundingClientRect().right > panel.right).length;
    });
    expect(overflow).toBe(0);
    await page.screenshot({ path: path.join(results, 'subpath-home-390.png') });
    await page.locator('.site-header a', { hasText: 'Docs' }).click();
    await page.waitForURL(`${siteUrl}docs/`);
    await page.locator('.doc-list a').first().click();
    await page.waitForURL(`${siteUrl}docs/*/`);
    await noSideScroll();
    await page.screenshot({ path: path.join(results, 'subpath-doc-390.png') });
    await page.locator('.site-header a', { hasText: 'Catalog' }).click();
    await page.waitForURL(siteUrl);
    await page.locator('.cards .card-title a').first().click();
    await page.waitForURL(`${siteUrl}skills/*/`);
    await noSideScroll();
    await page.screenshot({ path: path.join(results, 'subpath-skill-390.png'), fullPage: true });
    expect(failures).toEqual([]);
    await mobile.close();
  });

  it('packs a Pages artifact that keeps .well-known/ and every file the discovery index names', async () => {
    const tar = path.join(work, 'artifact.tar');
    execFileSync('sh', [path.join(repoRoot, 'scripts/pages-artifact.sh'), dist, tar], { stdio: 'pipe' });
    const entries = new Map<string, { type: string; bytes: Buffer }>();
    await new Promise<void>((resolve, reject) => {
      const reader = extract();
      reader.on('entry', (header, stream, next) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c) => chunks.push(c as Buffer));
        stream.on('end', () => {
          entries.set(header.name.replace(/^\.\//, ''), { type: header.type ?? 'file', bytes: Buffer.concat(chunks) });
          next();
        });
      });
      reader.on('finish', resolve);
      reader.on('error', reject);
      reader.end(readFileSync(tar));
    });
    // Pages accepts files and folders only: the discovery mirror's hard links are files here.
    expect([...new Set([...entries.values()].map((e) => e.type))].sort()).toEqual(['directory', 'file']);
    const discoveryFile = entries.get('.well-known/agent-skills/index.json');
    expect(discoveryFile, '.well-known/agent-skills/index.json in the artifact').toBeDefined();
    expect(entries.has('.well-known/skills/index.json')).toBe(true);
    const discovery = JSON.parse(discoveryFile!.bytes.toString('utf8')) as DiscoveryIndexV2;
    expect(discovery.skills.length).toBeGreaterThan(10);
    const base = new URL('https://pages.example/repo/.well-known/agent-skills/index.json');
    for (const skill of discovery.skills) {
      const file = decodeURIComponent(new URL(skill.url, base).pathname.slice('/repo/'.length));
      const entry = entries.get(file);
      expect(entry, `${skill.name}: ${file}`).toBeDefined();
      expect(`sha256:${createHash('sha256').update(entry!.bytes).digest('hex')}`, file).toBe(skill.digest);
    }
    // The whole site is in it.
    const built = readdirSync(dist, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(dist, path.join(e.parentPath, e.name)));
    expect(built.filter((f) => !entries.has(f.split(path.sep).join('/')))).toEqual([]);

    // Unpacked and served under /repo/ as Pages would, it is a registry the real `skills` client
    // installs every skill from.
    const deployed = path.join(work, 'deployed');
    mkdirSync(deployed);
    execFileSync('tar', ['-xf', tar, '-C', deployed]);
    const pages = await startPreview({ dir: deployed, port: 0, base: BASE });
    const project = path.join(work, 'project');
    mkdirSync(project);
    try {
      const run = await new Promise<{ status: number; output: string }>((resolve) => {
        execFile(
          process.execPath,
          [path.join(repoRoot, 'node_modules/skills/bin/cli.mjs'), 'add', pages.url, '--skill', '*', '--agent', 'claude-code', '-y', '--copy'],
          { cwd: project, timeout: 120_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, DISABLE_TELEMETRY: '1', DO_NOT_TRACK: '1', CI: '1', NO_COLOR: '1' } },
          (error, stdout, stderr) => resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}`.slice(-4000) }),
        );
      });
      expect(run.status, run.output).toBe(0);
      expect(readdirSync(path.join(project, '.claude/skills')).sort()).toEqual(discovery.skills.map((s) => s.name).sort());
    } finally {
      await pages.close();
    }
  }, 150_000);

  it('logged no console errors', () => {
    expect(consoleProblems).toEqual([]);
  });
});
