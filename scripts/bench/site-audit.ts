/**
 * Lighthouse and axe-core figures for the example registry's catalog (scripts/site-audit.ts):
 * the four Lighthouse category scores on mobile and desktop for the catalog and two skill pages,
 * and axe's violations over every page the sitemap lists. Lighthouse's performance score depends
 * on how busy the machine is (its simulated phone multiplies the CPU time it observes), so it is a
 * benchmark figure; the tests assert the other three categories and the layout shift.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { LighthouseResult } from '../site-audit.ts';
import { node, projectRoot, type BenchModule } from './harness.ts';

// Lighthouse, axe-core and Playwright load only when this module runs: every child process of the
// benchmark imports the module list, and loading them there added half a second to each measurement.
const audit = () => import('../site-audit.ts');
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

const PAGES = ['/', '/skills/code_review/', '/skills/chinese-proofreading/'];

export interface SiteAuditFigures {
  lighthouse: LighthouseResult[];
  axe: { pages: number; violations: number; seriousOrCritical: number };
}

export const siteAudit: BenchModule = {
  name: 'site-audit',
  async once({ quick, work, log }): Promise<SiteAuditFigures> {
    const dist = join(work, 'audit-site');
    execFileSync(node, [join(projectRoot, 'scripts/build.ts'), '--root', projectRoot, '--out', dist], { cwd: projectRoot, stdio: 'ignore', env: { ...process.env, SOURCE_DATE_EPOCH: '1767225600' } });
    const { axeViolations, lighthouseScores, sitemapPages } = await audit();
    const { startPreview } = await import('../preview.ts');
    const preview = await startPreview({ dir: dist, port: 0 });
    try {
      const lighthouse = await lighthouseScores(preview.url, quick ? PAGES.slice(0, 1) : PAGES);
      const pages = quick ? ['/'] : sitemapPages(dist);
      const violations = await axeViolations(preview.url, pages);
      const figures = {
        lighthouse,
        axe: { pages: pages.length, violations: violations.length, seriousOrCritical: violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').length },
      };
      log(`lighthouse: ${lighthouse.map((r) => `${r.page} ${r.formFactor} ${CATEGORIES.map((c) => r.scores[c]).join('/')}`).join('; ')}; axe: ${figures.axe.seriousOrCritical} serious or critical on ${pages.length} pages`);
      return figures;
    } finally {
      await preview.close();
    }
  },
  renderOnce(f: SiteAuditFigures) {
    return [
      ...f.lighthouse.map((r) => `| Lighthouse ${r.page}, ${r.formFactor}: performance / accessibility / best practices / SEO | ${CATEGORIES.map((c) => r.scores[c]).join(' / ')} | target ≥ 95 each |`),
      `| axe-core: violations on ${f.axe.pages} pages (light at 390 and 1366 px, dark colours) | ${f.axe.violations}, of them ${f.axe.seriousOrCritical} serious or critical | target: none serious or critical |`,
    ];
  },
};
