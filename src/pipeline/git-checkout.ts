import { readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readRegularFile } from '../core-node/read-own-file.ts';

const is = (path: string, kind: 'any' | 'file' | 'dir'): boolean => {
  const info = statSync(path, { throwIfNoEntry: false });
  return info !== undefined && (kind === 'any' || (kind === 'dir' ? info.isDirectory() : info.isFile()));
};

/**
 * Where git looks for a repository from `root`: the first folder from its real path upward
 * with a `.git` (a folder, or a file as in a worktree or a submodule), or that is itself a
 * repository (bare). Undefined when there is none; throws when a folder cannot be read.
 */
function findRepository(root: string): { dir: string; dotGit: boolean } | undefined {
  for (let dir = realpathSync(root); ; dir = dirname(dir)) {
    if (is(join(dir, '.git'), 'any')) return { dir, dotGit: true };
    // What git requires of a folder before it takes it for a repository itself.
    if (is(join(dir, 'HEAD'), 'file') && is(join(dir, 'objects'), 'dir') && is(join(dir, 'refs'), 'dir')) return { dir, dotGit: false };
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Whether git could find a repository for `root`, decided without starting git, unless `GIT_DIR`
 * names one. Where none exists, git can only answer "not a git repository", so a build there (an
 * extracted archive, a generated registry) starts no git process at all. Anything else, even a
 * `.git` that turns out broken or a folder that cannot be read, is left for git to judge.
 */
export function mayBeInGitCheckout(root: string): boolean {
  if (process.env.GIT_DIR) return true;
  try {
    return findRepository(root) !== undefined;
  } catch {
    return true;
  }
}

/** Larger than the packed-refs of any repository a registry lives in. */
const MAX_GIT_FILE_BYTES = 64 * 1024 * 1024;

/**
 * A file of git's, undefined when it is not there. Anything but a regular file within the bound
 * throws: a folder above the registry that looks like a repository may have been put there by
 * someone else, with a link to /dev/zero or a FIFO in place of `packed-refs`.
 */
const read = (path: string): string | undefined => {
  const bytes = readRegularFile(path, MAX_GIT_FILE_BYTES, { followLinks: true });
  if (bytes === undefined) throw new Error(`${path} is not a file git writes`);
  return bytes?.toString('utf8');
};

/**
 * The variables that change which repository git reads, or what it sees of the history there
 * (git's own list of "the Git repository" variables, its config given by variables, and grafts,
 * replacements and shallow files). Others, such as GIT_SSL_CAINFO or GIT_TERMINAL_PROMPT, do not.
 */
const MOVES_REPOSITORY = /^GIT_(DIR|WORK_TREE|COMMON_DIR|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|CEILING_DIRECTORIES|DISCOVERY_ACROSS_FILESYSTEM|NAMESPACE|REPLACE_REF_BASE|NO_REPLACE_OBJECTS|GRAFT_FILE|SHALLOW_FILE|CONFIG\w*)$/;

/**
 * What the history a build reads from git depends on, read from the repository's files without
 * starting git: the commit HEAD names, and the files that change which commits a walk sees
 * (`shallow`, `info/grafts`), with every file it was read from (a caller stamps them: a commit
 * made and undone while a build ran leaves the same commit but not the same files). `no
 * repository` where git would find none. Undefined when it cannot be told this way, and then
 * only git itself can say: a variable that moves the repository ({@link MOVES_REPOSITORY}),
 * replacement refs, refs in a reftable, a layout not recognised.
 */
export function gitHistoryState(root: string): { state: string; files: string[] } | undefined {
  if (Object.keys(process.env).some((name) => MOVES_REPOSITORY.test(name))) return undefined;
  try {
    const found = findRepository(root);
    if (!found) return { state: 'no repository', files: [] };
    const files: string[] = [];
    const readFile = (path: string): string | undefined => {
      files.push(path);
      return read(path);
    };
    let gitDir = found.dotGit ? join(found.dir, '.git') : found.dir;
    if (!is(gitDir, 'dir')) {
      // A worktree or a submodule: `.git` is a file naming the repository's folder.
      const pointer = /^gitdir: (.+)$/m.exec(readFile(gitDir) ?? '')?.[1];
      if (!pointer) return undefined;
      gitDir = resolve(found.dir, pointer.trim());
    }
    const commonPointer = readFile(join(gitDir, 'commondir'));
    const common = commonPointer === undefined ? gitDir : resolve(gitDir, commonPointer.trim());
    const head = readFile(join(gitDir, 'HEAD'))?.trim();
    if (head === undefined) return undefined;
    // Refs in a reftable (git 2.45 and later) are binary: HEAD names a placeholder branch.
    if (is(join(common, 'reftable'), 'any')) return undefined;
    const packed = readFile(join(common, 'packed-refs')) ?? '';
    if (packed.includes(' refs/replace/') || (is(join(common, 'refs', 'replace'), 'dir') && readdirSync(join(common, 'refs', 'replace')).length > 0)) return undefined;
    let commit = head;
    const ref = /^ref: (refs\/\S+)$/.exec(head)?.[1];
    if (ref) {
      const loose = readFile(join(common, ref))?.trim();
      const inPacked = packed.split('\n').find((line) => line.endsWith(` ${ref}`));
      // A branch with no commit yet has neither: its history is empty.
      commit = loose ?? inPacked?.split(' ')[0] ?? `unborn ${ref}`;
    }
    if (!/^([0-9a-f]{40}|[0-9a-f]{64}|unborn refs\/\S+)$/.test(commit)) return undefined;
    const state = JSON.stringify([commit, readFile(join(common, 'shallow')) ?? null, readFile(join(common, 'info', 'grafts')) ?? null]);
    return { state, files };
  } catch {
    return undefined;
  }
}
