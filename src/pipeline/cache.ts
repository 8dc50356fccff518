/**
 * The build cache: what makes a rebuild with nothing changed cheap.
 *
 * A skill folder is trusted unchanged when every folder and file in it still has the size,
 * mtime, ctime and inode recorded last time (the same test `git status` and `make` rely on). Its
 * file digests, the diagnostics its own rules reported, its draft manifest and its scan result
 * are then reused without reading, hashing, parsing or scanning anything. Registry-wide rules
 * (names, calls, cycles, the scan verdict gate) always run again: they are cheap and depend on
 * every skill at once.
 *
 * Correctness comes first, so every doubt is a miss:
 * - the cache is salted with the config, the scanner rule version and a fingerprint of the
 *   build's own code (./code-fingerprint.ts), so a changed rule never serves an old verdict;
 * - a file whose mtime is within {@link RACY_WINDOW_MS} of the build that recorded it is never
 *   trusted ("racy" in git's sense: it could change again within the same timestamp tick);
 * - a scan result is keyed by the skill's tree digest and by the names it could imitate, because
 *   the typosquatting rule depends on the other skills;
 * - a file read later (for emitting) is checked against its recorded digest, so bytes that
 *   changed during the build abort it instead of being published under the old digest.
 *
 * The cache lives outside the published folder (`<root>/.cache/skilldex/build-cache.json` by
 * default), so it is never deployed, and is written atomically, so concurrent builds of one root
 * only ever lose cache hits, never read half a file.
 */
import { lstatSync, readFileSync, type Stats } from 'node:fs';
import { readOwnFile } from '../core-node/read-own-file.ts';
import { basename, dirname, join } from 'node:path';
import type { RegistryConfig } from '../core/schemas/config.ts';
import type { ValidatorDiagnostic } from '../core/schemas/diagnostic.ts';
import type { ScanResult } from '../core/schemas/scan.ts';
import type { DraftManifest, SkillSource, SkillSourceFile } from './model.ts';
import { sha256HexSync } from './hash.ts';
import type { Position } from '../core/parse/source-text.ts';
import type { EncodedWalk } from './history/version-walk.ts';
import type { OutwardLink, TextReferences } from './references.ts';
import { SkillOutput, SkillOutputsFile } from './emit/skill-output.ts';
import { writeFileAtomically } from '../core-node/write-atomically.ts';
import { defaultCacheFile, RACY_WINDOW_MS } from './cache-file.ts';
import { codeFingerprint } from './code-fingerprint.ts';
import { mayBeInGitCheckout } from './git-checkout.ts';
import { runGit } from './history/git-reader.ts';

/** Bump when the shape of a cache entry, or of the file, changes. */
const FORMAT = 4;

/** Larger than any cache a registry writes (56 MB at 10,000 skills), and than a string V8 can hold. */
const MAX_CACHE_BYTES = 512 * 1024 * 1024;

