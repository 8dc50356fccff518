import { versionKey } from '../../core/changelog.ts';
import type { LogCommit } from './git-reader.ts';

/**
 * From a skills folder's first-parent history to each skill's versions. Pure: the commits and a
 * way to read a declaration's version go in, version records come out.
 *
 * A skill's files are replayed commit by commit (oldest first) from the changes git reports.
 * Its version can only change in a commit that touches its declaration, and every commit
 * belongs to the version the skill had after it, so the history splits into runs of one
 * version. A version's record takes its date from the commit where it first appeared and its
 * files from the last commit before the next version: what the last deploy of that version
 * served, so its content-addressed URLs are the ones that deploy published.
 */

/** One file of a skill at a commit, as git stores it. */
export interface TreeFile {
  /** Path inside the skill folder. */
  path: string;
  mode: string;
  oid: string;
}

/** One version of a skill as history shows it. */
export interface VersionRecord {
  /** As declared in the last run of this version. */
  version: string;
  declaration: 'SKILL.md' | 'skill.json';
  /** The commit where the version first appeared, and its time (seconds). */
  firstCommit: string;
  firstTime: number;
  /** The last commit of the version: its files are the version's snapshot. */
  lastCommit: string;
  lastTime: number;
  /** Subjects of the commits that touched the skill while it had this version, oldest first (at most {@link MAX_SUBJECTS}). */
  subjects: string[];
  files: TreeFile[];
}

/** A declaration blob's version, or undefined when it cannot be read. */
export type VersionOf = (declaration: VersionRecord['declaration'], oid: string) => string | undefined;

/** Subjects kept per version: the latest ones, where a long-lived version has many. */
export const MAX_SUBJECTS = 50;

const DECLARATIONS = ['SKILL.md', 'skill.json'] as const;
const REGULAR = new Set(['100644', '100755']);

/** The skill folder a path belongs to, of the given folders: `<skillsDir>/<name>` or one category deeper. */
function folderOf(path: string, skillsDir: string, dirs: ReadonlySet<string>): string | undefined {
  // Slash positions rather than split(): this runs once per changed file of the whole history.
  if (path.length <= skillsDir.length || path[skillsDir.length] !== '/' || !path.startsWith(skillsDir)) return undefined;
  const first = path.indexOf('/', skillsDir.length + 1);
  if (first === -1) return undefined;
  const outer = path.slice(0, first);
  if (dirs.has(outer)) return outer;
  const second = path.indexOf('/', first + 1);
  if (second === -1) return undefined;
  const inner = path.slice(0, second);
  return dirs.has(inner) ? inner : undefined;
}

/** One commit as one folder saw it: the changes below the folder and what the commit says of them. */
export interface FolderEvent {
  commit: LogCommit;
  changes: LogCommit['changes'];
  subjects: string[];
}

/**
 * Per skill folder, the changes of every commit that touched it, oldest commit first, and the
 * declaration blobs met on the way (what {@link VersionOf} will be asked about).
 */
export function changesByFolder(commits: readonly LogCommit[], skillsDir: string, dirs: ReadonlySet<string>): { byFolder: Map<string, FolderEvent[]>; declarations: { declaration: VersionRecord['declaration']; oid: string }[] } {
  const byFolder = new Map<string, FolderEvent[]>();
  const declarations: { declaration: VersionRecord['declaration']; oid: string }[] = [];
  for (let i = commits.length - 1; i >= 0; i--) {
    const commit = commits[i] as LogCommit;
    const touched = new Map<string, LogCommit['changes']>();
    for (const change of commit.changes) {
      const dir = folderOf(change.path, skillsDir, dirs);
      if (!dir) continue;
      const rel = change.path.slice(dir.length + 1);
      const list = touched.get(dir) ?? [];
      list.push({ ...change, path: rel });
      touched.set(dir, list);
      if (change.oid && REGULAR.has(change.mode) && (DECLARATIONS as readonly string[]).includes(rel)) declarations.push({ declaration: rel as VersionRecord['declaration'], oid: change.oid });
    }
    for (const [dir, changes] of touched) {
      const list = byFolder.get(dir) ?? [];
      list.push({ commit, changes, subjects: subjectsFor(commit, dir, skillsDir, dirs) });
      byFolder.set(dir, list);
    }
  }
  return { byFolder, declarations };
}

/**
 * What a commit says it changed in one folder: its subject, or for an untitled merge the
 * subjects of the commits it brought in that touched the folder, oldest first.
 */
function subjectsFor(commit: LogCommit, dir: string, skillsDir: string, dirs: ReadonlySet<string>): string[] {
  if (!commit.brought) return [commit.subject];
  return commit.brought
    .filter((c) => c.changes.some((change) => folderOf(change.path, skillsDir, dirs) === dir))
    .map((c) => c.subject)
    .reverse();
}

/** The declaring file of a state, like discovery: exactly one of SKILL.md and skill.json, as a regular file. */
function declarationOf(state: ReadonlyMap<string, { mode: string; oid: string }>): { declaration: VersionRecord['declaration']; oid: string } | undefined {
  const present = DECLARATIONS.filter((d) => state.has(d));
  if (present.length !== 1) return undefined;
  const declaration = present[0] as VersionRecord['declaration'];
  const file = state.get(declaration) as { mode: string; oid: string };
  return REGULAR.has(file.mode) ? { declaration, oid: file.oid } : undefined;
}

