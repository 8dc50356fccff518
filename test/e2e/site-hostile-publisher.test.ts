/**
 * The site built from skills a hostile publisher wrote (what a pull request adding a skill folder
 * can hold that the validator accepts): values no layout expects and values chosen to collide
 * with other skills' URLs. Builds one registry with scripts/build.ts, serves it with
 * scripts/preview.ts and reads it in Chromium at a phone's and a laptop's width.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreview, type PreviewServer } from '../../scripts/preview.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'];
const BUILD_TIMEOUT_MS = 150_000;

/** One value with no place to break, as a category, a tag or a URL-shaped tag can be. */
const LONG_CATEGORY = `category${'z'.repeat(200)}`;
const LONG_TAG = `tag${'w'.repeat(200)}`;
const URL_TAG = `https://example.org/${'p'.repeat(200)}`;

let work: string;
let dist: string;
let preview: PreviewServer;
let browser: Browser;
let buildLog: string;

function skill(root: string, name: string, frontmatter: string, body = `# ${name}\n\nDoes one thing.\n`): void {
  mkdirSync(path.join(root, 'skills', name), { recursive: true });
  writeFileSync(path.join(root, 'skills', name, 'SKILL.md'), `---\nname: ${name}\n${frontmatter}\n---\n${body}`);
}

function build(root: string, out: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(repoRoot, 'scripts/build.ts'), '--root', root, '--out', out, '--lenient'],
      { cwd: repoRoot, encoding: 'utf8', timeout: BUILD_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024, env: { ...process.env, SOURCE_DATE_EPOCH: '1767225600' } },
      (error, stdout, stderr) => (error ? reject(new Error(`site build failed:\n${stdout}\n${stderr}`)) : resolve(`${stdout}${stderr}`)),
    );
  });
}

/** The site path of a facet value's page, as the skill page links it. */
function facetHrefs(html: string, facet: string): string[] {
  return [...html.matchAll(new RegExp(`href="(/${facet}/[^"]+/)"`, 'g'))].map((m) => m[1]!);
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'skilldex-hostile-site-'));
  const root = path.join(work, 'repo');
  skill(root, 'plain', 'description: A plain skill beside the hostile ones. Use it to check that they leave it alone.\ncategory: data\ntags: [files]');
  skill(
    root,
    'long-values',
    `description: Carries values with no place to break. Use it to test narrow screens.\ncategory: ${LONG_CATEGORY}\ntags: [${LONG_TAG}, "${URL_TAG}"]`,
  );
  // `x_` slugs to `x`, which `x` holds, so it would get `x-` and its hash's first 8 digits: the
  // value of the next tag.
  skill(root, 'slug-squatter', `description: Carries a tag named like another tag's page. Use it to test facet URLs.\ncategory: data\ntags: [x, x-${createHash('sha256').update('x_').digest('hex').slice(0, 8)}, x_]`);
  // Every distinct tag is a page: 16,000 short tags fit in 64 KB of frontmatter.
  skill(root, 'tag-flood', `description: Declares far more tags than a reader scans. Use it to test the tag limit.\ncategory: data\ntags: [${Array.from({ length: 200 }, (_, i) => `flood-${i}`).join(', ')}]`);
  dist = path.join(work, 'dist');
  buildLog = await build(root, dist);
  preview = await startPreview({ dir: dist, port: 0 });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
  await preview?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('a site built from hostile skills', () => {
  it('keeps a long unbroken category or tag inside the page at 390 and 1366 px', async () => {
    const html = readFileSync(path.join(dist, 'skills/long-values/index.html'), 'utf8');
    const facetPages = [...new Set([...facetHrefs(html, 'category'), ...facetHrefs(html, 'tag')])];
    expect(facetPages).toHaveLength(3);
    const pages = ['/', '/skills/long-values/', '/category/', '/tag/', '/browse/updated/1/', ...facetPages];
    const overflowing: string[] = [];
    for (const width of [390, 1366]) {
      const context = await browser.newContext({ viewport: { width, height: 844 } });
      const page = await context.newPage();
      for (const pathname of pages) {
        const response = await page.goto(new URL(pathname, preview.url).href);
        expect(response?.status(), pathname).toBe(200);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        if (scrollWidth > width) overflowing.push(`${pathname} at ${width} px is ${scrollWidth} px wide`);
      }
      await context.close();
    }
    expect(overflowing).toEqual([]);
  });

  it('gives every tag its own page, even one named like another tag\'s page', async () => {
    const html = readFileSync(path.join(dist, 'skills/slug-squatter/index.html'), 'utf8');
    const chips = [...html.matchAll(/<a class="chip" href="(\/tag\/[^"]+\/)">#([^<]+)<\/a>/g)].map((m) => ({ href: m[1]!, tag: m[2]! }));
    expect(chips.map((c) => c.tag).sort()).toEqual(['x', 'x-' + createHash('sha256').update('x_').digest('hex').slice(0, 8), 'x_'].sort());
    expect(new Set(chips.map((c) => c.href)).size).toBe(3);
    expect(buildLog).not.toContain('conflicts with');
    for (const { href, tag } of chips) {
      const response = await fetch(new URL(href, preview.url));
      expect(response.status, href).toBe(200);
      expect(await response.text(), href).toContain(`<span class="scope-value">${tag}</span>`);
    }
  });

  it('leaves out a skill with more tags than allowed, naming the rule, and makes none of its tag pages', () => {
    expect(buildLog).toContain('skills/tag-flood/SKILL.md:5:7 tags/too-many 200 tags; at most 32 are allowed');
    const index = JSON.parse(readFileSync(path.join(dist, 'index.json'), 'utf8')) as { skills: { name: string }[] };
    expect(index.skills.map((s) => s.name).sort()).toEqual(['long-values', 'plain', 'slug-squatter']);
    expect(existsSync(path.join(dist, 'tag/flood-0'))).toBe(false);
    expect(existsSync(path.join(dist, 'skills/plain/index.html'))).toBe(true);
  });
});