/** Stat facts of one folder or file of a skill, as recorded by `readSkillSource`. */
export interface Stamp {
  /** Path inside the skill (`''` for the skill folder itself). */
  path: string;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

/** What `readSkillSource` records while it reads a skill, when asked to. */
export interface SourceStamps {
  dirs: Stamp[];
  files: Stamp[];
}

export const stampOf = (path: string, info: Stats): Stamp => ({ path, size: info.isDirectory() ? 0 : info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, ino: info.ino });

/** Everything the per-skill phase of validation produced for one skill folder. */
export interface CachedSkill {
  dir: string;
  declaration: SkillSource['declaration'];
  dirs: Stamp[];
  /** Every file lstat'ed; `hex` is absent for files that were not read (over a size limit). */
  files: (Stamp & { hex?: string })[];
  /** Diagnostics reported while reading, checking files and parsing this skill (severities resolved). */
  diagnostics: ValidatorDiagnostic[];
  draft?: DraftManifest;
  /** Positions in the declaration that registry-wide rules may report at, keyed by path. */
  positions?: Record<string, Position>;
  /** The tool ids and links its Markdown holds (references.ts), when it parsed. */
  references?: TextReferences;
  /** Its Markdown's links into other skills' folders (references.ts), when it parsed. */
  outwardLinks?: OutwardLink[];
  scan?: { key: string; result: ScanResult };
}

interface EmitRecord {
  outDir: string;
  /** Hash of everything writeRegistry is given. */
  key: string;
  /** Stamps of the files that prove the folder still holds that output. */
  proof: Stamp[];
  notDiscoverable: { name: string; reason: string }[];
}

/** What checking an older version's files found: its draft and scan when it parsed, and every diagnostic. */
export interface OldVersionVerdict {
  draft?: DraftManifest;
  scan?: ScanResult;
  diagnostics: ValidatorDiagnostic[];
  /** Files whose blobs git does not have (never cached). */
  missing?: string[];
}

/**
 * What discovery found below the skills folder, with the stamps of every folder it listed: while
 * none of them changed (an entry added, removed or renamed in a folder changes its mtime),
 * listing them again would find the same skill folders and report the same problems.
 */
export interface DiscoveryRecord {
  skillsDir: string;
  /** Every folder listed, by path below the skills folder (`''` is the skills folder). */
  dirs: Stamp[];
  found: { dir: string; declaration: SkillSource['declaration'] }[];
  /** What discovery reported (severities resolved). */
  diagnostics: ValidatorDiagnostic[];
}

/** The version records of the skill folders, from the history at one HEAD. */
interface HistoryRecord {
  /** HEAD, the skills folder and the skill folders walked. */
  key: string;
  walk: EncodedWalk;
}

/**
 * The cache file's first line; each line after it is one skill's {@link CachedSkill}. A line per
 * skill lets a build that read the file write an unchanged skill's line back as it was read:
 * serialising and escaping every entry again was a sixth of a 1,000-skill rebuild after one skill
 * changed.
 */
interface CacheHeader {
  format: number;
  salt: string;
  /** When the recording build started (ms since the epoch). */
  startedAt: number;
  discovery?: DiscoveryRecord;
  emit?: EmitRecord;
  history?: HistoryRecord;
  /** The version each declaration blob declares (null: unreadable), by blob id: git objects never change. */
  declarations?: Record<string, string | null>;
  /** Older versions checked, by their files' git ids, folder and name (see history/old-versions.ts). */
  oldVersions?: Record<string, OldVersionVerdict>;
  /** The hash of the skill names, in order, that the scans were keyed with (see phases/scan.ts). */
  scanNames?: string;
}

/** A cache file as read: its header, and each skill's entry by folder with the line it was read from. */
interface CacheFile extends CacheHeader {
  skills: Map<string, CachedSkill>;
  lines: WeakMap<CachedSkill, string>;
}

/** Positions registry rules ask a member for: its name, its `calls`, and each call. */
const positionKey = (path: readonly (string | number)[]): string => path.join('\u0000');

/**
 * JSON with every character past ASCII written as a `\u` escape, which JSON.parse turns back
 * into exactly the same string. The cache holds descriptions and instructions in any script: one
 * such character made the whole 5 MB file (at 1,000 skills) decode into a two-byte string, which
 * took a fresh process about 16 ms to read and 35 ms to parse, against 6 ms and 26 ms as ASCII.
 */
const asciiJson = (value: unknown): string => JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const sameStamp = (a: Stamp, info: Stats): boolean => a.mtimeMs === info.mtimeMs && a.ctimeMs === info.ctimeMs && a.ino === info.ino && (info.isDirectory() || a.size === info.size);

/** The folder at `abs` is still the one `d` recorded, and was recorded outside the racy window. Throws when it cannot be stat'ed. */
const folderUnchanged = (abs: string, d: Stamp, racyAfter: number): boolean => {
  const info = lstatSync(abs);
  return info.isDirectory() && sameStamp(d, info) && d.mtimeMs < racyAfter;
};

/**
 * The cache of one build. Load it with {@link BuildCache.open}, look skills up while
 * validating, record what was computed, and {@link BuildCache.save} at the end.
 */
export class BuildCache {
  readonly file: string;
  readonly startedAt = Date.now();
  readonly #salt: string;
  #previous: CacheFile | undefined;
  #next = new Map<string, CachedSkill>();
  #emit: EmitRecord | undefined;
  #history: HistoryRecord | undefined;
  #declarations: Record<string, string | null> | undefined;
  #oldVersions: Record<string, OldVersionVerdict> = {};
  #scanNames: string | undefined;
  #discovery: DiscoveryRecord | undefined;
  /** Skill outputs to save beside the cache (see {@link skillOutputs}). */
  #outputs: { outDir: string; skills: SkillOutput[] } | undefined;
  /** Folders whose stamps discovery found unchanged in this build, by path from the root. */
  #checkedDirs = new Map<string, Stamp>();
  /** True when the history part of the cache differs from the file's. */
  #historyChanged = false;
  /** Lookups answered from the cache / computed afresh, for reports and benchmarks. */
  readonly stats = { hits: 0, misses: 0, scanHits: 0, scanMisses: 0, emitSkipped: false };

