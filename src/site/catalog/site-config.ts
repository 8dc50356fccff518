import config from 'virtual:skilldex/config';
import { basePathOf, type SiteSettings } from '../integration/config.ts';

/**
 * The pages' one door to the build's configuration: the `virtual:skilldex/config` module that the
 * site integration (src/site/integration/) serves during `npm run build`.
 */

/** The registry's public settings: title, `siteUrl` (ending in `/`) and repository. */
export function siteConfig(): SiteSettings {
  return config.site;
}

/** The built registry the pages read from disk. */
export function registryDir(): string {
  return config.registryDir;
}

/** The project's docs/ folder, published under /docs/. */
export function docsDir(): string {
  return config.docsDir;
}

/** Cards per listing page. */
export const PAGE_SIZE = config.pageSize;

/** The URL path the site is served under, with slashes at both ends: `/` or `/repo/`. */
export const BASE_PATH = basePathOf(config.site);
