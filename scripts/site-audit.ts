/**
 * Audits a built catalog site in Debian's Chromium: Lighthouse's four category scores (mobile and
 * desktop) for chosen pages, and axe-core's violations for every page the sitemap lists, in light
 * and dark colour schemes. Used by test/e2e/site-audit.test.ts (which asserts the thresholds) and
 * runnable on its own to print the figures the README quotes:
 *
 *   node scripts/site-audit.ts <built-site-dir> [page …]
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { startPreview } from './preview.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];
export type FormFactor = 'mobile' | 'desktop';

export interface LighthouseResult {
  page: string;
  formFactor: FormFactor;
  scores: Record<Category, number>;
  /** Cumulative layout shift as Lighthouse measured it while loading the page. */
  layoutShift: number;
  /** Audits that cost points, for the failure message: `category/audit-id score (value)`. */
  lost: string[];
}

/** Lighthouse with its default simulated throttling (a mid-range phone on slow 4G for mobile). */
export async function lighthouseScores(siteUrl: string, pages: readonly string[]): Promise<LighthouseResult[]> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  const results: LighthouseResult[] = [];
  try {
    for (const page of pages) {
      for (const formFactor of ['mobile', 'desktop'] as const) {
        const runner = await lighthouse(
          new URL(page.replace(/^\//, ''), siteUrl).href,
          { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] },
          formFactor === 'desktop' ? desktopConfig : undefined,
        );
        if (!runner) throw new Error(`lighthouse returned nothing for ${page}`);
        const { categories, audits } = runner.lhr;
        const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((categories[c]?.score ?? 0) * 100)])) as Record<Category, number>;
        const lost = CATEGORIES.flatMap((c) =>
          (categories[c]?.auditRefs ?? [])
            .filter((ref) => ref.weight > 0 && audits[ref.id]?.score !== null && (audits[ref.id]?.score ?? 1) < 1)
            .map((ref) => `${c}/${ref.id} ${String(audits[ref.id]?.score)}${audits[ref.id]?.displayValue ? ` (${audits[ref.id]?.displayValue})` : ''}`),
        );
        results.push({ page, formFactor, scores, layoutShift: audits['cumulative-layout-shift']?.numericValue ?? Number.NaN, lost });
      }
    }
  } finally {
    chrome.kill();
  }
  return results;
}

export interface AxeViolation {
  page: string;
  scheme: 'light' | 'dark';
  width: number;
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The passes axe makes over every page: a phone's and a desktop's width in the light scheme, and
 * the dark scheme's colours (the site has a dark mode, and contrast is checked in the scheme shown;
 * layout does not change with the scheme, so that pass checks colours only).
 */
const AXE_PASSES = [
  { scheme: 'light', width: 390, rules: 'all' },
  { scheme: 'light', width: 1366, rules: 'all' },
  { scheme: 'dark', width: 390, rules: 'colours' },
] as const;

/**
 * axe-core's WCAG 2.x A/AA and best-practice rules on each page. axe is evaluated through the
 * DevTools protocol, which the site's CSP does not govern.
 */
export async function axeViolations(siteUrl: string, pages: readonly string[]): Promise<AxeViolation[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  const violations: AxeViolation[] = [];
  try {
    for (const pass of AXE_PASSES) {
      const context = await browser.newContext({ viewport: { width: pass.width, height: 900 }, colorScheme: pass.scheme });
      const tab = await context.newPage();
      for (const page of pages) {
        await tab.goto(new URL(page.replace(/^\//, ''), siteUrl).href);
        await tab.evaluate(axeSource);
        const found = await tab.evaluate(async (rules) => {
          const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
          const runOnly = rules === 'all' ? { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } : { type: 'rule', values: ['color-contrast', 'link-in-text-block'] };
          const result = await axe.run(document, { runOnly });
          return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? 'unknown', help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
        }, pass.rules);
        for (const v of found) violations.push({ page, scheme: pass.scheme, width: pass.width, ...v });
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return violations;
}

/** Every page the site's sitemap lists, as paths below the site's root. */
export function sitemapPages(dir: string): string[] {
  const xml = readFileSync(path.join(dir, 'sitemap.xml'), 'utf8');
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!, 'http://site.invalid/').pathname);
}

/** The Markdown table the README quotes. */
export function scoreTable(results: readonly LighthouseResult[]): string {
  const rows = results.map((r) => `| ${r.page} | ${r.formFactor} | ${CATEGORIES.map((c) => r.scores[c]).join(' | ')} |`);
  return ['| page | device | performance | accessibility | best practices | SEO |', '| --- | --- | --- | --- | --- | --- |', ...rows].join('\n');
}

if (import.meta.main) {
  const [dir, ...pages] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: node scripts/site-audit.ts <built-site-dir> [page …]');
    process.exit(2);
  }
  const preview = await startPreview({ dir, port: 0 });
  try {
    const scores = await lighthouseScores(preview.url, pages.length > 0 ? pages : ['/']);
    console.log(scoreTable(scores));
    for (const r of scores) for (const lost of r.lost) console.log(`  ${r.page} ${r.formFactor}: ${lost}`);
    const violations = await axeViolations(preview.url, sitemapPages(dir));
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    console.log(`\naxe-core: ${violations.length} violation(s) on ${sitemapPages(dir).length} pages (light at 390 and 1366 px, dark colours at 390 px); ${serious.length} serious or critical`);
    for (const v of violations) console.log(`  ${v.impact} ${v.id} ${v.page} (${v.scheme}, ${v.width}px): ${v.help} — ${v.targets.slice(0, 3).join(', ')}`);
  } finally {
    await preview.close();
  }
}