  private constructor(file: string, salt: string, previous: CacheFile | undefined) {
    this.file = file;
    this.#salt = salt;
    this.#previous = previous;
  }

  /**
   * The cache a build of a registry with this config keeps in `file` (by default
   * `<root>/.cache/skilldex/build-cache.json`, see defaultCacheFile), salted as every build salts it:
   * `skilldex validate` reads what the last build recorded through it. A file git tracks is not
   * read ({@link committedToGit}).
   */
  static async forBuild(file: string, config: RegistryConfig, { scan }: { scan: boolean }): Promise<BuildCache> {
    const cache = BuildCache.open(file, config, `scan=${scan}`);
    // Git is asked only about a file that holds records of this salt: a file of other code or
    // config (the first build after an upgrade, an installed CLI beside a checkout's build) is
    // unread either way, and the git process was most of what opening it cost.
    return cache.holdsRecords && (await committedToGit(file)) ? BuildCache.open(file, config, `scan=${scan}`, true) : cache;
  }

  /**
   * What the last build of the registry at `root` recorded in the default cache file, to read and
   * never write, or undefined when it recorded nothing this config, code and scan setting can use.
   * The file holds more than a validation keeps up to date (the history walk, what the output folder
   * holds), so only builds write it.
   */
  static async ofLastBuild(root: string, config: RegistryConfig, { scan }: { scan: boolean }): Promise<BuildCache | undefined> {
    const file = defaultCacheFile(root);
    const cache = file === undefined ? undefined : await BuildCache.forBuild(file, config, { scan });
    return cache?.holdsRecords ? cache : undefined;
  }

  /** True when the file held a cache of this salt: something recorded that lookups may answer from. */
  get holdsRecords(): boolean {
    return this.#previous !== undefined;
  }

  /**
   * Opens the cache file (a missing, corrupt or differently salted file is an empty cache; so is
   * any file when `unread`: it is only written).
   */
  static open(file: string, config: RegistryConfig, extraSalt = '', unread = false): BuildCache {
    const salt = sha256HexSync(JSON.stringify([FORMAT, config, extraSalt, codeFingerprint()]));
    let previous: CacheFile | undefined;
    try {
      const text = unread ? undefined : readOwnFile(file, MAX_CACHE_BYTES);
      if (text) previous = readCacheFile(text, salt);
    } catch {
      // No cache yet, or unreadable: build from scratch.
    }
    return new BuildCache(file, salt, previous);
  }

  /**
   * The recorded result for a skill folder if nothing in it changed, checked by `lstat` alone.
   * Folder mtimes catch added, removed and renamed entries; file stamps catch edits.
   */
  lookup(root: string, dir: string, declaration: SkillSource['declaration']): CachedSkill | undefined {
    const entry = this.#previous?.skills.get(dir);
    const racyAfter = this.#racyAfter();
    // An entry vouches for nothing but the stamps it holds, and the cache file sits in the
    // repository, where a pull request can commit one: an entry must stamp the skill folder itself
    // (an inode and a ctime of the checkout it is read in, which nobody knows ahead of it), or one
    // with no stamps at all would pass any folder with the diagnostics it names.
    if (!entry || entry.declaration !== declaration || entry.dirs[0]?.path !== '') return this.#miss();
    const absDir = join(root, dir);
    try {
      for (const d of entry.dirs) {
        if (d.mtimeMs >= racyAfter) return this.#miss();
        // Stat'ed a moment ago by discovery, found as recorded there, and recorded alike here.
        const checked = this.#checkedDirs.get(d.path ? `${dir}/${d.path}` : dir);
        if (checked && checked.mtimeMs === d.mtimeMs && checked.ctimeMs === d.ctimeMs && checked.ino === d.ino) continue;
        if (!folderUnchanged(join(absDir, d.path), d, racyAfter)) return this.#miss();
      }
      for (const f of entry.files) {
        const info = lstatSync(join(absDir, f.path));
        if (!info.isFile() || !sameStamp(f, info) || f.mtimeMs >= racyAfter) return this.#miss();
      }
    } catch {
      return this.#miss();
    }
    this.stats.hits++;
    return entry;
  }

