/**
 * The last build's record: what lets `skilldex build` answer at once when nothing changed.
 *
 * The build cache (./cache.ts) already makes such a build write nothing, but answering through
 * it means loading the whole pipeline, parsing the cache and starting git: at 1,000 skills most
 * of a no-op's 0.25 s. This record is kept beside the cache and read before any of that. It holds
 * one key over everything the output depends on, the stamps of the files that prove the output
 * folder still holds what that build wrote, and what the build reported. When the key and the
 * stamps are all as recorded, the build's answer is the recorded one; any doubt, and the build
 * runs as before. This module loads nothing but Node's own modules and a few small ones of ours,
 * so the check costs a walk of the skills folder (one `lstat` per entry) and little more.
 *
 * What the key covers, and why it is enough:
 * - every folder and file below the skills folder that discovery and reading can see (all but dot
 *   entries and node_modules), and each folder on the way to it, by kind, size, mtime, ctime and
 *   inode, as the cache trusts a skill;
 * - the config file's bytes, the options (root, output folder, lenient, scan) and the variables
 *   the build reads (SOURCE_DATE_EPOCH, the signing key or its file's bytes; a key file that is
 *   not a regular file, a pipe, is left to the build alone);
 * - git's state as the build reads it: the commit HEAD names, and the files that change which
 *   commits a walk sees (./git-checkout.ts); where that cannot be read without git, or git could
 *   not read the history in full during the build, no record;
 * - the build's own code (./code-fingerprint.ts).
 * All of it but the walk is taken before the config is read, so what changes meanwhile changes the
 * next key. Files are keyed by their stamps too, the config and git's HEAD and refs as well as the
 * skills: one edited and put back while a build ran holds the same bytes, but the build may have
 * read the edit. A build records its key only when nothing it stamps changed within
 * {@link RACY_WINDOW_MS} before the key was taken: a change after that always moves the file's
 * ctime, which nothing but the kernel sets, so an equal key means equal input. That is also why
 * the walk may run beside the build (on a thread of its own, when it has to list every folder): a
 * change the walk sees after the build started leaves the build unrecorded, and one it does not
 * see moves the next build's key. The record sits in the repository being built, where a pull request could commit one:
 * it is read as untrusted (no link followed, a size cap, its skills folder one a config could
 * name), and its key, over inodes and ctimes of this checkout, cannot be forged ahead of time.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, rmSync, statSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { siblingModule } from '../core/module-file.ts';
import { isFolderBelowRoot } from '../core/paths.ts';
import type { ValidatorDiagnostic } from '../core/schemas/diagnostic.ts';
import { readOwnFile, readRegularFile } from '../core-node/read-own-file.ts';
import { createWorkerPool, PoolUnavailableError, type WorkerPool } from '../core-node/worker-pool.ts';
import { writeFileAtomically } from '../core-node/write-atomically.ts';
import { defaultCacheFile, RACY_WINDOW_MS } from './cache-file.ts';
import { CONFIG_FILE } from './config-file.ts';
import { codeFingerprint } from './code-fingerprint.ts';
import { outputPlaceProblem } from './emit/output-place-problem.ts';
import { gitHistoryState } from './git-checkout.ts';
import { sha256HexSync } from './hash.ts';

/** Bump when the record's shape or what its key covers changes. */
const FORMAT = 2;

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
  /** A site URL given on the command line or in the environment, overriding the config's. */
  siteUrl?: string;
}

/**
 * Each folder a walk listed, by path from the root: its stamp (`[size, mtimeMs, ctimeMs, ino]`)
 * and the entries the walk visits in it, sorted.
 */
type Listings = Record<string, [Stamp, string[]]>;
type Stamp = [number, number, number, number];

/** The key of a build's input, taken before the build reads anything. */
export interface BuildInputs {
  skillsDir: string;
  key: string;
  /** Nothing the key stamps changed within the racy window before it was taken: the key may be recorded. */
  settled: boolean;
  /** What the walk found in each folder, for the next walk. */
  listings: Listings;
}

/** A file of the output folder, or of the cache, as it was: `[path, size, mtimeMs, ctimeMs, ino]`, or `[path]` for none. */
type FileProof = [string, number, number, number, number] | [string];

