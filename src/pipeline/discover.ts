import { closeSync, type Dirent, lstatSync, readdirSync, readSync } from 'node:fs';
import { readdir, lstat, stat } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import type { Limits } from '../core/schemas/config.ts';
import { visibleControls } from '../core/control-chars.ts';
import { isWindowsDeviceName, pathProblem } from '../core/paths.ts';
import { DiagnosticSink, START } from './diagnostics.ts';
import { stampOf, type BuildCache, type SourceStamps, type Stamp } from './cache.ts';
import { sha256HexSync } from './hash.ts';
import type { SkillSource, SkillSourceFile } from './model.ts';
import { discoveryAmbiguous, discoveryMisnamedDeclaration, discoveryNestedSkill, discoveryNoDeclaration, discoveryTooDeep } from './rules/discovery.ts';
import { filesPath, filesSkillTooLarge, filesSpecial, filesSymlink, filesTooLarge, filesTooMany } from './rules/files.ts';
import { internalCheckFailed, reportExclusion } from './rules/internal.ts';
import { openNoFollow } from '../core-node/read-own-file.ts';
import { isPermissionDenied } from '../core-node/permission-denied.ts';

/** The files that make a folder a skill. */
export const DECLARATIONS = ['SKILL.md', 'skill.json'] as const;
const isDeclarationFile = (entry: ListedEntry): boolean => entry.isFile() && (DECLARATIONS as readonly string[]).includes(entry.name);
/**
 * The declaration a name means to be when it differs from one only in case (`skill.md`, `Skill.json`).
 * Such a file is found on a case-insensitive disk (macOS, Windows) but not in a Linux CI job, where the
 * skill would vanish without a word.
 */
const misnamedDeclaration = (name: string): string | undefined => DECLARATIONS.find((d) => d !== name && d.toLowerCase() === name.toLowerCase());
/** Never part of a published skill: VCS and OS litter, dependency folders, caches. */
const IGNORED = new Set(['node_modules', '__pycache__']);

/** Folder entries a skill never publishes: dot-entries (VCS and OS litter) and {@link IGNORED} folders. */
export const isUnpublishedEntry = (name: string): boolean => name.startsWith('.') || IGNORED.has(name);

/**
 * A `skills` folder (or any folder on the way to it) that is a symbolic link would publish
 * whatever it points at, outside the repository. Reports it and returns true.
 */
async function reportLinkedSkillsRoot(root: string, skillsDir: string, sink: DiagnosticSink): Promise<boolean> {
  const segments = skillsDir.split('/').filter(Boolean);
  for (let i = 1; i <= segments.length; i++) {
    const rel = segments.slice(0, i).join('/');
    const stats = await lstat(join(root, rel)).catch(() => undefined);
    if (!stats) return false;
    if (stats.isSymbolicLink()) {
      reportExclusion(sink, filesSymlink, rel, START, `'${rel}' is a symbolic link; the skills folder must be a real folder inside the repository`, { hint: 'replace the link with the folder itself; nothing under a linked skills folder is read or published' });
      return true;
    }
  }
  return false;
}

/** A skill folder discovery found. */
export interface FoundSkill {
  /** Folder relative to the registry root. */
  dir: string;
  declaration: SkillSource['declaration'];
  /**
   * What discovery already listed of the folder (`''`; it does not list the folder's subfolders),
   * so reading it need not list it again.
   */
  listing?: Listing;
}

/**
 * What reading a folder needs of each entry: its name and kind, as a Dirent from
 * `readdirSync(…, { withFileTypes: true })` gives them, or a {@link PlainListing} rebuilt on a worker thread.
 */
