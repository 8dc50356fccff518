import { lstatSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Files modified this close to the build that recorded them are looked at again next time: they
 * could change once more within the same timestamp tick and keep their stamp ("racy" in git's sense).
 */
export const RACY_WINDOW_MS = 2000;

/**
 * The build cache's file in a repository, or undefined when a folder on the way to it (`.cache`,
 * `.cache/skilldex`) is there but is a symbolic link or not a folder: the repository being built
 * (a pull request's) chose it, and a link would carry the cache's reads and writes out of the
 * checkout. The build then goes without a cache, as it does when a folder on the way cannot be looked
 * into.
 */
export function defaultCacheFile(root: string): string | undefined {
  let at = root;
  for (const folder of ['.cache', 'skilldex']) {
    at = join(at, folder);
    let info;
    try {
      info = lstatSync(at, { throwIfNoEntry: false });
    } catch {
      // Cannot be looked into (another user's `.cache`): the cache is optional, go without it.
      return undefined;
    }
    if (!info) break;
    if (!info.isDirectory()) return undefined;
  }
  return join(root, '.cache', 'skilldex', 'build-cache.json');
}
