/**
 * The record of the skill and listing pages a build wrote, kept in Astro's cache folder for the
 * next build into the same folder (src/site/catalog/kept-pages.ts says what lets a page be kept).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { moduleExtension } from '../../core/module-file.ts';
import { writeFileAtomically } from '../../core-node/write-atomically.ts';
import { FileStamp } from '../../core/schemas/file-stamp.ts';
import { stampAt } from '../../core-node/file-stamp.ts';
import type { KeptPagesSlot, ListingPageRecord, SkillPagesRecord } from '../catalog/kept-pages.ts';
import { computeFingerprint } from '../render/fingerprint.ts';
import type { SiteBuildConfig } from './config.ts';

const FORMAT = 1;

const PageRecordFile = z.object({
  format: z.literal(FORMAT),
  codeKey: z.string(),
  outDir: z.string(),
  skills: z.record(z.string(), z.object({ key: z.string(), links: z.array(z.string()), files: z.array(FileStamp) })),
  listings: z.array(z.object({ key: z.string(), file: FileStamp })),
});

/**
 * What every kept page is a function of besides its data: the source of the page routes and
 * of everything they import (components, layout, catalog, renderer), the packages those import
 * (Astro among them) and the Node version (../render/fingerprint.ts follows the imports), the
 * project's docs/ folder (pages link its pages by title), the build's settings, and Astro's own
 * config file in `astroRoot` (`compressHTML`, `build.format` and the like shape every page).
 */
export function pagesCodeKey(config: SiteBuildConfig, astroRoot: string): string {
  const ext = moduleExtension(import.meta.url);
  const routes = ['skills/[name].astro', 'skills/[name]/docs/[...path].astro', 'browse/[sort]/[page].astro', '[facet]/[value]/[...rest].astro'];
  const entries = [...routes.map((route) => `../pages/${route}`), `./index${ext}`].map((p) => new URL(p, import.meta.url));
  const hash = createHash('sha256').update(JSON.stringify([FORMAT, { ...config, renderCacheDir: undefined }]));
  for (const entry of entries) hash.update(computeFingerprint(entry));
  for (const name of listFiles(config.docsDir)) hash.update(`${name}\0`).update(readFileSync(path.join(config.docsDir, name))).update('\0');
  for (const name of listFiles(astroRoot, false).filter((f) => /^astro\.config\.[cm]?[jt]s$/.test(f))) hash.update(`${name}\0`).update(readFileSync(path.join(astroRoot, name))).update('\0');
  return hash.digest('hex');
}

/** Files under `dir` (or in it alone), relative and `/`-separated, in byte order (none when it does not exist). */
export function listFiles(dir: string, recursive = true): string[] {
  try {
    return readdirSync(dir, { recursive, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch {
    return [];
  }
}

/** The slot the page routes read and fill (see kept-pages.ts), with the last build's records when they apply here. */
export function openPageRecord(file: string, codeKey: string, outDir: string): KeptPagesSlot {
  let previous = new Map<string, SkillPagesRecord>();
  let previousListings = new Map<string, ListingPageRecord>();
  try {
    const last = PageRecordFile.safeParse(JSON.parse(readFileSync(file, 'utf8'))).data;
    if (last && last.codeKey === codeKey && last.outDir === outDir) {
      previous = new Map(Object.entries(last.skills));
      previousListings = new Map(last.listings.map((l) => [l.file[0], l]));
    }
  } catch {
    // No record yet, or unreadable: every page is generated.
  }
  return { codeKey, outDir, previous, previousListings, rendered: new Map(), keptListings: new Set(), renderedListings: new Map() };
}

/**
 * Writes the record of this build's skill pages: those kept as they were, and those generated, with
 * each page file's stat facts now. A skill one of whose pages is not there is left out (generated next time).
 */
export function savePageRecord(file: string, slot: KeptPagesSlot): void {
  const skills: Record<string, SkillPagesRecord> = {};
  for (const name of slot.kept ?? []) {
    const last = slot.previous.get(name);
    if (last) skills[name] = last;
  }
  for (const [name, { key, links, files }] of slot.rendered) {
    const stamped = files.map((rel) => stampAt(slot.outDir, rel));
    if (stamped.every((f) => f !== undefined)) skills[name] = { key, links, files: stamped };
  }
  const listings: ListingPageRecord[] = [];
  for (const rel of slot.keptListings) {
    const last = slot.previousListings.get(rel);
    if (last) listings.push(last);
  }
  for (const [rel, key] of slot.renderedListings) {
    const stamped = stampAt(slot.outDir, rel);
    if (stamped) listings.push({ key, file: stamped });
  }
  const text = JSON.stringify({ format: FORMAT, codeKey: slot.codeKey, outDir: slot.outDir, skills, listings });
  try {
    writeFileAtomically(file, text);
  } catch {
    // Not writable: the next build generates every page.
  }
}

/** The page files kept, relative to the output folder: written, as far as a sweep of stale files is concerned. */
export function keptPageFiles(slot: KeptPagesSlot): Set<string> {
  const files = new Set<string>(slot.keptListings);
  for (const name of slot.kept ?? []) for (const [rel] of slot.previous.get(name)?.files ?? []) files.add(rel);
  return files;
}
