import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SkillManifest } from '../../core/schemas/manifest.ts';
import type { IndexEntry, RegistryIndex } from '../../core/schemas/registry-index.ts';
import { fillName } from '../../core/url-template.ts';
import { readDocPages, type DocPage } from './docs.ts';
import { docsDir, registryDir } from './site-config.ts';
import { detectLang, slugify, truncate, type PageLang } from './text.ts';

export { siteConfig } from './site-config.ts';

/**
 * Build-time access to the registry buildRegistry wrote (its folder comes from ./site-config.ts).
 *
 * Pages read the registry from disk instead of `import`ing it: an imported JSON file becomes part
 * of the bundle and of every page module's memory (measured: 750 MB against 320 MB at 10k
 * skills). `index.json` is read once and reduced to the few fields a card needs; each skill page
 * reads its own manifest and lets it go.
 */

/** What a catalog card, a facet page or a feed entry needs of a skill. */
export interface CatalogEntry {
  name: string;
  title: string;
  /** Shortened for cards; the skill page shows the full text from the manifest. */
  summary: string;
  version: string;
  format: IndexEntry['format'];
  mode: IndexEntry['mode'];
  type?: string;
  category?: string;
  tags: string[];
  author?: string;
  /** Absent when the build knew no time for the skill. */
  lastModified?: string;
  verdict?: string;
  lang: PageLang;
  /** Where its page and manifest are, relative to the registry root (from index.json's templates). */
  urls: { page: string; manifest: string };
  /** The digest index.json pins the manifest by; a signed index thereby covers the manifest. */
  manifestDigest: string;
}

export type FacetName = 'category' | 'tag' | 'format' | 'mode';
export const FACETS: readonly FacetName[] = ['category', 'tag', 'format', 'mode'];
export const FACET_LABELS: Record<FacetName, { one: string; many: string }> = {
  category: { one: 'Category', many: 'Categories' },
  tag: { one: 'Tag', many: 'Tags' },
  format: { one: 'Format', many: 'Formats' },
  mode: { one: 'Mode', many: 'Modes' },
};

/** Values per facet in the listing sidebar; /<facet>/ lists them all. */
const SIDEBAR_LIMIT: Record<FacetName, number> = { category: 30, tag: 20, format: 10, mode: 10 };

export interface FacetValue {
  facet: FacetName;
  value: string;
  slug: string;
  /** Skills with this value, sorted by name. */
  names: string[];
}

export interface Catalog {
  registryTitle: string;
  entries: CatalogEntry[];
  byName: Map<string, CatalogEntry>;
  /** Names sorted by name, and by most recently updated. */
  sorted: { name: string[]; updated: string[] };
  facets: Record<FacetName, FacetValue[]>;
  /** facet → value → FacetValue, for links from cards and skill pages. */
  facetIndex: Record<FacetName, Map<string, FacetValue>>;
  /** facet → URL slug → FacetValue, for the facet pages' params. */
  facetBySlug: Record<FacetName, Map<string, FacetValue>>;
  /**
   * What the sidebar of every listing page shows per facet, computed once rather than per page:
   * all values (alphabetical) when there are few, else the most used ones.
   */
  sidebar: Record<FacetName, FacetValue[]>;
  /** Newest `lastModified` in the registry: the feed's and sitemap's clock, never the build time; absent when unknown. */
  updatedAt?: string;
}

let catalog: Catalog | undefined;

