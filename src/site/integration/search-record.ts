/**
 * The search index a build wrote, recorded in Astro's cache folder beside the page record
 * (./page-record.ts), so that a rebuild whose skill pages are all as the last build left them keeps
 * the index instead of building it again.
 *
 * Pagefind takes only the skill pages (`skills/<name>/index.html`, ./pagefind.ts) and has no
 * incremental mode: at 10,000 skills it spent ~16 s reading every page again and writing an index
 * identical to the one already there. Its output is a function of those pages' bytes, of its own
 * version and of how the integration calls it; the key below covers each skill page by its stat
 * facts (size, mtime, inode: what keeping a page trusts already, ../catalog/kept-pages.ts) and the
 * rest through the page record's code key, which fingerprints the integration's modules and the
 * packages they import, Pagefind among them. The index is kept only when the key is the one
 * recorded and every file the last indexing wrote is still there as written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomically } from '../../core-node/write-atomically.ts';
import { stampAt, unchanged } from '../../core-node/file-stamp.ts';
import { listFiles } from './page-record.ts';
import { FileStamp } from '../../core/schemas/file-stamp.ts';

const FORMAT = 1;

/** Where Pagefind writes its bundle, inside the output folder. */
export const SEARCH_FOLDER = 'pagefind';

const SearchRecordFile = z.object({
  format: z.literal(FORMAT),
  key: z.string(),
  pages: z.number().int().nonnegative(),
  files: z.array(FileStamp),
});

/**
 * What the search index of the site in `outDir` is made from: the code key (./page-record.ts),
 * the folder, and each skill page Pagefind would take, with its stat facts, in byte order.
 */
export function searchInputKey(codeKey: string, outDir: string): string {
  const hash = createHash('sha256').update(`${FORMAT}\0${codeKey}\0${outDir}\n`);
  let names: string[];
  try {
    names = readdirSync(path.join(outDir, 'skills'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch {
    names = [];
  }
  for (const name of names) {
    const stamp = stampAt(outDir, `skills/${name}/index.html`);
    if (stamp) hash.update(`${JSON.stringify(stamp)}\n`);
  }
  return hash.digest('hex');
}

/**
 * The search index the last build recorded in `file`, when it was made from the same input (`key`)
 * and every file of it is still in `outDir` as written: how many pages it holds and its files
 * (relative to `outDir`). Undefined otherwise: the index is built again.
 */
export function keptSearchIndex(file: string, key: string, outDir: string): { pages: number; files: string[] } | undefined {
  let last;
  try {
    last = SearchRecordFile.safeParse(JSON.parse(readFileSync(file, 'utf8'))).data;
  } catch {
    return undefined; // No record yet, or unreadable.
  }
  if (!last || last.key !== key || last.files.length === 0 || !last.files.every((f) => f[0].startsWith(`${SEARCH_FOLDER}/`) && unchanged(outDir, f))) return undefined;
  return { pages: last.pages, files: last.files.map(([rel]) => rel) };
}

/** Records the search index just written into `outDir` (every file under its folder, with its stat facts). */
export function saveSearchRecord(file: string, key: string, outDir: string, pages: number): void {
  const files = listFiles(path.join(outDir, SEARCH_FOLDER))
    .map((rel) => stampAt(outDir, `${SEARCH_FOLDER}/${rel}`))
    .filter((stamp) => stamp !== undefined);
  try {
    writeFileAtomically(file, JSON.stringify({ format: FORMAT, key, pages, files }));
  } catch {
    // Not writable: the next build indexes the pages again.
  }
}
