/**
 * The last build's record: what lets `skilldex build` answer at once when nothing changed.
 *
 * The build cache (./cache.ts) already makes such a build write nothing, but answering through
 * it means loading the whole pipeline, parsing the cache and starting git: at 1,000 skills most
 * of a no-op's 0.25 s. This record is kept beside the cache and read before any of that. It holds
 * one key over everything the output depends on, the stamps of the files that prove the output
 * folder still holds what that build wrote, and what the build reported. When the key and the
 * stamps are all as recorded, the build's answer is the recorded one; any doubt, and the build
 * runs as before. This module loads nothing but Node's own modules, so the check costs a walk of
 * the skills folder (one `lstat` per entry) and no more.
 *
 * What the key covers, and why it is enough:
 * - every folder and file below the skills folder that discovery and reading can see (all but dot
 *   entries and node_modules), by size, mtime, ctime and inode, as the cache trusts a skill;
 * - the config file's bytes, the options (root, output folder, lenient, scan) and the variables
 *   the build reads (SOURCE_DATE_EPOCH, the signing key or its file's bytes);
 * - git's state as the build reads it: the commit HEAD names, and the files that change which
 *   commits a walk sees (./git-checkout.ts); where that cannot be read without git, no record;
 * - the build's own code (./code-fingerprint.ts).
 * A build records its key only when every entry it saw was last changed more than
 * {@link RACY_WINDOW_MS} before it looked: a change after that always moves the entry's ctime,
 * which nothing but the kernel sets, so an equal key means equal input.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ValidatorDiagnostic } from '../core/schemas/diagnostic.ts';
import { writeFileAtomically } from '../core-node/write-atomically.ts';
import { defaultCacheFile, RACY_WINDOW_MS } from './cache-file.ts';
import { codeFingerprint } from './code-fingerprint.ts';
import { gitHistoryState } from './git-checkout.ts';

/** Bump when the record's shape or what its key covers changes. */
const FORMAT = 1;

export const LAST_BUILD_FILE = 'last-build.json';

/** What a build reported, as `skilldex build` prints it. */
export interface BuildSummary {
  ok: boolean;
  /** Skills published. */
  published: number;
  diagnostics: ValidatorDiagnostic[];
  rejected: { dir: string; name?: string; errors: ValidatorDiagnostic[] }[];
  notDiscoverable: { name: string; reason: string }[];
}

/** What a build is asked to do, beside what it reads from the root. */
export interface BuildSettings {
  root: string;
  outDir: string;
  lenient: boolean;
  scan: boolean;
}

/** The key of a build's input, taken before the build reads anything. */
export interface BuildInputs {
  skillsDir: string;
  key: string;
  /** No entry changed within the racy window before the walk: the key may be recorded. */
  settled: boolean;
}

/** A file of the output folder, or of the cache, as it was: `[path, size, mtimeMs, ctimeMs, ino]`, or `[path]` for none. */
type FileProof = [string, number, number, number, number] | [string];

interface LastBuildRecord {
  format: number;
  skillsDir: string;
  key: string;
  proof: FileProof[];
  cache: FileProof;
  summary: BuildSummary;
}