export function loadCatalog(): Catalog {
  if (catalog) return catalog;
  const file = path.join(registryDir(), 'index.json');
  const index = JSON.parse(readFileSync(file, 'utf8')) as RegistryIndex;
  const entries: CatalogEntry[] = index.skills.map((s) => ({
    name: s.name,
    title: s.title,
    summary: truncate(s.description, 180),
    version: s.version,
    format: s.format,
    mode: s.mode,
    type: s.type,
    category: s.category,
    tags: [...new Set(s.tags)],
    author: s.author,
    lastModified: s.lastModified,
    verdict: s.verdict,
    lang: detectLang(`${s.title}\n${s.description}`),
    urls: { page: fillName(index.urls.page, s.name), manifest: fillName(index.urls.manifest, s.name) },
    manifestDigest: s.manifestDigest,
  }));
  const byName = new Map(entries.map((e) => [e.name, e]));
  const byNameOrder = [...entries].sort((a, b) => compareText(a.title, b.title) || compareText(a.name, b.name));
  const byUpdated = [...entries].sort((a, b) => compareText(b.lastModified ?? '', a.lastModified ?? '') || compareText(a.name, b.name));
  const facets = {} as Record<FacetName, FacetValue[]>;
  const facetIndex = {} as Record<FacetName, Map<string, FacetValue>>;
  for (const facet of FACETS) {
    const values = new Map<string, FacetValue>();
    for (const entry of byNameOrder) {
      for (const value of facetValuesOf(entry, facet)) {
        let fv = values.get(value);
        if (!fv) values.set(value, (fv = { facet, value, slug: '', names: [] }));
        fv.names.push(entry.name);
      }
    }
    const list = [...values.values()].sort((a, b) => compareText(a.value, b.value));
    assignSlugs(list);
    facets[facet] = list;
    facetIndex[facet] = values;
  }
  const updatedAt = byUpdated[0]?.lastModified ?? index.updatedAt;
  const sidebar = {} as Record<FacetName, FacetValue[]>;
  for (const facet of FACETS) {
    const limit = SIDEBAR_LIMIT[facet];
    const values = facets[facet];
    sidebar[facet] = values.length <= limit ? values : [...values].sort((a, b) => b.names.length - a.names.length || compareText(a.value, b.value)).slice(0, limit);
  }
  catalog = {
    registryTitle: index.registry.title,
    entries,
    byName,
    sorted: { name: byNameOrder.map((e) => e.name), updated: byUpdated.map((e) => e.name) },
    facets,
    facetIndex,
    facetBySlug: Object.fromEntries(FACETS.map((f) => [f, new Map(facets[f].map((v) => [v.slug, v]))])) as Record<FacetName, Map<string, FacetValue>>,
    sidebar,
    updatedAt,
  };
  return catalog;
}

export function facetValuesOf(entry: CatalogEntry, facet: FacetName): string[] {
  switch (facet) {
    case 'category':
      return entry.category ? [entry.category] : [];
    case 'tag':
      return entry.tags;
    case 'format':
      return [entry.format];
    case 'mode':
      return [entry.mode];
  }
}

/**
 * Two values that slug alike (`Code Review`, `code-review`) get distinct, stable URLs. A value may
 * itself look like another's suffixed slug (a tag `x-3e16f53f` beside `x` and `x_`), so every value
 * whose plain slug is free takes it first, and a suffix grows until it is free: two values never
 * share a page.
 */
