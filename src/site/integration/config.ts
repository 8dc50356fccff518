import { z } from 'zod';
import { siteUrlProblem } from '../../core/schemas/config.ts';

/**
 * What the site build knows that the pages need: where the built registry and the docs pages are,
 * and the registry's public settings. The integration (./index.ts) checks it once and hands it to
 * the pages as the `virtual:skilldex/config` module (./virtual-config.ts), so the pages read no
 * environment and a build cannot pick up another build's settings.
 */
export const SiteSettings = z.object({
  title: z.string().default('Skilldex').describe('Shown in the header, the page titles and the feed.'),
  siteUrl: z
    .string()
    .refine((url) => builtSiteUrlProblem(url) === undefined, { message: 'must be an absolute http(s) URL ending in /, without query, fragment or credentials' })
    .optional()
    .describe('Where the site is served, e.g. `https://user.github.io/repo/`; absolute URLs and the base path come from it.'),
  repository: z.object({ url: z.string(), branch: z.string() }).optional().describe('Source repository, for "source" links.'),
});
export type SiteSettings = z.infer<typeof SiteSettings>;

export const SiteBuildConfig = z.object({
  /** The folder buildRegistry wrote (index.json, manifests, files): the pages read it from disk. */
  registryDir: z.string().min(1),
  /** The project's Markdown documentation, one page per `*.md` under `/docs/<slug>/`. */
  docsDir: z.string().min(1),
  site: SiteSettings.default({ title: 'Skilldex' }),
  /**
   * Where rendered skill documents are cached between builds (src/site/render/); default:
   * `skilldex-render/` in Astro's cache folder. Kept outside the published site.
   */
  renderCacheDir: z.string().min(1).optional(),
  /** Cards per listing page: enough to scan, small enough that a 10k-skill registry stays light. */
  pageSize: z.number().int().min(1).max(1000).default(24),
});
export type SiteBuildConfig = z.infer<typeof SiteBuildConfig>;
export type SiteBuildConfigInput = z.input<typeof SiteBuildConfig>;

/** Why `url` cannot be the site's URL, or undefined when it can: a registry's site URL ending in `/`. */
function builtSiteUrlProblem(url: string): string | undefined {
  return siteUrlProblem(url) ?? (new URL(url).pathname.endsWith('/') ? undefined : 'does not end in /');
}

/**
 * `value` as the site URL the build needs: an absolute http(s) URL ending in `/`, without query,
 * fragment or credentials. A path without its final `/` gets one; anything else would put broken
 * links on every page, so it is refused (undefined).
 *
 * @example
 * normaliseSiteUrl('https://user.github.io/repo') // 'https://user.github.io/repo/'
 */
export function normaliseSiteUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return builtSiteUrlProblem(url.href) === undefined ? url.href : undefined;
}

/** The URL path the site is served under, with slashes at both ends: `/` or `/repo/`. */
export function basePathOf(settings: SiteSettings): string {
  return settings.siteUrl ? new URL(settings.siteUrl).pathname : '/';
}
