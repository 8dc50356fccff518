import { closeSync, constants, fstatSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, rmdirSync, rmSync, statSync, writeSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { jsonText } from './json-text.ts';
import { isPathInFolder, type FileStamp } from '../../core/schemas/file-stamp.ts';
import { regularFile, stampOf, unchanged } from '../../core-node/file-stamp.ts';
import { makeFolder } from '../../core-node/make-folder.ts';

/**
 * Remembers what the last build wrote, so stale files can be removed and nothing else. The site
 * build keeps it outside the published folder between builds (scripts/build.ts).
 */
export const REGISTRY_RECORD = '.skilldex-build.json';

/**
 * The folder a build writes the registry into, and what this build has written there.
 *
 * Writes are synchronous: thousands of small files, where a promise's thread-pool round trip per
 * mkdir, stat, unlink, link and write cost more than the write itself (a cold build at 1,000 skills
 * sat idle for 1.6 s waiting on them).
 *
 * A build writes each skill's content-addressed files and archive as soon as the skill is read
 * ({@link OutputFolder.putEarly}), and its discovery files where the last build wrote none
 * ({@link OutputFolder.writeEarly}), while the worker threads read the next ones, long before it
 * knows whether the skill (or the build) is published. So what is written early counts only once
 * the registry is written ({@link OutputFolder.finish} removes the rest), and a build that stops on
 * errors takes back everything it added ({@link OutputFolder.undo}): the folder is then as it was.
 *
 * What is in the folder is not trusted: a rebuild updates the last build's folder in place, and a
 * CI job restores it from a cache that others may have written. A symbolic link there, in place of
 * a folder or a file, would carry a write, a read or a deletion outside the folder. So every
 * folder on the way to a path is checked to be a real folder (once per build) before anything
 * there is read, kept or deleted, and a link in the way of a write is removed, never followed.
 */
export class OutputFolder {
  readonly dir: string;
  /** What the previous build wrote (its state file), relative to the folder; read at the first write. */
  #previousRead: ReadonlySet<string> | undefined;
  /** Published by this build. */
  readonly #written = new Set<string>();
  /** Written early, published or not. */
  readonly #early = new Set<string>();
  /** Written early at a path that does not vouch for its bytes ({@link writeEarly}): the content-addressed file it links, or its bytes. */
  readonly #tentative = new Map<string, string | Uint8Array>();
  /** Folders, relative to the folder, that this build created: nothing is in them but what it wrote. */
  readonly #made = new Set<string>();
  /** Folders, relative to the folder, known to be real folders of it (not links): see {@link #realDir}. */
  readonly #real = new Set<string>(['', '.']);
  /** The folders this build created, in order, and the files it wrote that the last build had not. */
  readonly #createdDirs: string[] = [];
  readonly #createdFiles = new Set<string>();
  /** Every file this build wrote, found holding its bytes or kept, with its stat facts (see {@link writtenFile}). */
  readonly #stamps = new Map<string, FileStamp>();

  /** The folder at `dir`, which is neither read nor created before something is written into it. */
  constructor(dir: string) {
    this.dir = dir;
  }

  /** Creates the folder, if need be, at the first write. */
  get #previous(): ReadonlySet<string> {
    if (!this.#previousRead) {
      // The folder itself is the caller's choice, and may be a link to where a site is served from.
      const created = makeFolder(this.dir);
      if (created !== undefined) this.#createdDirs.push(created);
      this.#previousRead = readState(this.dir);
    }
    return this.#previousRead;
  }

  /**
   * Writes a published file. A file the last build wrote is compared first and left alone when it
   * holds these bytes already: a rebuild in the same folder after one skill changed rewrote every
   * manifest and versions document, and on a disk that discards freed blocks a rewrite costs far
   * more than a read. A content-addressed (`immutable`) file this build wrote early is not
   * compared again; one the last build wrote is, as its name does not vouch for what someone may
   * have put there since (a skill kept whole is not compared: {@link keep}).
   */
  put(rel: string, data: string | Uint8Array, immutable = false): void {
    this.#written.add(rel);
    if (immutable ? this.#early.has(rel) : this.#wroteEarly(rel, data)) return;
    this.#stamp(rel, this.#holding(rel, data) ?? this.#write(rel, data));
  }

  /**
   * Takes files an earlier build wrote as written by this one, unread, when each is still there as
   * {@link writtenFile} described it (a regular file with the same size, mtime and inode) and
   * listed by the last build in this folder as its own. All or nothing: false, and nothing taken,
   * when one of them is not.
   */
  keep(files: readonly FileStamp[]): boolean {
    const previous = this.#previous;
    if (!files.every((file) => previous.has(file[0]) && this.#realDir(dirname(file[0])) && unchanged(this.dir, file))) return false;
    for (const file of files) {
      this.#written.add(file[0]);
      this.#stamps.set(file[0], file);
    }
    return true;
  }

  /** How `rel`, written by this build, can be checked by a later one (see {@link keep}); undefined if it was not written. */
  writtenFile(rel: string): FileStamp | undefined {
    return this.#stamps.get(rel);
  }

  /**
   * Writes a content-addressed file before the build knows it will publish it. It counts as
   * published only when {@link put} is called for it too.
   */
  putEarly(rel: string, data: Uint8Array): void {
    if (this.#early.has(rel)) return;
    this.#early.add(rel);
    this.#stamp(rel, this.#holding(rel, data) ?? this.#write(rel, data));
  }

  /**
   * Writes, before the build knows it will publish it, a file whose path does not vouch for its
   * bytes: a 0.1.0 mirror file (a hard link to `sameAs`, a file written already, when given) or an
   * Agent Skills archive. Only where the last build wrote nothing, so that a build that stops can
   * take it back and leave the folder as it was (a file the last build published is written in
   * turn, once the build is decided). It counts as published when {@link put} or {@link mirror}
   * is called for it with the same bytes, which are then not written again.
   */
  writeEarly(rel: string, bytes: Uint8Array, sameAs?: string): void {
    if (this.#early.has(rel) || this.#previous.has(rel)) return;
    this.#early.add(rel);
    this.#tentative.set(rel, sameAs ?? bytes);
    this.#place(rel, bytes, sameAs);
  }

  /**
   * Writes a 0.1.0 mirror file, as a hard link to `sameAs` (a file written already) when given.
   * Whatever is at a mirror path is unlinked first (only a folder this build made holds nothing
   * yet), so a write or link there can never reach the immutable file a previous build linked it to.
   */
  mirror(rel: string, bytes: Uint8Array, sameAs?: string): void {
    this.#written.add(rel);
    if (!this.#wroteEarly(rel, bytes, sameAs)) this.#place(rel, bytes, sameAs);
  }

  /** Whether {@link writeEarly} put these bytes (or a link to `sameAs`) at `rel`. */
  #wroteEarly(rel: string, data: string | Uint8Array, sameAs?: string): boolean {
    const early = this.#tentative.get(rel);
    if (early === undefined) return false;
    if (typeof early === 'string') return early === sameAs;
    return sameAs === undefined && (early === data || Buffer.from(early.buffer, early.byteOffset, early.byteLength).equals(typeof data === 'string' ? Buffer.from(data) : data));
  }

  #place(rel: string, bytes: Uint8Array, sameAs?: string): void {
    const abs = join(this.dir, rel);
    this.#ensureDir(dirname(rel));
    // Whatever is at the path goes first, unless this build made the folder and wrote nothing there yet.
    if (!this.#made.has(dirname(rel)) || this.#stamps.has(rel)) rmSync(abs, { force: true });
    if (sameAs) {
      try {
        linkSync(join(this.dir, sameAs), abs);
        if (!this.#previous.has(rel)) this.#createdFiles.add(rel);
        // One inode: the link has the stat facts of the file it links.
        const target = this.#stamps.get(sameAs);
        this.#stamp(rel, target ? { size: target[1], mtimeMs: target[2], ino: target[3] } : lstatSync(abs));
        return;
      } catch {
        // No hard links on this file system: a copy serves the same bytes.
      }
    }
    this.#stamp(rel, this.#write(rel, bytes));
  }

  #stamp(rel: string, info: Pick<Stats, 'size' | 'mtimeMs' | 'ino'>): void {
    this.#stamps.set(rel, stampOf(rel, info));
  }

  /** The stat facts of `rel` when the last build wrote it and it holds exactly `data`, in a real folder of this one. */
  #holding(rel: string, data: string | Uint8Array): Stats | undefined {
    return this.#previous.has(rel) && this.#realDir(dirname(rel)) ? holds(join(this.dir, rel), data) : undefined;
  }

  /**
   * Ends a build that published: removes what the previous build or this one's early writes put
   * there and this build did not publish, and records what it did.
   * @returns every published file, sorted
   */
  finish(): string[] {
    const previous = this.#previous;
    const emptied = new Set<string>();
    for (const rel of [...previous, ...this.#early]) {
      if (this.#written.has(rel)) continue;
      // Behind a link is not this folder's: the link goes, what it points at stays.
      if (!this.#realDir(dirname(rel))) {
        this.#dropLink(dirname(rel));
        continue;
      }
      // The record lists files; a folder at a recorded path now holds this build's files (or was
      // never the build's: the record is in the folder, which others may write).
      if (lstatSync(join(this.dir, rel), { throwIfNoEntry: false })?.isDirectory()) continue;
      rmSync(join(this.dir, rel), { force: true });
      emptied.add(dirname(rel));
    }
    removeEmptyFolders(this.dir, emptied);
    const list = [...this.#written].sort();
    writeNewFile(join(this.dir, REGISTRY_RECORD), Buffer.from(jsonText(list)));
    return list;
  }

  /** Ends a build that stopped: removes every file and folder it added, so the folder is as it was. */
  undo(): void {
    for (const rel of this.#createdFiles) rmSync(join(this.dir, rel), { force: true });
    for (const dir of this.#createdDirs.reverse()) rmSync(dir, { recursive: true, force: true });
  }

  /**
   * Writes a file as a new one and returns its stat facts, from the open file (no second lookup by
   * path). Whatever is at the path already (a file, or a link someone put there) is unlinked
   * first, never written through: a symlink could point out of the folder, and a hard link at a
   * mirror path shares its bytes with a content-addressed file.
   */
  #write(rel: string, data: string | Uint8Array): Stats {
    if (!this.#previous.has(rel)) this.#createdFiles.add(rel);
    this.#ensureDir(dirname(rel));
    return writeNewFile(join(this.dir, rel), typeof data === 'string' ? Buffer.from(data) : data);
  }

  /**
   * Whether every folder on the way from this folder to `relDir` is a real folder, not a link or
   * anything else; each is looked at once per build. False when one is missing.
   */
  #realDir(relDir: string): boolean {
    if (this.#real.has(relDir)) return true;
    // Only a path outside the folder is its own parent (`/`); the record's paths are never one.
    if (dirname(relDir) === relDir) return false;
    if (!this.#realDir(dirname(relDir)) || !lstatSync(join(this.dir, relDir), { throwIfNoEntry: false })?.isDirectory()) return false;
    this.#real.add(relDir);
    return true;
  }

  /** Removes the link (or file) that stands where a folder on the way to `relDir`, which is not a real folder, should be. */
  #dropLink(relDir: string): void {
    const parent = dirname(relDir);
    if (!this.#realDir(parent)) return this.#dropLink(parent);
    rmSync(join(this.dir, relDir), { force: true });
  }

  /**
   * Makes `relDir` and the folders above it real folders of this one: a missing one is created,
   * and a link or file in the place of one is removed first (a link is unlinked, not followed).
   */
  #ensureDir(relDir: string): void {
    void this.#previous; // the folder itself, created at the first write
    if (this.#real.has(relDir)) return;
    this.#ensureDir(dirname(relDir));
    const abs = join(this.dir, relDir);
    try {
      mkdirSync(abs);
      this.#createdDirs.push(abs);
      this.#made.add(relDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // Something is there: a folder is kept; a link or a file in its place goes, unfollowed.
      if (!lstatSync(abs).isDirectory()) {
        rmSync(abs, { force: true });
        mkdirSync(abs);
        this.#createdDirs.push(abs);
        this.#made.add(relDir);
      }
    }
    this.#real.add(relDir);
  }
}

/**
 * Removes the folders (relative to `dir`) that removing stale files left empty, and their parents
 * up to `dir` once they are empty too, so a rebuild leaves the same tree as a fresh build. A folder
 * that still holds anything stays.
 */
export function removeEmptyFolders(dir: string, folders: ReadonlySet<string>): void {
  const deepestFirst = [...folders].sort((a, b) => b.split('/').length - a.split('/').length);
  for (const start of deepestFirst) {
    for (let rel = start; rel !== '.' && rel !== ''; rel = dirname(rel)) {
      try {
        rmdirSync(join(dir, rel));
      } catch {
        break; // not empty, or removed already: its parents were or will be tried from elsewhere
      }
    }
  }
}

const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;

/**
 * Writes `bytes` to `path` as a file created now, and returns its stat facts from the open file
 * (no second lookup by path). What was there is unlinked first, never written through (a fresh
 * folder has nothing there, and pays nothing).
 */
function writeNewFile(path: string, bytes: Uint8Array): Stats {
  let fd: number;
  try {
    fd = openSync(path, CREATE_NEW, 0o666);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    rmSync(path, { force: true });
    fd = openSync(path, CREATE_NEW, 0o666);
  }
  try {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    return fstatSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The regular file at `path`'s stat facts when it holds exactly `data` (UTF-8 for a string). */
function holds(path: string, data: string | Uint8Array): Stats | undefined {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const info = regularFile(path, bytes.length);
  try {
    return info && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(readFileSync(path)) ? info : undefined;
  } catch {
    return undefined;
  }
}

function readState(dir: string): Set<string> {
  const record = join(dir, REGISTRY_RECORD);
  try {
    // A link here is read (it says no more than a forged file could) but never written through; a
    // fifo or a device would never end.
    if (!statSync(record).isFile()) return new Set();
    const list = JSON.parse(readFileSync(record, 'utf8')) as unknown;
    return new Set(Array.isArray(list) ? list.filter(isPathInFolder) : []);
  } catch {
    return new Set();
  }
}