  /**
   * What discovery found under `skillsDir` last time, if no folder it listed has changed since,
   * checked by `lstat` alone; otherwise undefined, and discovery lists every folder again.
   */
  discovery(root: string, skillsDir: string): DiscoveryRecord | undefined {
    const last = this.#previous?.discovery;
    if (!last || last.skillsDir !== skillsDir || !Array.isArray(last.dirs) || last.dirs[0]?.path !== '' || !Array.isArray(last.found) || !Array.isArray(last.diagnostics)) return undefined;
    const racyAfter = this.#racyAfter();
    const base = join(root, skillsDir);
    try {
      for (const d of last.dirs) if (!folderUnchanged(join(base, d.path), d, racyAfter)) return undefined;
    } catch {
      return undefined;
    }
    for (const d of last.dirs) this.#checkedDirs.set(d.path ? `${skillsDir}/${d.path}` : skillsDir, d);
    this.#discovery = last;
    return last;
  }

  /** Keeps what discovery found, with the stamps of the folders it listed. */
  recordDiscovery(record: DiscoveryRecord): void {
    this.#discovery = record;
  }

  /** Stamps at or after this time (ms) were recorded too close to the recording build's start to be trusted (git's "racy" rule). */
  #racyAfter(): number {
    return (this.#previous?.startedAt ?? 0) - RACY_WINDOW_MS;
  }

  #miss(): undefined {
    this.stats.misses++;
    return undefined;
  }

  /** Keeps a skill's result for the next build. */
  record(entry: CachedSkill): void {
    this.#next.set(entry.dir, entry);
  }

  /** The entry recorded in this build for `dir`, to attach its scan result. */
  recorded(dir: string): CachedSkill | undefined {
    return this.#next.get(dir);
  }

  /** Attaches a fresh scan result to a skill's entry. */
  recordScan(entry: CachedSkill, key: string, result: ScanResult): void {
    entry.scan = { key, result };
    // The line it was read from no longer says what it holds.
    this.#previous?.lines.delete(entry);
    this.stats.scanMisses++;
  }

  /** True when the previous build keyed its scans with this list of names (its hash). */
  sameScanNames(key: string): boolean {
    return this.#previous?.scanNames === key;
  }

  recordScanNames(key: string): void {
    this.#scanNames = key;
  }

  /** True when `outDir` still holds exactly what a build with `key` wrote there. */
  emitted(outDir: string, key: string): EmitRecord | undefined {
    const last = this.#previous?.emit;
    if (!last || last.outDir !== outDir || last.key !== key) return undefined;
    try {
      for (const p of last.proof) if (!sameStamp(p, lstatSync(join(outDir, p.path)))) return undefined;
    } catch {
      return undefined;
    }
    this.#emit = last;
    return last;
  }

  /** Remembers what writeRegistry wrote into `outDir`, with stamps of its index files as proof. */
  recordEmit(outDir: string, key: string, proofFiles: readonly string[], notDiscoverable: EmitRecord['notDiscoverable']): void {
    try {
      this.#emit = { outDir, key, proof: proofFiles.map((p) => stampOf(p, lstatSync(join(outDir, p)))), notDiscoverable };
    } catch {
      this.#emit = undefined;
    }
  }

