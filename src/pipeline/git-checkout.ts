import { realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Whether git could find a repository for `root`, decided without starting git. Git looks from
 * the folder's real path upward for a `.git` (a folder, or a file as in a worktree or a
 * submodule) or a folder that is itself a repository (bare), unless `GIT_DIR` names one. Where
 * none of these exists, git can only answer "not a git repository", so a build there (an
 * extracted archive, a generated registry) starts no git process at all. Anything else, even a
 * `.git` that turns out broken or a folder that cannot be read, is left for git to judge.
 */
export function mayBeInGitCheckout(root: string): boolean {
  if (process.env.GIT_DIR) return true;
  try {
    const is = (path: string, kind: 'any' | 'file' | 'dir'): boolean => {
      const info = statSync(path, { throwIfNoEntry: false });
      return info !== undefined && (kind === 'any' || (kind === 'dir' ? info.isDirectory() : info.isFile()));
    };
    for (let dir = realpathSync(root); ; dir = dirname(dir)) {
      if (is(join(dir, '.git'), 'any')) return true;
      // What git requires of a folder before it takes it for a repository itself.
      if (is(join(dir, 'HEAD'), 'file') && is(join(dir, 'objects'), 'dir') && is(join(dir, 'refs'), 'dir')) return true;
      if (dirname(dir) === dir) return false;
    }
  } catch {
    return true;
  }
}