interface LastBuildRecord {
  format: number;
  skillsDir: string;
  key: string;
  listings: Listings;
  proof: FileProof[];
  cache: FileProof;
  summary: BuildSummary;
}

/** Far more than a record of a 10,000-skill build takes; a larger file is not one this code wrote. */
const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** What says a file is the one it was: nothing but the kernel sets the ctime, and any write moves it. */
const stampOf = (info: Stats): Stamp => [info.size, info.mtimeMs, info.ctimeMs, info.ino];
const sameStamp = (a: Stamp, b: Stamp): boolean => a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];

/** An entry that discovery and reading can see: dot entries and node_modules are never read. */
const isVisible = (name: string): boolean => !name.startsWith('.') && name !== 'node_modules';

/** Undefined when the path cannot be looked at (a file in place of a folder on the way, a loop of links): no proof of anything. */
const proofOf = (abs: string, rel: string): FileProof | undefined => {
  try {
    const info = lstatSync(abs, { throwIfNoEntry: false });
    return info ? [rel, ...stampOf(info)] : [rel];
  } catch {
    return undefined;
  }
};
const sameProof = (a: FileProof | undefined, b: FileProof): boolean => a !== undefined && a.length === b.length && a.every((v, i) => v === b[i]);

/** Larger than any config or key file; a larger one is left to the build, unrecorded. */
const MAX_INPUT_FILE_BYTES = 16 * 1024 * 1024;

/**
 * The hash of a regular file's bytes (through a link, as the build reads it), `null` when there is
 * none; undefined for anything else: a pipe can be read only once, and that is the build's read.
 */
function fileHash(path: string): string | null | undefined {
  const bytes = readRegularFile(path, MAX_INPUT_FILE_BYTES, { followLinks: true });
  return bytes === null || bytes === undefined ? bytes : sha256HexSync(bytes);
}

/**
 * Every entry below `base` that discovery and reading can see, hashed by kind, size, mtime,
 * ctime and inode, with each folder on the way to it from `root`, and the latest time any of
 * them changed. Links are stamped, never followed: a build reports them and reads nothing
 * through them.
 *
 * A folder whose stamp is the one `known` has for it is not listed again: its entries are the
 * ones listed then. Adding, removing or renaming an entry moves the folder's mtime and ctime, and
 * `known` comes from a record, written only when nothing walked had changed within the racy
 * window before the walk: so an equal stamp means an equal listing, as the build cache trusts
 * discovery's. Listing every folder was most of a no-op build's walk (a `readdir` costs an open,
 * two reads and a close; an `lstat` is one call).
 */
function walkStamps(root: string, skillsDir: string, known: Listings = {}): { digest: string; latestChange: number; listings: Listings } {
  const hash = createHash('sha256');
  const listings: Listings = {};
  let latestChange = 0;
  /** The entry's stamp when it is a folder. */
  const stamp = (abs: string, rel: string): Stamp | undefined => {
    const info = lstatSync(abs);
    const kind = info.isDirectory() ? 'd' : info.isFile() ? 'f' : info.isSymbolicLink() ? 'l' : 'o';
    const facts = stampOf(info);
    hash.update(`${rel}\0${kind}\0${facts.join('\0')}\n`);
    latestChange = Math.max(latestChange, info.mtimeMs, info.ctimeMs);
    return kind === 'd' ? facts : undefined;
  };
  // A link in place of a folder on the way (`src` of `src/skills`) is what the build refuses.
  const segments = skillsDir.split('/').filter(Boolean);
  for (let i = 1; i < segments.length; i++) if (!stamp(join(root, ...segments.slice(0, i)), segments.slice(0, i).join('/'))) return { digest: hash.digest('hex'), latestChange, listings };
  const visit = (abs: string, rel: string): void => {
    const facts = stamp(abs, rel);
    if (!facts) return;
    const last = Object.hasOwn(known, rel) ? known[rel] : undefined;
    const names = last && sameStamp(last[0], facts) ? last[1] : readdirSync(abs).filter(isVisible).sort();
    listings[rel] = [facts, names];
    for (const name of names) visit(join(abs, name), rel ? `${rel}/${name}` : name);
  };
  visit(join(root, skillsDir), skillsDir);
  return { digest: hash.digest('hex'), latestChange, listings };
}

/** What {@link keyBeforeWalk} took: its part of the key, when it began, and the latest change of a file it read. */
export interface KeyBeforeWalk {
  key: string;
  startedAt: number;
  latestChange: number;
}

