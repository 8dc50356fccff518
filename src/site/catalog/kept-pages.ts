/**
 * Pages a rebuild leaves as the last build wrote them.
 *
 * A page is a function of the page code and the build's settings (together the `codeKey`, from
 * the site integration) and of the data it shows. A skill's pages (`skills/<name>/` and its
 * Markdown files' pages under `skills/<name>/docs/`) show the skill's manifest (pinned by its
 * digest in index.json), the registry's keys, the URL slugs of the skill's facet values, and
 * links to other skills, which depend on whether each is in the registry; a listing page shows
 * its cards, counts and the facet sidebar (./page-plan.ts decides both). When all of those are
 * what they were for the last build into the same folder, and the page files are still there as
 * they were written (size, mtime, inode), the pages are not generated again: after one skill
 * changed, Astro assembles that skill's pages and the few listings it appears on.
 *
 * The integration and the pages are separate module instances (Astro bundles the pages), so what
 * the last build recorded, and what this one keeps and renders, pass through a global slot under a
 * registered symbol, as the render pool does (src/site/render/skill-documents.ts). Without a slot
 * (a page rendered outside the integration's build) nothing is kept.
 */
import { createHash } from 'node:crypto';
import type { FileStamp } from '../../core/schemas/file-stamp.ts';

/** What the last build recorded of one skill's pages. */
export interface SkillPagesRecord {
  key: string;
  /** The skills its page links to, by name: whether each is still in the registry is part of the key. */
  links: string[];
  files: FileStamp[];
}

/** What the last build recorded of one listing page. */
export interface ListingPageRecord {
  key: string;
  file: FileStamp;
}

export interface KeptPagesSlot {
  codeKey: string;
  outDir: string;
  /** The last build's records, by skill name (empty when its code, settings or folder differ). */
  previous: ReadonlyMap<string, SkillPagesRecord>;
  /** The last build's listing pages, by page file. */
  previousListings: ReadonlyMap<string, ListingPageRecord>;
  /** The skills whose pages are kept, decided once, when the first skill route lists its paths. */
  kept?: ReadonlySet<string>;
  /** The skills whose pages this build generates: their key, links and page files (relative paths). */
  rendered: Map<string, { key: string; links: string[]; files: string[] }>;
  /** Listing page files kept. */
  keptListings: Set<string>;
  /** Listing page files this build generates, with their keys. */
  renderedListings: Map<string, string>;
}

const SLOT = Symbol.for('skilldex.site.keptPages');
type Slot = { [SLOT]?: KeptPagesSlot };

/** Called by the integration around Astro's page generation. */
export function provideKeptPages(slot: KeptPagesSlot | undefined): void {
  (globalThis as Slot)[SLOT] = slot;
}

export function keptPagesSlot(): KeptPagesSlot | undefined {
  return (globalThis as Slot)[SLOT];
}

/** The key of a page (or a skill's pages): `facts` is the data it shows, `links` the skills it links to. */
export function pageKey(codeKey: string, facts: unknown, links: readonly string[], inRegistry: (name: string) => boolean): string {
  return createHash('sha256')
    .update(JSON.stringify([codeKey, facts, links.map((name) => [name, inRegistry(name)])]))
    .digest('hex');
}

/**
 * The page file a route path is written to (`/repo/skills/a/docs/x/` → `skills/a/docs/x/index.html`),
 * given the site's base path; undefined for a path outside it.
 */
export function pageFileOf(urlPath: string, base: string): string | undefined {
  if (!urlPath.startsWith(base)) return undefined;
  try {
    return `${decodeURIComponent(urlPath.slice(base.length))}index.html`;
  } catch {
    return undefined;
  }
}