function assignSlugs(values: FacetValue[]): void {
  const taken = new Set<string>();
  const clashing: FacetValue[] = [];
  for (const fv of values) {
    const slug = slugify(fv.value);
    if (taken.has(slug)) clashing.push(fv);
    else taken.add((fv.slug = slug));
  }
  for (const fv of clashing) {
    const base = slugify(fv.value);
    const hash = createHash('sha256').update(fv.value).digest('hex');
    let slug = `${base}-${hash.slice(0, 8)}`;
    for (let length = 16; taken.has(slug) && length <= hash.length; length += 8) slug = `${base}-${hash.slice(0, length)}`;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${hash}-${n}`;
    taken.add((fv.slug = slug));
  }
}

/** Byte-order comparison: locale-independent, so output is identical on every machine. */
function compareText(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  return la < lb ? -1 : la > lb ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The last manifests read, for the pages of one skill that follow each other (its page, each of
 * its Markdown files' pages): a few, so memory stays flat however many skills there are.
 */
const recentManifests = new Map<string, SkillManifest>();
const RECENT_MANIFESTS = 32;

/** Reads one skill's manifest from the staged registry. Pages only read it: it may be shared. */
export function loadManifest(entry: CatalogEntry): SkillManifest {
  let manifest = recentManifests.get(entry.urls.manifest);
  if (manifest) return manifest;
  manifest = JSON.parse(readFileSync(path.join(registryDir(), entry.urls.manifest), 'utf8')) as SkillManifest;
  recentManifests.set(entry.urls.manifest, manifest);
  if (recentManifests.size > RECENT_MANIFESTS) recentManifests.delete(recentManifests.keys().next().value!);
  return manifest;
}

let linkTargets: Map<string, { name: string; sourcePath: string }[]> | undefined;

/**
 * The skills whose documents a skill links to (`[semver-tool](../semver-tool/SKILL.md)`), with
 * their folders: the other side of each manifest's `usedBy` links, as the build resolved them.
 * Every manifest is read for it once, when a page first asks (only pages whose documents climb
 * out of their folder do).
 */
export function skillsLinkedFrom(name: string): readonly { name: string; sourcePath: string }[] {
  if (!linkTargets) {
    linkTargets = new Map();
    for (const entry of loadCatalog().entries) {
      const target = loadManifest(entry);
      for (const user of target.usedBy ?? []) {
        if (!user.kinds.includes('link')) continue;
        const list = linkTargets.get(user.name) ?? [];
        list.push({ name: target.name, sourcePath: target.sourcePath });
        linkTargets.set(user.name, list);
      }
    }
  }
  return linkTargets.get(name) ?? [];
}

/** A skill's Markdown files are rendered up to this size; a larger one keeps only its raw file. */
export const MAX_RENDERED_MARKDOWN = 512 * 1024;

/** The text of one of a skill's published files, or undefined when it is missing or too large to render. */
export function readSkillText(manifest: Pick<SkillManifest, 'urls' | 'files'>, file: string): string | undefined {
  const listed = manifest.files.find((f) => f.path === file);
  if (!listed || listed.size > MAX_RENDERED_MARKDOWN) return undefined;
  const abs = path.join(registryDir(), manifest.urls.files, file);
  return existsSync(abs) ? readFileSync(abs, 'utf8') : undefined;
}

/** A skill's Markdown files that get a rendered page (skills/[name]/docs/): all but SKILL.md, if small enough. */
export function markdownPageFiles(manifest: Pick<SkillManifest, 'urls' | 'files'>): string[] {
  return manifest.files.filter((f) => /\.md$/i.test(f.path) && f.path !== 'SKILL.md' && f.size <= MAX_RENDERED_MARKDOWN).map((f) => f.path);
}

/** sha256 of the published archive's bytes, so a reader can check the download itself. */
export function archiveDigest(manifest: Pick<SkillManifest, 'urls'>): string | undefined {
  const file = path.join(registryDir(), manifest.urls.archive);
  if (!existsSync(file)) return undefined;
  return `sha256:${createHash('sha256').update(readFileSync(file)).digest('hex')}`;
}

/** Whether the registry is signed (index.jws.json), and the keys its keys.json publishes. */
export interface RegistryTrust {
  signed: boolean;
  keys: { kid: string; publicKey: string; status: string; note?: string }[];
}

let trust: RegistryTrust | undefined;

export function registryTrust(): RegistryTrust {
  if (trust) return trust;
  const keysFile = path.join(registryDir(), 'keys.json');
  const keys = existsSync(keysFile) ? ((JSON.parse(readFileSync(keysFile, 'utf8')) as { keys?: RegistryTrust['keys'] }).keys ?? []) : [];
  trust = { signed: existsSync(path.join(registryDir(), 'index.jws.json')), keys };
  return trust;
}

/** docs/security.md of the Skilldex checkout (the scanner's rule reference), when present. */
export function securityDoc(): string | undefined {
  const file = path.join(docsDir(), 'security.md');
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

let docs: DocPage[] | undefined;

/** The pages of the project's docs/ folder, read once per build. */
export function docPages(): DocPage[] {
  docs ??= readDocPages(docsDir());
  return docs;
}
