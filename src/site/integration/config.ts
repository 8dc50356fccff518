import { z } from 'zod';
import { builtSiteUrlProblem, normaliseSiteUrl } from '../../core/site-url.ts';

export { normaliseSiteUrl };

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

/** The URL path the site is served under, with slashes at both ends: `/` or `/repo/`. */
export function basePathOf(settings: SiteSettings): string {
  return settings.siteUrl ? new URL(settings.siteUrl).pathname : '/';
}
