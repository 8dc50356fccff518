/**
 * The catalog's search over the example registry in Chromium: what a query word finds (only pages
 * that hold it, not Pagefind's guess by the longest indexed word it begins with), the "did you
 * mean" for a typo, and how hits are marked. Builds the examples once with scripts/build.ts and
 * serves them with scripts/preview.ts on 127.0.0.1.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegistryIndex } from '../../src/core/schemas/registry-index.ts';
import { startPreview, type PreviewServer } from '../../scripts/preview.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'];

let out: string;
let index: RegistryIndex;
let preview: PreviewServer;
let browser: Browser;
const problems: string[] = [];

beforeAll(async () => {
  out = path.join(mkdtempSync(path.join(tmpdir(), 'skilldex-site-search-')), 'site');
  // Asynchronously, so a slow build does not block the test runner's own timers.
  await new Promise<void>((resolve, reject) =>
    execFile(process.execPath, [path.join(repoRoot, 'scripts/build.ts'), '--out', out], { cwd: repoRoot, timeout: 300_000, env: { ...process.env, SOURCE_DATE_EPOCH: '1767225600' } }, (error, stdout, stderr) =>
      error ? reject(new Error(`site build failed: ${error.message}\n${stdout}\n${stderr}`)) : resolve(),
    ),
  );
  index = JSON.parse(readFileSync(path.join(out, 'index.json'), 'utf8')) as RegistryIndex;
  preview = await startPreview({ dir: out, port: 0 });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}, 320_000);

afterAll(async () => {
  await browser?.close();
  await preview?.close();
  if (out) rmSync(path.dirname(out), { recursive: true, force: true });
});

async function open(pathname: string): Promise<Page> {
  const page = await browser.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${page.url()}: uncaught ${error.message}`));
  await page.goto(new URL(pathname, preview.url).href);
  return page;
}

/** Types a query into the home page's search box and returns the result paths once they are shown. */
async function search(page: Page, query: string): Promise<string[]> {
  await page.fill('#search-input', query);
  // search.js stamps the list with the query it shows, so stale results can't be read.
  await page.waitForFunction((q) => (document.querySelector('#search-results') as HTMLElement).dataset.query === q, query);
  return page.locator('#search-results a').evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
}

const status = (page: Page) => page.locator('#search-status').textContent();
const EMAIL = '/skills/japanese-business-email/';

