/**
 * The record of the skill pages a build wrote, kept in Astro's cache folder for the next build
 * into the same folder (src/site/catalog/kept-pages.ts says what lets a page be kept).
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { moduleExtension } from '../../core/module-file.ts';
import { writeFileAtomically } from '../../core-node/write-atomically.ts';
import type { KeptPagesSlot, PageFile, SkillPagesRecord } from '../catalog/kept-pages.ts';
import { computeFingerprint } from '../render/fingerprint.ts';
import type { SiteBuildConfig } from './config.ts';

const FORMAT = 1;

/** A path inside the output folder, never out of it. */
const RelativeFile = z.string().refine((p) => p.length > 0 && !p.startsWith('/') && !p.split('/').includes('..'));

const PageRecordFile = z.object({
  format: z.literal(FORMAT),
  codeKey: z.string(),
  outDir: z.string(),
  skills: z.record(
    z.string(),
    z.object({ key: z.string(), links: z.array(z.string()), files: z.array(z.tuple([RelativeFile, z.number(), z.number(), z.number()])) }),
  ),
});

/**
 * What every skill page is a function of besides the skill: the source of the page routes and
 * of everything they import (components, layout, catalog, renderer), the packages those import
 * (Astro among them) and the Node version (./render/fingerprint.ts follows the imports), the
 * project's docs/ folder (pages link its pages by title), and the build's settings.
 */
export function pagesCodeKey(config: SiteBuildConfig): string {
  const ext = moduleExtension(import.meta.url);
  const entries = ['../pages/skills/[name].astro', '../pages/skills/[name]/docs/[...path].astro', `./index${ext}`].map((p) => new URL(p, import.meta.url));
  const hash = createHash('sha256').update(JSON.stringify([FORMAT, { ...config, renderCacheDir: undefined }]));
  for (const entry of entries) hash.update(computeFingerprint(entry));
  for (const name of listFiles(config.docsDir)) hash.update(`${name}\0`).update(readFileSync(path.join(config.docsDir, name))).update('\0');
  return hash.digest('hex');
}

/** Files under `dir`, relative, in byte order (none when it does not exist). */
function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch {
    return [];
  }
}

/** The slot the page routes read and fill (see kept-pages.ts), with the last build's records when they apply here. */
export function openPageRecord(file: string, codeKey: string, outDir: string): KeptPagesSlot {
  let previous = new Map<string, SkillPagesRecord>();
  try {
    const last = PageRecordFile.safeParse(JSON.parse(readFileSync(file, 'utf8'))).data;
    if (last && last.codeKey === codeKey && last.outDir === outDir) previous = new Map(Object.entries(last.skills));
  } catch {
    // No record yet, or unreadable: every page is generated.
  }
  return { codeKey, outDir, previous, rendered: new Map() };
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
    const stamped: PageFile[] = [];
    for (const rel of files) {
      try {
        const info = lstatSync(path.join(slot.outDir, rel));
        stamped.push([rel, info.size, info.mtimeMs, info.ino]);
      } catch {
        break;
      }
    }
    if (stamped.length === files.length) skills[name] = { key, links, files: stamped };
  }
  const text = JSON.stringify({ format: FORMAT, codeKey: slot.codeKey, outDir: slot.outDir, skills });
  try {
    writeFileAtomically(file, text);
  } catch {
    // Not writable: the next build generates every page.
  }
}

/** The page files of the skills kept, relative to the output folder: written, as far as a sweep of stale files is concerned. */
export function keptPageFiles(slot: KeptPagesSlot): Set<string> {
  const files = new Set<string>();
  for (const name of slot.kept ?? []) for (const [rel] of slot.previous.get(name)?.files ?? []) files.add(rel);
  return files;
}
