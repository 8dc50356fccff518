import { skillDocPath } from './doc-paths.ts';
import { BASE_PATH, PAGE_SIZE } from './site-config.ts';
import type { Catalog, CatalogEntry, FacetName, FacetValue } from './catalog.ts';

/**
 * Every catalog URL is built here, so pages, links, the sitemap and `getStaticPaths` agree.
 * Each one starts with the site's base path (`/`, or `/repo/` when `siteUrl` is
 * `https://user.github.io/repo/`), so the site works wherever `siteUrl` says it is deployed:
 *
 *   /                                  all skills, by name, page 1
 *   /browse/<sort>/<n>/                all skills, any other sort or page
 *   /<facet>/                          every value of a facet with counts
 *   /<facet>/<slug>/                   skills with that value, by name, page 1
 *   /<facet>/<slug>/<sort>/<n>/        any other sort or page
 *   /skills/<name>/                    a skill
 *   /docs/<slug>/                      a page of the project's docs/
 *
 * Filtering and sorting are plain links between static pages, so they work without JavaScript.
 */

export { PAGE_SIZE } from './site-config.ts';

export type SortKey = 'name' | 'updated';
export const SORTS: readonly SortKey[] = ['name', 'updated'];
export const SORT_LABELS: Record<SortKey, string> = { name: 'Name', updated: 'Recently updated' };

/** The URL path the site is served under, with slashes at both ends: `/` or `/repo/`. */
export function basePath(): string {
  return BASE_PATH;
}

/**
 * A path inside the site as a link: `sitePath('security/')` → `/repo/security/`. Every link,
 * asset and registry file goes through here; a root-absolute `/security/` would leave the
 * sub-path a project site is deployed under.
 */
export function sitePath(relative: string): string {
  return `${basePath()}${relative.replace(/^\/+/, '')}`;
}

export interface ListingScope {
  facet: FacetName;
  value: FacetValue;
}

export function listingPath(scope: ListingScope | undefined, sort: SortKey, page: number): string {
  const first = scope ? facetPath(scope.facet, scope.value) : sitePath('');
  if (sort === 'name' && page === 1) return first;
  return scope ? `${first}${sort}/${page}/` : sitePath(`browse/${sort}/${page}/`);
}

export function facetPath(facet: FacetName, value?: FacetValue): string {
  return sitePath(value ? `${facet}/${encodeURIComponent(value.slug)}/` : `${facet}/`);
}

export function skillPath(name: string): string {
  return sitePath(`skills/${encodeURIComponent(name)}/`);
}

/**
 * The `skillLinks` render option (markdown.ts) of a skill whose documents link into the folders of
 * `targets`: each folder, from the registry root, to that skill's page.
 */
export function skillLinksFrom(from: string, targets: readonly { name: string; sourcePath: string }[]): { from: string; skills: Record<string, string> } {
  return { from, skills: Object.fromEntries(targets.map((t) => [t.sourcePath, skillPath(t.name)])) };
}

/**
 * The page a skill's Markdown file is rendered on: `references/guide.md` →
 * `/skills/<name>/docs/references/guide/`. SKILL.md is the skill's own page.
 */
export function markdownPagePath(name: string, file: string): string {
  return skillDocPath(skillPath(name), file);
}


export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_SIZE));
}

/** A facet value's names by most recently updated, computed once rather than for each of its pages. */
const updatedOrder = new WeakMap<FacetValue, string[]>();

/** Names in a listing, in order. */
export function listingNames(catalog: Catalog, scope: ListingScope | undefined, sort: SortKey): string[] {
  if (!scope) return catalog.sorted[sort];
  if (sort === 'name') return scope.value.names;
  let names = updatedOrder.get(scope.value);
  if (!names) {
    const members = new Set(scope.value.names);
    names = catalog.sorted.updated.filter((n) => members.has(n));
    updatedOrder.set(scope.value, names);
  }
  return names;
}

export interface ListingPage {
  scope?: ListingScope;
  sort: SortKey;
  page: number;
  pages: number;
  total: number;
  entries: CatalogEntry[];
}

export function listingPage(catalog: Catalog, scope: ListingScope | undefined, sort: SortKey, page: number): ListingPage {
  const names = listingNames(catalog, scope, sort);
  const start = (page - 1) * PAGE_SIZE;
  return {
    scope,
    sort,
    page,
    pages: pageCount(names.length),
    total: names.length,
    entries: names.slice(start, start + PAGE_SIZE).map((n) => catalog.byName.get(n)!),
  };
}

/** `[sort, page]` pairs a listing of `total` skills needs, minus the bare base URL (name, page 1). */
export function extraListingPages(total: number): Array<{ sort: SortKey; page: number }> {
  const result: Array<{ sort: SortKey; page: number }> = [];
  for (const sort of SORTS) {
    for (let page = 1; page <= pageCount(total); page++) {
      if (sort === 'name' && page === 1) continue;
      result.push({ sort, page });
    }
  }
  return result;
}

/**
 * A link made by `sitePath` (or a route above) as an absolute URL when the registry knows where it
 * is deployed; as the link itself otherwise. The link already holds the base path, so it is
 * resolved against the origin only.
 */
export function absoluteUrl(siteUrl: string | undefined, link: string): string {
  return siteUrl ? new URL(link, siteUrl).href : link;
}