describe('catalog search', () => {
  it('does not answer a word with a page that only holds a shorter word it begins ("review" is not "Re:")', async () => {
    const page = await open('/');
    // The Japanese email says "Re:" but never "review": Pagefind's guess, the longest indexed word
    // the query word begins with, must not list it.
    const review = await search(page, 'review');
    expect(review).toContain('/skills/code_review/');
    expect(review).not.toContain(EMAIL);
    expect(await status(page)).toBe(`${review.length} skills match.`);
    expect(await search(page, 'code review')).not.toContain(EMAIL);
    await page.close();
  });

  it('still finds the words a query word begins, stems, and English words on Chinese pages', async () => {
    const page = await open('/');
    expect(await search(page, 'revi')).toContain('/skills/code_review/');
    expect(await search(page, 'reviews')).toContain('/skills/code_review/');
    expect(await search(page, '敬語')).toContain(EMAIL);
    // The Chinese index is searched too: "fullwidth" appears only on the Chinese proofreading page.
    expect(await search(page, 'fullwidth')).toEqual(['/skills/chinese-proofreading/']);
    await page.close();
  });

  it('corrects a typo one edit away to a word of the catalog ("reviw" finds Code Review)', async () => {
    const page = await open('/');
    const typo = await search(page, 'reviw');
    expect(typo).toContain('/skills/code_review/');
    // Not "re-type" (json-toolkit) or "Re:" (the Japanese email) as Pagefind guessed.
    expect(typo).not.toContain(EMAIL);
    expect(typo).not.toContain('/skills/json-toolkit/');
    expect(await page.locator('#search-results').getAttribute('data-answered')).toBe('review');
    expect(await status(page)).toMatch(/^No skill matches “reviw”; \d+ skills? match(es)? “review”\.$/);
    // The address bar keeps what was typed.
    expect(new URL(page.url()).searchParams.get('q')).toBe('reviw');
    // In a longer query only the word that finds nothing is corrected.
    const corrected = await search(page, 'code reviw');
    expect(corrected).toEqual(await search(page, 'code review'));
    // Nothing one edit away: nothing found, nothing made up.
    expect(await search(page, 'qwxzv')).toEqual([]);
    expect(await status(page)).toBe('No skills match.');
    await page.close();
  });

  it('marks one Chinese term once, though Pagefind indexes 校对 as 校 and 对', async () => {
    const page = await open('/');
    expect(await search(page, '校对')).toContain('/skills/chinese-proofreading/');
    const marks = await page.locator('#search-results li p:not(.search-facts) mark').allTextContents();
    expect(marks).toContain('校对');
    expect(marks).not.toContain('校');
    await page.close();
  });

  it('does not match every skill on "svg" or "version" through the badge image', async () => {
    const page = await open('/');
    expect(await search(page, 'svg')).not.toContain('/skills/code_review/');
    expect(await search(page, 'version')).not.toContain('/skills/code_review/');
    await page.close();
  });

  it('counts the filter options without the pages Pagefind only guessed', async () => {
    const page = await open('/');
    await search(page, 'review');
    await page.selectOption('#search-filter-format', 'skill-md');
    await page.waitForFunction(() => (document.querySelector('#search-results') as HTMLElement).dataset.filters === '{"format":"skill-md"}');
    const hits = await page.locator('#search-results a').evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
    expect(hits).not.toContain(EMAIL);
    // The email is a skill-md skill in "writing"; only what the list shows may count there.
    const writing = index.skills.filter((s) => s.category === 'writing' && s.format === 'skill-md' && hits.includes(`/skills/${s.name}/`));
    expect(await page.locator('#search-filter-category option[value="writing"]').textContent()).toBe(`writing (${writing.length})`);
    await page.close();
  });

  it('suggests in its placeholder only terms of this catalog, each of which finds a skill', async () => {
    const page = await open('/');
    const placeholder = (await page.locator('#search-input').getAttribute('placeholder')) ?? '';
    const terms = placeholder.replace(/^e\.g\. /, '').split(', ');
    expect(terms.some((t) => /\p{Script=Han}/u.test(t)), placeholder).toBe(true);
    for (const term of terms) expect((await search(page, term)).length, term).toBeGreaterThan(0);
    await page.close();
  });

  it('searches while the reader types, one query at a time, and ends on the last text typed', async () => {
    const page = await browser.newPage();
    // Watches the searches Pagefind's worker is asked for: which query, when, and how many
    // different queries are in flight at once (a search goes to each language's index).
    await page.addInitScript(() => {
      const seen = { inFlight: new Map<string, string>(), most: 0, queries: [] as { at: number; query: string }[] };
      (window as unknown as { searches: typeof seen }).searches = seen;
      // A reply is seen before Pagefind's own listener resolves the search it answers: a listener
      // added later would run after the page's next search had already been posted (promise
      // callbacks run between two listeners of one event), and count two searches in flight.
      const NativeWorker = Worker;
      window.Worker = class extends NativeWorker {
        constructor(...args: ConstructorParameters<typeof Worker>) {
          super(...args);
          this.addEventListener('message', (event: MessageEvent) => seen.inFlight.delete(event.data?.id));
        }
      };
      const post = NativeWorker.prototype.postMessage as (this: Worker, ...args: unknown[]) => void;
      NativeWorker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
        const { id, method, args } = (message ?? {}) as { id?: string; method?: string; args?: unknown[] };
        if (method === 'search' && id) {
          const query = String(args?.[0]);
          seen.inFlight.set(id, query);
          seen.most = Math.max(seen.most, new Set(seen.inFlight.values()).size);
          seen.queries.push({ at: performance.now(), query });
        }
        post.call(this, message, ...rest);
      };
    });
    await page.goto(new URL('/', preview.url).href);
    await page.focus('#search-input');
    // The index loads on focus; a reader starts typing once it has (one search answered, the box
    // emptied, and what was watched so far forgotten). On a busy machine loading it took longer
    // than the typing below, and no search could start before the last key.
    expect((await search(page, 'email')).length).toBeGreaterThan(0);
    await page.fill('#search-input', '');
    await page.waitForFunction(() => (document.querySelector('#search-results') as HTMLElement).childElementCount === 0);
    await page.evaluate(() => {
      const seen = (window as unknown as { searches: { inFlight: Map<string, string>; most: number; queries: unknown[] } }).searches;
      seen.most = seen.inFlight.size;
      seen.queries.length = 0;
    });
    await page.keyboard.type('revi', { delay: 120 });
    const lastKeyAt = await page.evaluate(() => performance.now());
    await page.keyboard.type('e', { delay: 0 });
    await page.waitForFunction(() => (document.querySelector('#search-results') as HTMLElement).dataset.query === 'revie');
    const seen = await page.evaluate(() => {
      const { most, queries } = (window as unknown as { searches: { most: number; queries: { at: number; query: string }[] } }).searches;
      return { most, queries };
    });
    // Before the typing stopped, a search for what was typed so far had started.
    expect(seen.queries.some((q) => q.at < lastKeyAt && /^r/.test(q.query))).toBe(true);
    expect(seen.most).toBe(1);
    // The last search is for the last text (or its exact form, which checks a word was not guessed).
    expect(seen.queries.at(-1)?.query.replaceAll('"', '')).toBe('revie');
    expect(await page.locator('#search-results a').evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname))).toContain('/skills/code_review/');
    await page.close();
  });

  it('logged no console errors', () => {
    expect(problems).toEqual([]);
  });
});