  /**
   * Each skill's output as the last build that wrote `outDir` recorded it, by skill name. They
   * are kept beside the cache file, not in it: only a build that writes the registry reads them,
   * and a no-op rebuild does not. The writer checks every file is still there before it trusts
   * one ({@link OutputFolder.keep}).
   */
  skillOutputs(outDir: string): ReadonlyMap<string, SkillOutput> {
    let last;
    try {
      last = SkillOutputsFile.safeParse(JSON.parse(readOwnFile(this.#outputsFile, MAX_CACHE_BYTES) ?? 'null')).data;
    } catch {
      // No record yet, or unreadable: every skill is written.
    }
    if (last?.format !== FORMAT || last.salt !== this.#salt || last.outDir !== outDir) return new Map();
    return new Map(last.skills.flatMap((o) => SkillOutput.safeParse(o).data ?? []).map((o) => [o.name, o]));
  }

  /** Remembers each skill's output in `outDir`, saved with the cache. */
  recordSkillOutputs(outDir: string, skills: SkillOutput[]): void {
    this.#outputs = { outDir, skills };
  }

  get #outputsFile(): string {
    return `${this.file.replace(/\.json$/, '')}.outputs.json`;
  }

  /** The walk an earlier build recorded at `key` (HEAD and folders). */
  history(key: string): EncodedWalk | undefined {
    const last = this.#previous?.history;
    if (last?.key !== key || !last.walk) return undefined;
    this.#history = last;
    this.#declarations = this.#previous?.declarations;
    return last.walk;
  }

  /** Keeps a fresh walk, and the declaration versions it read (the only ones the next walk can reuse). */
  recordHistory(key: string, walk: EncodedWalk, declarations: Record<string, string | null>): void {
    this.#history = { key, walk };
    this.#declarations = declarations;
    this.#historyChanged = true;
  }

  /** The version a declaration blob declares, as an earlier build read it (null: unreadable). */
  declarationVersion(oid: string): string | null | undefined {
    const known = this.#previous?.declarations;
    return known && Object.hasOwn(known, oid) ? known[oid] : undefined;
  }

  /** What an earlier build found checking an older version with this key. */
  oldVersion(key: string): OldVersionVerdict | undefined {
    const known = this.#previous?.oldVersions;
    const verdict = known && Object.hasOwn(known, key) ? known[key] : undefined;
    if (verdict) this.#oldVersions[key] = verdict;
    return verdict;
  }

  recordOldVersion(key: string, verdict: OldVersionVerdict): void {
    this.#oldVersions[key] = verdict;
    this.#historyChanged = true;
  }

  /**
   * Writes the cache atomically; a read-only checkout just keeps building without one. A build
   * that changed nothing leaves the file alone: rewriting megabytes would be most of its cost.
   */
  save(): void {
    const unchanged =
      this.#previous !== undefined &&
      this.stats.misses === 0 &&
      this.stats.scanMisses === 0 &&
      this.stats.emitSkipped &&
      !this.#historyChanged &&
      this.#scanNames === this.#previous.scanNames &&
      this.#discovery === this.#previous.discovery &&
      this.#next.size === this.#previous.skills.size &&
      Object.keys(this.#oldVersions).length === Object.keys(this.#previous.oldVersions ?? {}).length;
    if (unchanged) return;
    const header: CacheHeader = {
      format: FORMAT,
      salt: this.#salt,
      startedAt: this.startedAt,
      ...(this.#discovery ? { discovery: this.#discovery } : {}),
      ...(this.#emit ? { emit: this.#emit } : {}),
      ...(this.#history ? { history: this.#history } : {}),
      ...(this.#declarations ? { declarations: this.#declarations } : {}),
      oldVersions: this.#oldVersions,
      ...(this.#scanNames ? { scanNames: this.#scanNames } : {}),
    };
    try {
      if (this.#outputs) writeFileAtomically(this.#outputsFile, asciiJson({ format: FORMAT, salt: this.#salt, ...this.#outputs }));
      const lines = [asciiJson(header)];
      for (const entry of this.#next.values()) lines.push(this.#previous?.lines.get(entry) ?? asciiJson(entry));
      writeFileAtomically(this.file, `${lines.join('\n')}\n`);
    } catch {
      // Not writable: the next build is simply cold.
    }
  }
}

/**
 * True when git tracks the cache file, or cannot say whether it does in the checkout the file is
 * in. A build's cache is its own scratch space and never committed; one that is was put there by
 * whoever made the commit, a pull request's author perhaps. Its salt is no secret (a build
 * anywhere with the same package, Node and config shows it), and while a skill's entry must hold
 * stamps of this checkout that nobody knows ahead of it, the entries keyed by git object ids (the
 * history walk, what each declaration declares, the earlier versions checked) would be taken on
 * the file's word. Where git cannot run, the build reads no history either, and the cache is left
 * unread at the cost of reading every skill.
 */
async function committedToGit(file: string): Promise<boolean> {
  try {
    if (!lstatSync(file, { throwIfNoEntry: false })) return false;
  } catch {
    return false; // Not a path to a file at all: nothing is read from it.
  }
  const dir = dirname(file);
  if (!mayBeInGitCheckout(dir)) return false;
  try {
    return (await runGit(dir, ['ls-files', '-z', '--', basename(file)])).length > 0;
  } catch {
    return true;
  }
}

/**
 * The cache file `text` when it was written by this format with `salt`; undefined otherwise.
 * Throws when a line is not JSON. The file is not trusted to be well-formed beyond that: it is a
 * build's own record, the salt ties it to this code and config, and every stamp in it is checked
 * against the disk before an entry is used.
 */
function readCacheFile(text: string, salt: string): CacheFile | undefined {
  const lineEnd = (from: number) => {
    const at = text.indexOf('\n', from);
    return at < 0 ? text.length : at;
  };
  let end = lineEnd(0);
  const header = JSON.parse(text.slice(0, end)) as CacheHeader | null;
  if (header?.format !== FORMAT || header.salt !== salt) return undefined;
  const skills = new Map<string, CachedSkill>();
  const lines = new WeakMap<CachedSkill, string>();
  for (let start = end + 1; start < text.length; start = end + 1) {
    end = lineEnd(start);
    const line = text.slice(start, end);
    const entry = JSON.parse(line) as CachedSkill | null;
    if (typeof entry?.dir !== 'string' || !Array.isArray(entry.dirs) || !Array.isArray(entry.files)) return undefined;
    skills.set(entry.dir, entry);
    lines.set(entry, line);
  }
  return { ...header, skills, lines };
}

/**
 * A SkillSource rebuilt from a cache entry. File bytes are read only if someone asks for them
 * (the emitter, a rescan), and checked against the recorded digest when they are.
 */
export function sourceFromCache(root: string, entry: CachedSkill): SkillSource {
  const files = entry.files.flatMap((f) => (f.hex === undefined ? [] : [{ path: f.path, size: f.size, hex: f.hex }]));
  return { dir: entry.dir, absDir: join(root, entry.dir), folderName: entry.dir.slice(entry.dir.lastIndexOf('/') + 1), declaration: entry.declaration, files: filesReadOnDemand(root, entry.dir, files) };
}

/**
 * Files whose bytes stay on disk until asked for, then are read once and checked against their
 * digest: bytes that changed since they were hashed abort the build instead of being published
 * or scanned under the old digest.
 */
export function filesReadOnDemand(root: string, dir: string, files: readonly Omit<SkillSourceFile, 'bytes'>[]): SkillSourceFile[] {
  const absDir = join(root, dir);
  return files.map(({ path, size, hex }) => new FileOnDisk(absDir, dir, path, size, hex));
}

/**
 * One file of {@link filesReadOnDemand}. A class, so its `bytes` getter is shared: a getter defined
 * on each file cost a fiftieth of the main thread's time in a 2,000-skill validate.
 */
class FileOnDisk implements SkillSourceFile {
  readonly path: string;
  readonly size: number;
  readonly hex: string;
  #bytes: Uint8Array | undefined;
  readonly #absDir: string;
  readonly #dir: string;
  constructor(absDir: string, dir: string, path: string, size: number, hex: string) {
    this.path = path;
    this.size = size;
    this.hex = hex;
    this.#absDir = absDir;
    this.#dir = dir;
  }
  get bytes(): Uint8Array {
    if (this.#bytes) return this.#bytes;
    const read = new Uint8Array(readFileSync(join(this.#absDir, this.path)));
    if (sha256HexSync(read) !== this.hex) throw new Error(`${this.#dir}/${this.path} changed while the registry was being built; run the build again`);
    this.#bytes = read;
    return read;
  }
}

/**
 * The positions registry-wide rules may report at (rules/registry.ts asks only for a member's
 * name, its `calls` and each call), taken while the declaration's parse is at hand: they are all
 * of `locate` that the cache, or the main thread after a worker parsed the skill, keeps.
 */
export function positionsOf(draft: DraftManifest, locate: (path: readonly (string | number)[]) => Position): Record<string, Position> {
  const paths: (string | number)[][] = [['name'], ['calls'], ...draft.calls.map((_, i) => ['calls', i])];
  return Object.fromEntries(paths.map((p) => [positionKey(p), locate(p)]));
}

/** The cache entry for a skill just read and checked. */
export function cacheEntryOf(
  source: SkillSource,
  stamps: SourceStamps,
  diagnostics: ValidatorDiagnostic[],
  draft: DraftManifest | undefined,
  positions: Record<string, Position> | undefined,
  references?: TextReferences,
  outwardLinks?: OutwardLink[],
): CachedSkill {
  const hexOf = new Map(source.files.map((f) => [f.path, f.hex]));
  return {
    dir: source.dir,
    declaration: source.declaration,
    dirs: stamps.dirs,
    files: stamps.files.map((s) => ({ ...s, ...(hexOf.has(s.path) ? { hex: hexOf.get(s.path) as string } : {}) })),
    diagnostics,
    ...(draft ? { draft } : {}),
    ...(positions ? { positions } : {}),
    ...(references ? { references } : {}),
    ...(outwardLinks ? { outwardLinks } : {}),
  };
}

/** A `locate` answering from recorded positions (line 1, column 1 for anything else). */
export function locateFrom(positions: Record<string, Position> | undefined): (path: readonly (string | number)[]) => Position {
  return (path) => positions?.[positionKey(path)] ?? { line: 1, column: 1 };
}
