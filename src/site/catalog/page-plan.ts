/**
 * Which pages this build generates and which it keeps as the last build wrote them, decided by the
 * page routes as they list their paths (./kept-pages.ts explains what lets a page be kept):
 * - a skill's pages, from the digest of its manifest, the registry's keys, its facet slugs and
 *   the skills it links to;
 * - a listing page (all skills or one facet value, any sort and page), from everything it shows:
 *   its cards, its counts and pagination, and the facet sidebar.
 * The home page and the facet indexes are few, and always generated.
 */
import { FACETS, facetValuesOf, loadCatalog, registryTrust, type Catalog, type CatalogEntry } from './catalog.ts';
import { unchanged } from '../../core-node/file-stamp.ts';
import { keptPagesSlot, pageFileOf, pageKey } from './kept-pages.ts';
import { listingPage, listingPath, type ListingScope, type SortKey } from './routes.ts';
import { BASE_PATH } from './site-config.ts';

const NOTHING_KEPT: ReadonlySet<string> = new Set();

/** The URL slug of each of an entry's facet values, facet by facet. */
const facetSlugs = (catalog: Catalog, entry: CatalogEntry) => FACETS.map((facet) => facetValuesOf(entry, facet).map((value) => catalog.facetIndex[facet].get(value)?.slug));

/** What a skill's pages are made of besides the code, the settings and the skills they link to. */
function skillPageFacts(entry: CatalogEntry): unknown {
  return [entry.manifestDigest, registryTrust(), facetSlugs(loadCatalog(), entry)];
}

/**
 * The skills whose pages the last build into this folder wrote from the same inputs and which
 * are still there as written: the skill routes leave them out of their paths.
 */
export function keptSkillPages(): ReadonlySet<string> {
  const slot = keptPagesSlot();
  if (!slot) return NOTHING_KEPT;
  if (slot.kept) return slot.kept;
  const { entries, byName } = loadCatalog();
  const inRegistry = (name: string) => byName.has(name);
  const kept = new Set<string>();
  for (const entry of entries) {
    const last = slot.previous.get(entry.name);
    // A record is this skill's only if its page is among its files and every file lies in its folder.
    const own = `skills/${entry.name}/`;
    const owned = last?.files.some(([rel]) => rel === `${own}index.html`) && last.files.every(([rel]) => rel.startsWith(own));
    if (last && owned && last.key === pageKey(slot.codeKey, skillPageFacts(entry), last.links, inRegistry) && last.files.every((file) => unchanged(slot.outDir, file))) kept.add(entry.name);
  }
  slot.kept = kept;
  return kept;
}

/** Records, for the next build, the inputs of a skill's pages as this build generates them: the skills they link to and their paths. */
export function noteSkillPages(entry: CatalogEntry, links: readonly string[], pagePaths: readonly string[]): void {
  const slot = keptPagesSlot();
  if (!slot) return;
  const { byName } = loadCatalog();
  const files = pagePaths.map((p) => pageFileOf(p, BASE_PATH));
  if (files.some((f) => f === undefined)) return;
  const sortedLinks = [...new Set(links)].sort();
  slot.rendered.set(entry.name, { key: pageKey(slot.codeKey, skillPageFacts(entry), sortedLinks, (name) => byName.has(name)), links: sortedLinks, files: files as string[] });
}

/** What every listing page shows of the whole catalog: each facet's sidebar values with their counts, and how many values it has. */
let sidebarFacts: unknown;

/**
 * Whether the listing page of `scope` (all skills when undefined), `sort` and `page` is kept as
 * the last build wrote it. One that is not is recorded with its key, for the next build.
 */
export function listingPageKept(scope: ListingScope | undefined, sort: SortKey, page: number): boolean {
  const slot = keptPagesSlot();
  const file = slot && pageFileOf(listingPath(scope, sort, page), BASE_PATH);
  if (!slot || !file) return false;
  const catalog = loadCatalog();
  sidebarFacts ??= FACETS.map((facet) => [catalog.sidebar[facet].map((v) => [v.value, v.slug, v.names.length]), catalog.facets[facet].length]);
  const listing = listingPage(catalog, scope, sort, page);
  // A card shows every field of its entry but the manifest's digest (an edit to a skill's
  // documentation changes that alone), and links its facet values by slug.
  const cards = listing.entries.map((entry) => [{ ...entry, manifestDigest: undefined }, facetSlugs(catalog, entry)]);
  const facts = [scope ? [scope.facet, scope.value.value, scope.value.slug] : null, sort, page, listing.pages, listing.total, cards, sidebarFacts];
  const key = pageKey(slot.codeKey, facts, [], () => true);
  const last = slot.previousListings.get(file);
  if (last?.key === key && unchanged(slot.outDir, last.file)) {
    slot.keptListings.add(file);
    return true;
  }
  slot.renderedListings.set(file, key);
  return false;
}
