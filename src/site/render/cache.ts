/**
 * Rendered skill documents on disk, one file per key (./document.ts) under
 * `<folder>/<first two hex digits>/<key>.json`: `{ format, key, sha256, html }`.
 *
 * The folder is untrusted input. An entry is used only when it parses, names its own key, its
 * HTML has the digest it records (a torn or damaged file is a miss) and passes the sanitiser's
 * check (./verify.ts: a tampered entry cannot put script on a page); anything else is a miss and
 * the document is rendered again, overwriting the entry. Entries are written atomically (a
 * temporary file renamed into place), so concurrent builds only ever lose hits.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { isRenderedHtml } from './verify.ts';
import { writeFileAtomically } from '../../core-node/write-atomically.ts';

const FORMAT = 1;
const KEY = /^[0-9a-f]{64}$/;

interface Entry {
  format: number;
  key: string;
  sha256: string;
  html: string;
}

export function entryFile(folder: string, key: string): string {
  return path.join(folder, key.slice(0, 2), `${key}.json`);
}

/** The HTML cached under `key`, or undefined when there is none that passes every check. */
export function readEntry(folder: string, key: string): string | undefined {
  let entry: Partial<Entry>;
  try {
    entry = JSON.parse(readFileSync(entryFile(folder, key), 'utf8')) as Partial<Entry>;
  } catch {
    return undefined;
  }
  if (!entry || entry.format !== FORMAT || entry.key !== key || typeof entry.html !== 'string') return undefined;
  if (entry.sha256 !== sha256(entry.html) || !isRenderedHtml(entry.html)) return undefined;
  return entry.html;
}

/** Stores `html` under `key`; a folder that cannot be written only costs the next build its hits. */
export function writeEntry(folder: string, key: string, html: string): void {
  const file = entryFile(folder, key);
  const entry: Entry = { format: FORMAT, key, sha256: sha256(html), html };
  try {
    writeFileAtomically(file, JSON.stringify(entry));
  } catch {
    // Read-only or full: the build goes on without caching.
  }
}

/**
 * Removes every entry but those in `keep` (the documents of the build that just finished), so the
 * folder holds one build's worth of renders however often skills change. Returns how many went.
 */
export function pruneEntries(folder: string, keep: ReadonlySet<string>): number {
  let removed = 0;
  let shards: string[];
  try {
    shards = readdirSync(folder);
  } catch {
    return 0;
  }
  for (const shard of shards) {
    let names: string[];
    try {
      names = readdirSync(path.join(folder, shard));
    } catch {
      continue;
    }
    for (const name of names) {
      const key = name.replace(/\.json$/, '');
      if (KEY.test(key) && keep.has(key)) continue;
      rmSync(path.join(folder, shard, name), { force: true, recursive: true });
      removed++;
    }
  }
  return removed;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