const filesOf = (state: ReadonlyMap<string, { mode: string; oid: string }>): TreeFile[] => [...state].map(([path, f]) => ({ path, mode: f.mode, oid: f.oid }));

/**
 * One skill folder's versions, from its commits (oldest first). Runs of the same version (by
 * semver precedence: `v1.0.0` and `1.0.0+build` are one) are merged: first appearance from the
 * earliest run, files from the latest. Commits where the declaration is missing or unreadable
 * belong to no version. Records come in order of their last commit.
 */
export function versionRecords(events: readonly FolderEvent[], versionOf: VersionOf): VersionRecord[] {
  const state = new Map<string, { mode: string; oid: string }>();
  const runs: VersionRecord[] = [];
  let open: VersionRecord | undefined;
  for (const { commit, changes, subjects } of events) {
    const touchesDeclaration = changes.some((c) => (DECLARATIONS as readonly string[]).includes(c.path));
    // Only a commit that touches the declaration can end a version; only then is the state before it kept.
    const before = touchesDeclaration && open ? filesOf(state) : undefined;
    for (const change of changes) {
      if (change.oid === undefined) state.delete(change.path);
      else state.set(change.path, { mode: change.mode, oid: change.oid });
    }
    if (touchesDeclaration) {
      const declared = declarationOf(state);
      const version = declared ? versionOf(declared.declaration, declared.oid) : undefined;
      if (open && version !== undefined && versionKey(version) === versionKey(open.version)) {
        open.version = version;
        open.declaration = (declared as { declaration: VersionRecord['declaration'] }).declaration;
      } else {
        if (open) runs.push({ ...open, files: before as TreeFile[] });
        open = version === undefined ? undefined : { version, declaration: (declared as { declaration: VersionRecord['declaration'] }).declaration, firstCommit: commit.id, firstTime: commit.time, lastCommit: commit.id, lastTime: commit.time, subjects: [], files: [] };
      }
    }
    if (!open) continue;
    open.lastCommit = commit.id;
    open.lastTime = commit.time;
    open.subjects.push(...subjects);
  }
  if (open) runs.push({ ...open, files: filesOf(state) });
  return mergeRuns(runs);
}

/** One record per version: dated by its first run, with the files and declared spelling of its last. */
function mergeRuns(runs: readonly VersionRecord[]): VersionRecord[] {
  const byKey = new Map<string, VersionRecord>();
  for (const run of runs) {
    const key = versionKey(run.version);
    const earlier = byKey.get(key);
    byKey.delete(key); // re-inserted: records stay in order of their last run
    byKey.set(key, earlier ? { ...run, firstCommit: earlier.firstCommit, firstTime: earlier.firstTime, subjects: [...earlier.subjects, ...run.subjects] } : run);
  }
  return [...byKey.values()].map((r) => ({ ...r, subjects: r.subjects.filter(Boolean).slice(-MAX_SUBJECTS) }));
}

/**
 * The walk as the build cache keeps it (at 10,000 skills the plain records were a tenth of the
 * cache file, read on every build): commit ids and subjects once each in a string table, records
 * as tuples, and files only for versions that are not a folder's latest. The latest version's
 * files are needed only when the working tree declares another version (an uncommitted bump);
 * {@link decodeWalk} says which folders lack them, and the walk is redone for those.
 */
export interface EncodedWalk {
  strings: string[];
  /** Per folder: [version, declaration, first commit, first time, last commit, last time, subjects, files?]; strings by index. */
  folders: Record<string, [string, VersionRecord['declaration'], number, number, number, number, number[], [string, string, string][]?][]>;
}

export function encodeWalk(records: ReadonlyMap<string, VersionRecord[]>): EncodedWalk {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const s = (text: string) => {
    let i = index.get(text);
    if (i === undefined) index.set(text, (i = strings.push(text) - 1));
    return i;
  };
  const folders: EncodedWalk['folders'] = {};
  for (const [dir, list] of records) {
    folders[dir] = list.map((r, i) => {
      const head: EncodedWalk['folders'][string][number] = [r.version, r.declaration, s(r.firstCommit), r.firstTime, s(r.lastCommit), r.lastTime, r.subjects.map(s)];
      if (i < list.length - 1) head.push(r.files.map((f): [string, string, string] => [f.path, f.mode, f.oid]));
      return head;
    });
  }
  return { strings, folders };
}

/** The records back, each folder's latest with no files (see {@link encodeWalk}). */
export function decodeWalk(walk: EncodedWalk): Map<string, VersionRecord[]> {
  const at = (i: number) => walk.strings[i] ?? '';
  const records = new Map<string, VersionRecord[]>();
  for (const [dir, list] of Object.entries(walk.folders)) {
    records.set(
      dir,
      list.map(([version, declaration, first, firstTime, last, lastTime, subjects, files]) => ({
        version,
        declaration,
        firstCommit: at(first),
        firstTime,
        lastCommit: at(last),
        lastTime,
        subjects: subjects.map(at),
        files: (files ?? []).map(([path, mode, oid]) => ({ path, mode, oid })),
      })),
    );
  }
  return records;
}