const proofOf = (abs: string, rel: string): FileProof => {
  const info = lstatSync(abs, { throwIfNoEntry: false });
  return info ? [rel, info.size, info.mtimeMs, info.ctimeMs, info.ino] : [rel];
};
const sameProof = (a: FileProof, b: FileProof): boolean => a.length === b.length && a.every((v, i) => v === b[i]);

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** A file's bytes hashed, `null` when there is none; throws on any other failure to read it. */
function fileHash(path: string): string | null {
  try {
    return sha256(readFileSync(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Every entry below `base` that discovery and reading can see, hashed by kind, size, mtime,
 * ctime and inode, and the latest time any of them changed. Links are stamped, never followed:
 * a build reports them and reads nothing through them.
 */
function walkStamps(base: string): { digest: string; latestChange: number } {
  const hash = createHash('sha256');
  let latestChange = 0;
  const visit = (abs: string, rel: string): void => {
    const info = lstatSync(abs);
    const kind = info.isDirectory() ? 'd' : info.isFile() ? 'f' : info.isSymbolicLink() ? 'l' : 'o';
    hash.update(`${rel}\0${kind}\0${info.size}\0${info.mtimeMs}\0${info.ctimeMs}\0${info.ino}\n`);
    latestChange = Math.max(latestChange, info.mtimeMs, info.ctimeMs);
    if (kind !== 'd') return;
    for (const name of readdirSync(abs).sort()) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      visit(join(abs, name), rel ? `${rel}/${name}` : name);
    }
  };
  visit(base, '');
  return { digest: hash.digest('hex'), latestChange };
}

/**
 * The key of everything a build's output depends on (see the module comment), or undefined
 * when part of it cannot be told without running the build (git's state, an unreadable file).
 */
export function buildInputs(settings: BuildSettings, skillsDir: string): BuildInputs | undefined {
  const startedAt = Date.now();
  const git = gitHistoryState(settings.root);
  if (git === undefined) return undefined;
  try {
    const { SOURCE_DATE_EPOCH, SKILLDEX_SIGNING_KEY, SKILLDEX_SIGNING_KEY_FILE } = process.env;
    const tree = walkStamps(join(settings.root, skillsDir));
    const key = sha256(
      JSON.stringify([
        FORMAT,
        codeFingerprint(),
        settings.root,
        settings.outDir,
        settings.lenient,
        settings.scan,
        skillsDir,
        fileHash(join(settings.root, 'skilldex.config.json')),
        SOURCE_DATE_EPOCH ?? null,
        SKILLDEX_SIGNING_KEY === undefined ? null : sha256(SKILLDEX_SIGNING_KEY),
        SKILLDEX_SIGNING_KEY_FILE === undefined ? null : [SKILLDEX_SIGNING_KEY_FILE, fileHash(SKILLDEX_SIGNING_KEY_FILE)],
        git,
        tree.digest,
      ]),
    );
    return { skillsDir, key, settled: tree.latestChange < startedAt - RACY_WINDOW_MS };
  } catch {
    return undefined;
  }
}

/**
 * The record's file beside the build cache's, or none where the cache has no place (see
 * defaultCacheFile) or the root is no folder at all: the build will say what is wrong with it.
 */
const placeOf = (root: string): { file: string; cacheFile: string } | undefined => {
  try {
    const cacheFile = defaultCacheFile(root);
    return cacheFile === undefined ? undefined : { file: join(dirname(cacheFile), LAST_BUILD_FILE), cacheFile };
  } catch {
    return undefined;
  }
};

const isDiagnostic = (d: unknown): d is ValidatorDiagnostic => {
  const x = d as Record<string, unknown> | null;
  return typeof x === 'object' && x !== null && typeof x.file === 'string' && typeof x.rule === 'string' && typeof x.message === 'string' && typeof x.severity === 'string' && Number.isInteger(x.line);
};

/** The record at `file` when it has the shape this code writes; anything else is no record. */
function readRecord(file: string): LastBuildRecord | undefined {
  let record: LastBuildRecord;
  try {
    record = JSON.parse(readFileSync(file, 'utf8')) as LastBuildRecord;
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null) return undefined;
  const s = record.summary;
  const shaped =
    record.format === FORMAT &&
    typeof record.skillsDir === 'string' &&
    typeof record.key === 'string' &&
    Array.isArray(record.proof) &&
    Array.isArray(record.cache) &&
    typeof s === 'object' &&
    s !== null &&
    typeof s.ok === 'boolean' &&
    Number.isInteger(s.published) &&
    Array.isArray(s.diagnostics) &&
    s.diagnostics.every(isDiagnostic) &&
    Array.isArray(s.rejected) &&
    s.rejected.every((r) => typeof r?.dir === 'string' && Array.isArray(r.errors) && r.errors.every(isDiagnostic)) &&
    Array.isArray(s.notDiscoverable) &&
    s.notDiscoverable.every((n) => typeof n?.name === 'string' && typeof n.reason === 'string');
  return shaped ? record : undefined;
}

/**
 * What the last build reported, when nothing it depends on has changed since and the output
 * folder and the cache are still as it left them. Otherwise the key of the input as it is now,
 * to record after the build (taken now, before the build reads anything, so a file changed
 * meanwhile changes the next key), when the last record said which skills folder to walk.
 */
export function lastBuild(settings: BuildSettings): { summary: BuildSummary } | { inputs: BuildInputs | undefined } {
  const place = placeOf(settings.root);
  const record = place === undefined ? undefined : readRecord(place.file);
  if (!place || !record) return { inputs: undefined };
  const inputs = buildInputs(settings, record.skillsDir);
  if (inputs?.key !== record.key) return { inputs };
  const unchanged =
    sameProof(proofOf(place.cacheFile, 'cache'), record.cache) &&
    record.proof.every((p) => typeof p[0] === 'string' && !p[0].split('/').includes('..') && sameProof(proofOf(join(settings.outDir, p[0]), p[0]), p));
  return unchanged ? { summary: record.summary } : { inputs };
}

/**
 * Records a build that wrote (or kept) its output: the key taken before it ran, the stamps of
 * `proofFiles` in the output folder and of the cache, and its report. A build whose input was
 * still settling, or whose key could not be taken, removes the record instead: the next build
 * then runs in full.
 */
export function recordLastBuild(settings: BuildSettings, inputs: BuildInputs | undefined, proofFiles: readonly string[], summary: BuildSummary): void {
  const place = placeOf(settings.root);
  if (!place) return;
  try {
    if (!inputs?.settled) {
      rmSync(place.file, { force: true });
      return;
    }
    const record: LastBuildRecord = {
      format: FORMAT,
      skillsDir: inputs.skillsDir,
      key: inputs.key,
      proof: proofFiles.map((p) => proofOf(join(settings.outDir, p), p)),
      cache: proofOf(place.cacheFile, 'cache'),
      summary,
    };
    writeFileAtomically(place.file, `${JSON.stringify(record)}\n`);
  } catch {
    // Not writable: the next build runs in full.
  }
}
