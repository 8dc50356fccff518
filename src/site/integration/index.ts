/**
 * The catalog site as an Astro integration: `skilldexSite({ registryDir, docsDir, site })` in
 * Astro's `integrations`. It
 * - sets Astro's `site` and `base` from `site.siteUrl`, so a site served under a sub-path
 *   (`https://user.github.io/repo/`) links and loads everything under that path;
 * - gives the pages its checked options as the `virtual:skilldex/config` module;
 * - when Astro has written the pages (`astro:build:done`), indexes the skill pages with Pagefind
 *   and writes the search box's word list (search-words.json), and copies the files beside the
 *   docs pages (their images) to /docs/.
 * scripts/build.ts builds the registry first and runs Astro with it.
 */
import type { AstroIntegration } from 'astro';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { basePathOf, SiteBuildConfig, type SiteBuildConfigInput } from './config.ts';
import { writeBadges } from './badges.ts';
import { copyDocAssets } from './doc-assets.ts';
import { indexSkillPages } from './pagefind.ts';
import { writeSearchWords } from './search-words.ts';
import { SiteBuildError } from './site-build-error.ts';
import { virtualConfigPlugin } from './virtual-config.ts';

export { SiteBuildError } from './site-build-error.ts';
export { normaliseSiteUrl, type SiteBuildConfigInput, type SiteSettings } from './config.ts';

export interface SearchIndexed {
  /** Skill pages in the search index. */
  pages: number;
  ms: number;
}

/**
 * @example
 * await build({ root, integrations: [skilldexSite({ registryDir: 'dist-registry', docsDir: 'docs', site: { title: 'Skills' } })] });
 */
export function skilldexSite(options: SiteBuildConfigInput, events: { onSearchIndexed?: (result: SearchIndexed) => void } = {}): AstroIntegration {
  const parsed = SiteBuildConfig.safeParse(options);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(options)'}: ${issue.message}`);
    throw new SiteBuildError('E_SITE_OPTIONS', `the site integration's options are not usable:\n  ${issues.join('\n  ')}`);
  }
  const config = parsed.data;
  return {
    name: 'skilldex-site',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({
          ...(config.site.siteUrl ? { site: config.site.siteUrl } : {}),
          base: basePathOf(config.site),
          vite: { plugins: [virtualConfigPlugin(config)] },
        });
      },
      'astro:build:done': async ({ dir }) => {
        const outDir = fileURLToPath(dir);
        const start = performance.now();
        const pages = await indexSkillPages(outDir);
        events.onSearchIndexed?.({ pages, ms: Math.round(performance.now() - start) });
        copyDocAssets(config.docsDir, path.join(outDir, 'docs'));
        writeBadges(config.registryDir, outDir);
        writeSearchWords(config.registryDir, outDir);
      },
    },
  };
}