/**
 * The key of everything a build's output depends on but the skills folder, read before the
 * config is (see the module comment), or undefined when part of it cannot be told without
 * running the build (git's state, a key file that is a pipe, an unreadable file). The files it
 * reads (the config, the key file, git's HEAD and refs) count by their stamps as well as their
 * bytes: one edited and put back while a build ran (a branch switched and back, a commit made
 * and undone) holds the same bytes but not the same ctime, and the build may have read the edit.
 */
function keyBeforeWalk(settings: BuildSettings): KeyBeforeWalk | undefined {
  const startedAt = Date.now();
  const git = gitHistoryState(settings.root);
  if (git === undefined) return undefined;
  try {
    const { SOURCE_DATE_EPOCH, SKILLDEX_SIGNING_KEY, SKILLDEX_SIGNING_KEY_FILE } = process.env;
    const configFile = join(settings.root, CONFIG_FILE);
    const keyFile = SKILLDEX_SIGNING_KEY_FILE === undefined ? null : fileHash(SKILLDEX_SIGNING_KEY_FILE);
    const config = fileHash(configFile);
    if (keyFile === undefined || config === undefined) return undefined;
    let latestChange = 0;
    const stamps = [configFile, ...(SKILLDEX_SIGNING_KEY_FILE === undefined ? [] : [SKILLDEX_SIGNING_KEY_FILE]), ...git.files].map((file) => {
      const info = statSync(file, { throwIfNoEntry: false });
      if (!info) return [file];
      latestChange = Math.max(latestChange, info.mtimeMs, info.ctimeMs);
      return [file, ...stampOf(info)];
    });
    const parts = [
      FORMAT,
      codeFingerprint(),
      settings.root,
      settings.outDir,
      settings.lenient,
      settings.scan,
      settings.siteUrl ?? null,
      config,
      SOURCE_DATE_EPOCH ?? null,
      SKILLDEX_SIGNING_KEY === undefined ? null : sha256HexSync(SKILLDEX_SIGNING_KEY),
      SKILLDEX_SIGNING_KEY_FILE === undefined ? null : [SKILLDEX_SIGNING_KEY_FILE, keyFile],
      git.state,
      stamps,
    ];
    return { key: sha256HexSync(JSON.stringify(parts)), startedAt, latestChange };
  } catch {
    return undefined;
  }
}

/** A walk of the skills folder to take: what {@link keyBeforeWalk} took, and the last build's listings, if any. */
export interface WalkRequest {
  before: KeyBeforeWalk;
  root: string;
  skillsDir: string;
  known?: Listings;
}