export interface ListedEntry {
  name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** A folder's entries by path inside the skill (`''` is the skill folder). */
export type Listing = (relDir: string) => readonly ListedEntry[] | undefined;

/**
 * A {@link Listing} as plain data, to hand to a worker thread (a Dirent loses its methods on the
 * way): each listed folder's entries as `[name, kind]`, kind `f`ile, `d`irectory, `l`ink or `o`ther.
 */
export type PlainListing = Record<string, [string, 'f' | 'd' | 'l' | 'o'][]>;

/** The folders of `listing` that reading a skill visits, as plain data. */
export function plainListing(listing: Listing): PlainListing {
  const out: PlainListing = {};
  const visit = (relDir: string) => {
    const entries = listing(relDir);
    if (!entries) return;
    out[relDir] = entries.map((e) => [e.name, e.isSymbolicLink() ? 'l' : e.isDirectory() ? 'd' : e.isFile() ? 'f' : 'o']);
    for (const e of entries) if (e.isDirectory() && !e.name.startsWith('.') && !IGNORED.has(e.name)) visit(relDir ? `${relDir}/${e.name}` : e.name);
  };
  visit('');
  return out;
}

/** A {@link Listing} answering from plain data. */
export function listingFrom(plain: PlainListing): Listing {
  return (relDir) =>
    plain[relDir]?.map(([name, kind]) => ({ name, isFile: () => kind === 'f', isDirectory: () => kind === 'd', isSymbolicLink: () => kind === 'l' }));
}

interface Candidate {
  /** Path below the skills folder, `/`-separated. */
  path: string;
  name: string;
  dirent: Dirent;
  /** The declaration a file named almost like one means to be ({@link misnamedDeclaration}). */
  meant?: string;
}

/** A folder below the skills folder that could not be listed, and why. */
interface Unlisted {
  path: string;
  error: NodeJS.ErrnoException;
}

/**
 * What discovery looks at below the skills folder: every declaration at any depth outside skill
 * folders, and every entry one and two levels down (where a link could stand in for a skill or a
 * category). Dot entries and node_modules are skipped; links are listed, never followed, and a
 * declaration that is a link or a folder is listed too, so it is reported rather than silently
 * missing. A skill folder's own subfolders are left to reading the skill ({@link readSkillSource},
 * which reports a skill nested in them): listing them here made this one thread list every folder
 * of the registry before any skill could be read (7,000 of 9,000 folders over 2,000 skills).
 * One synchronous walk: the tree is mostly small folders, and a promise per folder cost more
 * than the listing itself (a glob library took 370 ms over 2,000 skills, this ~40 ms).
 */
function listCandidates(base: string, listings: Map<string, Dirent[]>, unlisted: Unlisted[], stamps?: Stamp[], onDeclaration?: (count: number) => void): Candidate[] {
  const out: Candidate[] = [];
  let declarations = 0;
  const visit = (rel: string, depth: number): void => {
    let entries: Dirent[];
    try {
      const abs = rel ? join(base, rel) : base;
      // For the build cache, stat'ed before it is listed: an entry added in between then changes its mtime.
      if (stamps) stamps.push(stampOf(rel, lstatSync(abs)));
      entries = readdirSync(abs, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      // One folder that cannot be listed (no permission, an I/O error) is reported and the
      // others are checked; only the skills folder itself stops discovery.
      if (rel === '') throw error;
      unlisted.push({ path: rel, error: error as NodeJS.ErrnoException });
      return;
    }
    listings.set(rel, entries);
    const skillFolder = rel !== '' && entries.some(isDeclarationFile);
    for (const dirent of entries) {
      const name = dirent.name;
      if (name.startsWith('.') || name === 'node_modules') continue;
      const path = rel ? `${rel}/${name}` : name;
      const isDeclaration = (DECLARATIONS as readonly string[]).includes(name);
      const meant = dirent.isFile() ? misnamedDeclaration(name) : undefined;
      if (depth <= 2 || isDeclaration || meant) out.push({ path, name, dirent, ...(meant ? { meant } : {}) });
      if (isDeclaration) onDeclaration?.(++declarations);
      if (dirent.isDirectory() && !skillFolder) visit(path, depth + 1);
    }
  };
  visit('', 1);
  return out;
}

/** Files a category folder may hold beside its skills without being a skill itself. */
const CATEGORY_FILE = /^(readme|license|licence)(\.[^/]*)?$/i;

/**
 * The folders one and two levels below the skills folder whose files no skill publishes: a folder
 * that lost its declaration (a deleted or renamed SKILL.md leaves `references/` behind), a folder
 * of a category that is not a skill, or files loose in a category folder (a README or LICENSE
 * there is expected). A folder with a declaration anywhere below it is left to the rules about
 * declarations (misnamed, too deep). Pure, over the listings discovery made; sorted, each with
 * its first three files and how many there are.
 *
 * @example
 * foldersWithoutDeclaration(listings) // [{ folder: 'old-skill', files: ['references/a.md'], count: 1 }]
 */
export function foldersWithoutDeclaration(listings: ReadonlyMap<string, readonly ListedEntry[]>): { folder: string; files: string[]; count: number }[] {
  const visible = (rel: string) => [...(listings.get(rel) ?? [])].filter((e) => !isUnpublishedEntry(e.name)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const declares = (entries: readonly ListedEntry[]) => entries.some((e) => (DECLARATIONS as readonly string[]).includes(e.name) || misnamedDeclaration(e.name) !== undefined);
  /** The files below `rel` (not a README or LICENSE at its top), or undefined when a declaration lies below it. */
  const filesBelow = (rel: string): string[] | undefined => {
    const out: string[] = [];
    const stack = [rel];
    while (stack.length > 0) {
      const dir = stack.pop() as string;
      const entries = visible(dir);
      if (declares(entries)) return undefined;
      for (const e of entries) if (e.isFile() && !(dir === rel && CATEGORY_FILE.test(e.name))) out.push(`${dir}/${e.name}`.slice(rel.length + 1));
      for (const e of [...entries].reverse()) if (e.isDirectory()) stack.push(`${dir}/${e.name}`);
    }
    return out;
  };
  const out: { folder: string; files: string[]; count: number }[] = [];
  const report = (folder: string, files: string[] | undefined) => {
    if (files && files.length > 0) out.push({ folder, files: files.slice(0, 3), count: files.length });
  };
  for (const top of visible('').filter((e) => e.isDirectory())) {
    const entries = visible(top.name);
    if (declares(entries)) continue;
    const subfolders = entries.filter((e) => e.isDirectory()).map((e) => `${top.name}/${e.name}`);
    if (!subfolders.some((sub) => declares(visible(sub)))) {
      report(top.name, filesBelow(top.name));
      continue;
    }
    // A category: its loose files, and each of its folders that is not a skill.
    report(top.name, entries.filter((e) => e.isFile() && !CATEGORY_FILE.test(e.name)).map((e) => e.name));
    for (const sub of subfolders) if (!declares(visible(sub))) report(sub, filesBelow(sub));
  }
  return out;
}

/**
 * Finds skill folders: `skills/<name>/` or one category level deeper, `skills/<category>/<name>/`.
 * Dot-folders and node_modules are skipped. Symlinks are never followed.
 *
 * With a build cache, what the last build found is taken again when no folder it listed has
 * changed (stat'ing a folder costs a fraction of listing it: 0.3 s of a no-op rebuild at 10,000
 * skills was listing folders); otherwise every folder is listed, and stat'ed for the next build.
 * `onDeclaration` hears of each `SKILL.md` or `skill.json` as a walk meets it (with the count so
 * far), before the folders are sorted out: a caller can start work it will need once there are many.
 */
export async function discoverSkills(
  root: string,
  skillsDir: string,
  sink: DiagnosticSink,
  { cache, onDeclaration }: { cache?: BuildCache; onDeclaration?: (count: number) => void } = {},
): Promise<FoundSkill[]> {
  const base = join(root, skillsDir);
  if (await reportLinkedSkillsRoot(root, skillsDir, sink)) return [];
  const known = cache?.discovery(root, skillsDir);
  if (known) {
    for (const d of known.diagnostics) sink.diagnostics.push(d);
    return known.found.map(({ dir, declaration }) => ({ dir, declaration }));
  }
  const reportedBefore = sink.diagnostics.length;
  const listings = new Map<string, Dirent[]>();
  const stamps: Stamp[] | undefined = cache ? [] : undefined;
  const unlisted: Unlisted[] = [];
  const entries = listCandidates(base, listings, unlisted, stamps, onDeclaration);
  for (const { path, error } of unlisted) {
    const rel = `${skillsDir}/${path}`;
    const denied = isPermissionDenied(error.code);
    reportExclusion(sink, internalCheckFailed, rel, START, `'${rel}' could not be listed (${denied ? 'permission denied' : 'the system refused'}, ${error.code ?? error.message}), so no skill in it was checked`, {
      hint: denied ? `make the folder readable (chmod a+rX ${rel}), or remove it` : 'check the folder on disk, or remove it',
    });
  }
  const found: string[] = [];
  const problems: { entry: (typeof entries)[number]; rel: string }[] = [];
  const misnamed: { entry: (typeof entries)[number]; rel: string; meant: string }[] = [];
  for (const entry of entries) {
    const rel = `${skillsDir}/${entry.path}`;
    const isDeclaration = (DECLARATIONS as readonly string[]).includes(entry.name);
    if (entry.dirent.isSymbolicLink() || (isDeclaration && !entry.dirent.isFile())) problems.push({ entry, rel });
    else if (isDeclaration) found.push(entry.path);
    else if (entry.meant) misnamed.push({ entry, rel, meant: entry.meant });
  }
  // Links inside a skill folder are reported when the folder is read; here only the ones that
  // stand where a skill or its declaration should be.
  const skillFolders = new Set(found.map((p) => posix.dirname(p)));
  for (const { entry, rel } of problems) {
    if (skillFolders.has(posix.dirname(entry.path))) continue;
    if (entry.dirent.isSymbolicLink()) {
      reportExclusion(sink, filesSymlink, rel, START, `'${rel}' is a symbolic link; links are never followed or published`, { hint: 'replace the link with the real file or folder' });
    } else {
      reportExclusion(sink, filesSpecial, rel, START, `'${rel}' is not a regular file`, { hint: `make ${entry.name} a file` });
    }
  }
  for (const { entry, rel, meant } of misnamed) {
    if (skillFolders.has(posix.dirname(entry.path)) || posix.dirname(entry.path) === '.') continue;
    reportExclusion(sink, discoveryMisnamedDeclaration, rel, START, `'${rel}' is not read as a skill: its declaration must be named ${meant} exactly`, { hint: `rename it to ${meant}: the names are case-sensitive` });
  }
  for (const { folder, files, count } of foldersWithoutDeclaration(listings)) {
    const rel = `${skillsDir}/${folder}`;
    const shown = `${files.join(', ')}${count > files.length ? `, … ${count - files.length} more` : ''}`;
    sink.report(discoveryNoDeclaration, rel, START, `'${rel}' holds ${count === 1 ? 'a file' : `${count} files`} (${shown}) but no SKILL.md or skill.json, so ${count === 1 ? 'it is' : 'they are'} not published`);
  }
  found.sort();

  const byDir = new Map<string, Set<string>>();
  for (const rel of found) {
    const dir = posix.dirname(rel);
    if (dir === '.') continue; // a SKILL.md directly in skills/ is not a skill folder
    const set = byDir.get(dir) ?? new Set<string>();
    set.add(posix.basename(rel));
    byDir.set(dir, set);
  }

  // No folder found here lies inside another: the walk does not enter a skill folder's subfolders.
  const dirs = [...byDir.keys()].sort();
  const skillDirs: FoundSkill[] = [];
  for (const dir of dirs) {
    const rel = `${skillsDir}/${dir}`;
    const decl = byDir.get(dir) as Set<string>;
    const declFile = decl.has('skill.json') ? 'skill.json' : 'SKILL.md';
    if (dir.split('/').length > 2) {
      reportExclusion(sink, discoveryTooDeep, `${rel}/${declFile}`, START, `'${rel}' is more than one category folder below ${skillsDir}/`, { hint: `use ${skillsDir}/<name>/ or ${skillsDir}/<category>/<name>/` });
      continue;
    }
    // The skill's folder and its category folder are its published path (`path` in index.json, the
    // manifest's `sourcePath`), which clients print, and the files' rule does not see them (a
    // skill.json's folder need not be its name): `skills/e<ESC>[31m/x/` would hand a terminal an
    // escape sequence. Any other name (a space, 代码) is fine: nothing is installed under it.
    if (/[\t\n]/.test(dir) || visibleControls(dir) !== dir) {
      reportExclusion(sink, filesPath, `${rel}/${declFile}`, START, `folder '${rel}' has a control or invisible character in its name`, { hint: 'rename the folder; letters, digits, spaces, `-`, `_` and `.` are safe' });
      continue;
    }
    // Git for Windows cannot check out a folder named after a device, as it cannot a file (files/path).
    // A SKILL.md skill's folder is its name, which name/windows-device reports (with the fix for both).
    const segments = dir.split('/');
    const device = segments.slice(0, declFile === 'SKILL.md' ? -1 : undefined).findIndex(isWindowsDeviceName);
    if (device !== -1) {
      const named = segments[device] as string;
      const hint = device === segments.length - 1 ? "rename the folder; a skill.json's folder may be its name in kebab-case" : `rename the category folder, e.g. to '${named}-skills'`;
      reportExclusion(sink, filesPath, `${rel}/${declFile}`, START, `folder '${rel}' uses '${named}', a device name on Windows, where no folder can have it: the registry could not be checked out there`, { hint });
      continue;
    }
    if (decl.size > 1) {
      const { message, hint } = ambiguity(join(base, dir), rel);
      reportExclusion(sink, discoveryAmbiguous, `${rel}/skill.json`, START, message, hint ? { hint } : {});
      continue;
    }
    skillDirs.push({ dir: rel, declaration: declFile, listing: (sub) => listings.get(sub ? `${dir}/${sub}` : dir) });
  }
  // Only a skills folder that exists (its stamp comes first): one created later must be listed.
  if (cache && stamps?.[0]?.path === '') {
    cache.recordDiscovery({ skillsDir, dirs: stamps, found: skillDirs.map(({ dir, declaration }) => ({ dir, declaration })), diagnostics: sink.diagnostics.slice(reportedBefore) });
  }
  return skillDirs;
}

/**
 * What to say of a folder holding both declarations. `skilldex install` leaves a skill.json skill
 * so, with the SKILL.md it writes for Agent Skills clients (whose frontmatter names the function,
 * `skilldex-function`): that folder is an installed copy, and the plain message sent its owner
 * to `skilldex convert`. Only the first 2 KiB of a regular SKILL.md are read (no link followed,
 * no FIFO waited on), and only for a folder already found ambiguous.
 */
function ambiguity(absDir: string, rel: string): { message: string; hint?: string } {
  const plain = { message: `'${rel}' holds both SKILL.md and skill.json` };
  let fd: number | undefined;
  try {
    const opened = openNoFollow(join(absDir, 'SKILL.md'));
    fd = opened?.fd;
    if (fd === undefined || !opened?.info.isFile()) return plain;
    const head = Buffer.alloc(2048);
    const text = head.toString('utf8', 0, readSync(fd, head, 0, head.length, 0));
    if (!text.startsWith('---') || !/\n\s+skilldex-function:/.test(text)) return plain;
    return {
      message: `'${rel}' holds skill.json and the SKILL.md that skilldex install wrote from it for Agent Skills clients: it is an installed copy, not a skill's source`,
      hint: 'check the skill in the registry it was installed from; a skill.json source folder has no SKILL.md (the build writes it)',
    };
  } catch {
    return plain;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The one skill folder `root/dir` as a discovery result, without looking at its neighbours: for
 * validating a skill on its own, wherever it lies on disk. A declaration that is a link or not a
 * regular file is reported, as discovery in a registry does.
 */
export async function discoverSkillFolder(root: string, dir: string, sink: DiagnosticSink): Promise<{ dir: string; declaration: SkillSource['declaration'] }[]> {
  const present: SkillSource['declaration'][] = [];
  for (const declaration of DECLARATIONS) {
    const info = await lstat(join(root, dir, declaration)).catch(() => undefined);
    if (!info) continue;
    const rel = `${dir}/${declaration}`;
    if (info.isSymbolicLink()) reportExclusion(sink, filesSymlink, rel, START, `'${rel}' is a symbolic link; links are never followed or published`, { hint: 'replace the link with the real file' });
    else if (!info.isFile()) reportExclusion(sink, filesSpecial, rel, START, `'${rel}' is not a regular file`, { hint: `make ${declaration} a file` });
    else present.push(declaration);
  }
  if (present.length > 1) {
    const { message, hint } = ambiguity(join(root, dir), dir);
    reportExclusion(sink, discoveryAmbiguous, `${dir}/skill.json`, START, message, hint ? { hint } : {});
    return [];
  }
  return present.map((declaration) => ({ dir, declaration }));
}

/**
 * What a folder holds, judged by its own entries (nothing is parsed): a skill folder (SKILL.md
 * or skill.json), a registry root (skilldex.config.json or a skills/ folder), a folder of skills
 * (skill folders one or two levels down, like skills/), or none of these. `missing` and `file`
 * say the path is not a folder at all; `loop` that it is a symbolic link that never ends, and
 * `denied` that a folder on the way may not be searched. Symlinked folders are not walked into.
 */
export type FolderKind = 'skill' | 'registry' | 'skills' | 'none' | 'missing' | 'file' | 'loop' | 'denied';

export async function folderKind(absPath: string): Promise<FolderKind> {
  const kind = await ownKind(absPath);
  if (kind !== undefined) return kind;
  return (await skillFoldersBelow(absPath, 1)).length > 0 ? 'skills' : 'none';
}

/**
 * Whether the folder is a registry root, as {@link folderKind} would say, from its own entries
 * only: telling a folder of skills from none walks two levels down, which in a home folder or
 * /tmp means thousands of folders, for a question about the current folder.
 */
export const isRegistryRoot = async (absPath: string): Promise<boolean> => (await ownKind(absPath)) === 'registry';

/**
 * Whether the folder's `skills` entry is a symbolic link. {@link folderKind} does not take such a
 * folder for a registry root (nothing is walked through a link), yet `build` checks it as one and
 * discovery reports the link (files/symlink): `validate` must do the same rather than find no skills.
 */
export const linksSkillsFolder = async (absPath: string): Promise<boolean> => (await entryOf(absPath, 'skills'))?.isSymbolicLink() === true;

/**
 * The folders above `absPath`, nearest first, where a registry holding it can be: up to the top of
 * the git repository it lies in (the folder that holds `.git`); none outside a repository. A
 * registry is a repository and never reaches outside it: a skills/ folder in a home folder does not
 * claim the skills of a checkout inside it, and a skilldex.config.json someone left in a shared
 * folder such as /tmp does not apply its rules to a skill validated below it.
 */
export async function foldersAbove(absPath: string): Promise<string[]> {
  const above: string[] = [];
  let dir = absPath;
  while ((await entryOf(dir, '.git')) === undefined) {
    const parent = dirname(dir);
    if (parent === dir) return [];
    above.push(parent);
    dir = parent;
  }
  return above;
}

/** What {@link folderKind} can tell from the folder's own entries; undefined when only its subfolders can. */
async function ownKind(absPath: string): Promise<Exclude<FolderKind, 'skills' | 'none'> | undefined> {
  let info;
  try {
    info = await stat(absPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ELOOP' ? 'loop' : isPermissionDenied(code) ? 'denied' : 'missing';
  }
  if (!info.isDirectory()) return 'file';
  if (await isSkillFolder(absPath)) return 'skill';
  const config = await entryOf(absPath, 'skilldex.config.json');
  if (config?.isFile() || (await entryOf(absPath, 'skills'))?.isDirectory()) return 'registry';
  return undefined;
}

const entryOf = (dir: string, name: string) => lstat(join(dir, name)).catch(() => undefined);
const isSkillFolder = async (dir: string): Promise<boolean> => (await entryOf(dir, 'SKILL.md')) !== undefined || (await entryOf(dir, 'skill.json')) !== undefined;

/**
 * Skill folders one or two levels below `dir` (a folder of skills, like skills/, with one
 * category level), at most `limit` of them, in directory order. Dot-folders and ignored
 * folders are skipped; symlinked folders are not walked into. A folder that cannot be listed (no
 * permission) is passed over, and added to `unlisted` when given, so a caller can say so.
 */
export async function skillFoldersBelow(dir: string, limit = Infinity, unlisted?: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const child of await subfolders(dir, unlisted)) {
    if (found.length >= limit) break;
    if (await isSkillFolder(child)) found.push(child);
    else for (const grandchild of await subfolders(child, unlisted)) if (found.length < limit && (await isSkillFolder(grandchild))) found.push(grandchild);
  }
  return found;
}

async function subfolders(dir: string, unlisted?: string[]): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT' && error.code !== 'ENOTDIR') unlisted?.push(dir);
    return [];
  });
  // Dirent types come from lstat, so a symlinked folder is not walked into.
  return entries.filter((e) => e.isDirectory() && !isUnpublishedEntry(e.name)).map((e) => join(dir, e.name));
}

/** Reads `size` bytes from the start of an open file (fewer if it shrank meanwhile). */
function readAll(fd: number, size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let at = 0;
  while (at < size) {
    const n = readSync(fd, bytes, at, size - at, at);
    if (n === 0) break;
    at += n;
  }
  return at === size ? bytes : bytes.subarray(0, at);
}

/**
 * Reads every file of a skill folder with lstat semantics: a symlink or special file is
 * reported and skipped, oversize files are reported without being read, and the limits on
 * file count and total size are enforced. With `stamps`, the lstat facts of every folder and
 * file read are recorded for the build cache (src/pipeline/cache.ts), at no extra file reads.
 */
export function readSkillSource(root: string, dir: string, declaration: SkillSource['declaration'], limits: Limits, sink: DiagnosticSink, stamps?: SourceStamps, listing?: Listing): SkillSource {
  const absDir = join(root, dir);
  const files: SkillSourceFile[] = [];
  let total = 0;
  let count = 0;
  let reportedCount = false;

  // Paths below the folder are joined by hand: they are entry names from a listing, never `.`,
  // `..` or empty, so path.join's normalising (a thirtieth of reading a skill) changes nothing.
  const abs = (path: string) => (path ? `${absDir}/${path}` : absDir);
  const visit = (relDir: string): void => {
    // Stat the folder before listing it: an entry added in between then changes its mtime.
    if (stamps) stamps.dirs.push(stampOf(relDir, lstatSync(abs(relDir))));
    // Discovery's listing serves only without stamps: the build cache needs each folder stat'ed
    // before it is listed, so that an entry added in between is caught by the folder's mtime.
    const entries: ListedEntry[] = [...((stamps ? undefined : listing?.(relDir)) ?? readdirSync(abs(relDir), { withFileTypes: true }))];
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const nested = relDir === '' ? undefined : (entries.find((e) => e.name === 'skill.json' && e.isFile()) ?? entries.find(isDeclarationFile));
    if (nested) {
      sink.report(discoveryNestedSkill, `${dir}/${relDir}/${nested.name}`, START, `skill folder '${dir}/${relDir}' sits inside skill '${dir}'; it is published only as files of the outer skill`);
    }
    for (const entry of entries) {
      if (isUnpublishedEntry(entry.name)) continue;
      const path = relDir ? `${relDir}/${entry.name}` : entry.name;
      const file = `${dir}/${path}`;
      if (entry.isSymbolicLink()) {
        sink.report(filesSymlink, file, START, `'${path}' is a symbolic link; links are never followed or published`);
        continue;
      }
      if (entry.isDirectory()) {
        visit(path);
        continue;
      }
      if (!entry.isFile()) {
        sink.report(filesSpecial, file, START, `'${path}' is not a regular file`, { hint: 'remove it' });
        continue;
      }
      const problem = pathProblem(path);
      if (problem) {
        sink.report(filesPath, file, START, `file path '${path}' ${problem}`);
        continue;
      }
      count++;
      if (count > limits.maxFiles) {
        if (!reportedCount) sink.report(filesTooMany, `${dir}/${declaration}`, START, `the skill has more than ${limits.maxFiles} files`);
        reportedCount = true;
        continue;
      }
      const opened = openNoFollow(abs(path));
      if (!opened) {
        sink.report(filesSymlink, file, START, `'${path}' is a symbolic link; links are never followed or published`);
        continue;
      }
      const { fd, info } = opened;
      try {
        if (!info.isFile()) {
          sink.report(filesSpecial, file, START, `'${path}' is not a regular file`, { hint: 'remove it' });
          continue;
        }
        const { size } = info;
        stamps?.files.push(stampOf(path, info));
        if (size > limits.maxFileBytes) {
          sink.report(filesTooLarge, file, START, `'${path}' is ${size} bytes; the limit is ${limits.maxFileBytes}`);
          continue;
        }
        total += size;
        const bytes = readAll(fd, size);
        files.push({ path, bytes, size: bytes.length, hex: sha256HexSync(bytes) });
      } finally {
        closeSync(fd);
      }
    }
  };
  visit('');
  if (total > limits.maxSkillBytes) {
    sink.report(filesSkillTooLarge, `${dir}/${declaration}`, START, `the skill's files total ${total} bytes; the limit is ${limits.maxSkillBytes}`);
  }
  return { dir, absDir, folderName: posix.basename(dir), declaration, files };
}
