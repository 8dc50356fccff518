/**
 * The catalog site as an Astro integration: `skilldexSite({ registryDir, docsDir, site })` in
 * Astro's `integrations`. It
 * - sets Astro's `site` and `base` from `site.siteUrl`, so a site served under a sub-path
 *   (`https://user.github.io/repo/`) links and loads everything under that path;
 * - gives the pages its checked options as the `virtual:skilldex/config` module;
 * - while Astro builds, renders the skills' Markdown documents on worker threads through the
 *   render cache (src/site/render/), for the pages to assemble;
 * - when Astro has written the pages (`astro:build:done`), indexes the skill pages with Pagefind
 *   and writes the search box's word list (search-words.json), and copies the files beside the
 *   docs pages (their images) to /docs/.
 * scripts/build.ts builds the registry while Vite bundles the pages (`registryReady`), and runs
 * Astro with it.
 */
import type { AstroIntegration } from 'astro';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRenderPool, defaultRenderPoolSize, type RenderPool, type RenderStats } from '../render/pool.ts';
import { provideRenderPool } from '../render/skill-documents.ts';
import { provideKeptPages, type KeptPagesSlot } from '../catalog/kept-pages.ts';
import { keptPageFiles, openPageRecord, pagesCodeKey, savePageRecord } from './page-record.ts';
import { basePathOf, SiteBuildConfig, type SiteBuildConfigInput } from './config.ts';
import { writeBadges } from './badges.ts';
import { copyDocAssets } from './doc-assets.ts';
import { indexSkillPages } from './pagefind.ts';
import { keptSearchIndex, saveSearchRecord, SEARCH_FOLDER, searchInputKey } from './search-record.ts';
import { writeSearchWords } from './search-words.ts';
import { SiteBuildError } from './site-build-error.ts';
import { virtualConfigPlugin, type VitePlugin } from './virtual-config.ts';

export { SiteBuildError } from './site-build-error.ts';
export { normaliseSiteUrl, type SiteBuildConfigInput, type SiteSettings } from './config.ts';

export interface SearchIndexed {
  /** Skill pages in the search index. */
  pages: number;
  ms: number;
  /**
   * The files of the search index, relative to the output folder, when the last build's index was
   * kept as it was (./search-record.ts): written, as far as a sweep of stale files is concerned.
   * Empty when the pages were indexed again.
   */
  kept: readonly string[];
}

/** Pages in flight per render worker. */
const RENDER_AHEAD = 4;

export interface SiteBuildEvents {
  /**
   * Settles when `registryDir` holds the built registry. Vite bundles the pages without it (they
   * read the registry only when they are generated), so a caller may still be building it: page
   * generation waits for this promise, and a rejection fails the Astro build with its error.
   */
  registryReady?: Promise<unknown>;
  /**
   * Settles when the output folder may be written. Astro writes nothing, and reads none of the last
   * build's pages, before it does (astro:build:start waits): a caller that updates its last output
   * in place removes meanwhile the links someone may have put there.
   */
  beforeWriting?: Promise<unknown>;
  /**
   * Called once Astro has written the pages, before the search index is built: a build that
   * updates its last output in place removes here the skill pages it did not write again, so that
   * Pagefind, which takes every skill page in the folder, never indexes a skill that is gone, and
   * the previous search index, whose files Pagefind would otherwise leave as they are.
   * `keptPages` are the page files (relative to `outDir`) left as the last build wrote them, not
   * written again because nothing they are made of changed (src/site/catalog/kept-pages.ts).
   */
  onPagesWritten?: (outDir: string, keptPages: ReadonlySet<string>) => void;
  onSearchIndexed?: (result: SearchIndexed) => void;
  onDocumentsRendered?: (stats: RenderStats) => void;
}

/**
 * @example
 * await build({ root, integrations: [skilldexSite({ registryDir: 'dist-registry', docsDir: 'docs', site: { title: 'Skills' } })] });
 */