/** The whole key: what {@link keyBeforeWalk} took, and the skills folder as it is now. */
export function walkInputs({ before, root, skillsDir, known }: WalkRequest): BuildInputs | undefined {
  try {
    const tree = walkStamps(root, skillsDir, known);
    const latestChange = Math.max(before.latestChange, tree.latestChange);
    return { skillsDir, key: sha256HexSync(JSON.stringify([before.key, skillsDir, tree.digest])), settled: latestChange < before.startedAt - RACY_WINDOW_MS, listings: tree.listings };
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

/** Listings as a walk writes them; each name one visible entry of its folder, never a path. */
const isListings = (x: unknown): x is Listings =>
  typeof x === 'object' &&
  x !== null &&
  Object.values(x).every(
    (v) =>
      Array.isArray(v) &&
      v.length === 2 &&
      Array.isArray(v[0]) &&
      v[0].length === 4 &&
      v[0].every((n: unknown) => typeof n === 'number') &&
      Array.isArray(v[1]) &&
      v[1].every((name: unknown) => typeof name === 'string' && name !== '' && isVisible(name) && !/[/\\\0]/.test(name)),
  );

/**
 * The record at `file` when it has the shape this code writes; anything else is no record. It
 * sits in the repository being built, where a pull request could have committed one: it is read
 * without following a link or waiting on a pipe, and its skills folder must be one a config
 * could name.
 */
function readRecord(file: string): LastBuildRecord | undefined {
  let record: LastBuildRecord;
  try {
    record = JSON.parse(readOwnFile(file, MAX_RECORD_BYTES) ?? 'null') as LastBuildRecord;
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null) return undefined;
  const s = record.summary;
  const shaped =
    record.format === FORMAT &&
    typeof record.skillsDir === 'string' &&
    isFolderBelowRoot(record.skillsDir) &&
    typeof record.key === 'string' &&
    isListings(record.listings) &&
    Array.isArray(record.proof) &&
    record.proof.every((p) => Array.isArray(p) && typeof p[0] === 'string' && !p[0].split('/').includes('..')) &&
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
 * What {@link lastBuild} found when the build must run: how to take the key of its input. It may be
 * called at any point of the build (see the module comment); the key comes when the walk is done.
 */
export type PendingInputs = (skillsDir: string) => Promise<BuildInputs | undefined>;

/**
 * A walk that lists every folder (a cold build, or the config names another skills folder than
 * the record's), on a thread of its own: at 10,000 skills it is ~0.9 s of `readdir` and `lstat`,
 * which `skilldex build` ran before reading the skills, on the thread the whole build waits for.
 * Where no thread can start at all, it runs here; a thread that fails or dies leaves the build
 * unrecorded.
 */
export async function walkInputsBeside(request: WalkRequest): Promise<BuildInputs | undefined> {
  let pool: WorkerPool<WalkRequest, BuildInputs | undefined>;
  try {
    pool = createWorkerPool(siblingModule(import.meta.url, './last-build-worker'), { size: 1, depth: 1 });
  } catch {
    return walkInputs(request);
  }
  try {
    return await pool.run(request);
  } catch (error) {
    return error instanceof PoolUnavailableError ? walkInputs(request) : undefined;
  } finally {
    await pool.close();
  }
}

/**
 * What the last build reported, when nothing it depends on has changed since and the output
 * folder and the cache are still as it left them. Otherwise how to take the key of the input as
 * it is now, for the record after the build, given the skills folder the config names: all of it
 * but the walk of that folder is taken here, before the build (or the CLI) reads the config or
 * anything else, so what changes meanwhile changes the next key.
 */
export function lastBuild(settings: BuildSettings): { summary: BuildSummary } | { inputs: PendingInputs } {
  const before = keyBeforeWalk(settings);
  const place = placeOf(settings.root);
  const record = place === undefined ? undefined : readRecord(place.file);
  const walked = before && record ? walkInputs({ before, root: settings.root, skillsDir: record.skillsDir, known: record.listings }) : undefined;
  const pending: PendingInputs = async (skillsDir) => {
    if (before === undefined) return undefined;
    if (walked?.skillsDir === skillsDir) return walked;
    return walkInputsBeside({ before, root: settings.root, skillsDir, ...(record ? { known: record.listings } : {}) });
  };
  if (!place || !record || walked?.key !== record.key) return { inputs: pending };
  const unchanged =
    sameProof(proofOf(place.cacheFile, 'cache'), record.cache) &&
    record.proof.every((p) => sameProof(proofOf(join(settings.outDir, p[0]), p[0]), p)) &&
    // Where the output folder is now a link into the skills folder, the build has to say so.
    outputPlaceProblem(settings.root, record.skillsDir, settings.outDir) === undefined;
  return unchanged ? { summary: record.summary } : { inputs: pending };
}

/**
 * Records a build that wrote (or kept) its output: the key taken before it ran, the stamps of
 * `proofFiles` in the output folder and of the cache, and its report. A build whose input was
 * still settling, whose key could not be taken, or whose output cannot be looked at, removes the
 * record instead: the next build then runs in full.
 */
export function recordLastBuild(settings: BuildSettings, inputs: BuildInputs | undefined, proofFiles: readonly string[], summary: BuildSummary): void {
  const place = placeOf(settings.root);
  if (!place) return;
  try {
    const proof = proofFiles.map((p) => proofOf(join(settings.outDir, p), p));
    const cache = proofOf(place.cacheFile, 'cache');
    if (!inputs?.settled || !cache || !proof.every((p) => p !== undefined)) {
      rmSync(place.file, { force: true });
      return;
    }
    const record: LastBuildRecord = { format: FORMAT, skillsDir: inputs.skillsDir, key: inputs.key, listings: inputs.listings, proof, cache, summary };
    writeFileAtomically(place.file, `${JSON.stringify(record)}\n`);
  } catch {
    // Not writable: the next build runs in full.
  }
}