export function skilldexSite(options: SiteBuildConfigInput, events: SiteBuildEvents = {}): AstroIntegration {
  const parsed = SiteBuildConfig.safeParse(options);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(options)'}: ${issue.message}`);
    throw new SiteBuildError('E_SITE_OPTIONS', `the site integration's options are not usable:\n  ${issues.join('\n  ')}`);
  }
  const config = parsed.data;
  let renderCacheDir = config.renderCacheDir;
  let pool: RenderPool | undefined;
  let pageRecord = { file: '', searchFile: '', outDir: '', astroRoot: '' };
  let keptPages: KeptPagesSlot | undefined;
  return {
    name: 'skilldex-site',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({
          ...(config.site.siteUrl ? { site: config.site.siteUrl } : {}),
          base: basePathOf(config.site),
          vite: { plugins: [virtualConfigPlugin(config), ...(events.registryReady ? [awaitBeforeGenerating(events.registryReady)] : [])] },
          // Pages await their documents from the render workers; with several pages in flight the
          // main thread assembles one while the workers render the next ones.
          build: { concurrency: RENDER_AHEAD * defaultRenderPoolSize() },
        });
      },
      'astro:config:done': ({ config: astroConfig }) => {
        renderCacheDir ??= path.join(fileURLToPath(astroConfig.cacheDir), 'skilldex-render');
        pageRecord = { file: path.join(fileURLToPath(astroConfig.cacheDir), 'skilldex-pages.json'), searchFile: path.join(fileURLToPath(astroConfig.cacheDir), 'skilldex-search.json'), outDir: path.resolve(fileURLToPath(astroConfig.outDir)), astroRoot: fileURLToPath(astroConfig.root) };
      },
      // The workers load the renderer while Vite bundles the pages.
      'astro:build:start': async () => {
        pool = createRenderPool({ cacheDir: renderCacheDir });
        provideRenderPool(pool);
        // The render workers start meanwhile: they write into the cache folder, not the output.
        await events.beforeWriting;
        keptPages = openPageRecord(pageRecord.file, pagesCodeKey(config, pageRecord.astroRoot), pageRecord.outDir);
        provideKeptPages(keptPages);
      },
      'astro:build:generated': async () => {
        provideRenderPool(undefined);
        // Pruning keeps only the documents this build rendered: after a build that kept pages
        // as they were, the documents of those pages would be gone from the cache.
        const stats = await pool?.close({ prune: (keptPages?.kept?.size ?? 0) === 0 });
        pool = undefined;
        if (stats) events.onDocumentsRendered?.(stats);
      },
      'astro:build:done': async ({ dir }) => {
        const outDir = fileURLToPath(dir);
        provideKeptPages(undefined);
        events.onPagesWritten?.(outDir, keptPages ? keptPageFiles(keptPages) : new Set());
        if (keptPages) savePageRecord(pageRecord.file, keptPages);
        const start = performance.now();
        const writeOthers = () => {
          copyDocAssets(config.docsDir, path.join(outDir, 'docs'));
          writeBadges(config.registryDir, outDir);
          writeSearchWords(config.registryDir, outDir);
        };
        // Taken after onPagesWritten, which removes the pages of skills that are gone.
        const searchKey = keptPages && searchInputKey(keptPages.codeKey, outDir);
        keptPages = undefined;
        const kept = searchKey === undefined ? undefined : keptSearchIndex(pageRecord.searchFile, searchKey, outDir);
        if (kept) {
          writeOthers();
          events.onSearchIndexed?.({ pages: kept.pages, ms: Math.round(performance.now() - start), kept: kept.files });
          return;
        }
        // Pagefind leaves files it did not write where they are: the last index's go first.
        rmSync(path.join(outDir, SEARCH_FOLDER), { recursive: true, force: true });
        // The other files are written while Pagefind indexes (20k badges at 10k skills took
        // seconds): none of them is a page it takes.
        const pages = await indexSkillPages(outDir, writeOthers);
        if (searchKey !== undefined) saveSearchRecord(pageRecord.searchFile, searchKey, outDir, pages);
        events.onSearchIndexed?.({ pages, ms: Math.round(performance.now() - start), kept: [] });
      },
    },
  };
}

/**
 * A Vite plugin that holds Astro's page generation until `ready` settles. Astro generates the
 * pages in a `buildApp` hook of order `post` (after every environment is bundled); Vite runs those
 * hooks one after another in plugin order, and a plugin given through the integration's Vite
 * config comes before Astro's own. A rejection stops the build with that error.
 */
function awaitBeforeGenerating(ready: Promise<unknown>): VitePlugin {
  return {
    name: 'skilldex:await-registry',
    buildApp: {
      order: 'post',
      async handler() {
        await ready;
      },
    },
  };
}
