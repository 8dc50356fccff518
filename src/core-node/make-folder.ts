/**
 * `mkdir -p` that always ends. Node's recursive mkdir (sync and async) never returns where mkdir
 * answers ENOENT below a folder that exists, as /proc does: `skilldex build --out /proc/x` hung
 * instead of failing. This creates each missing folder in turn, below the deepest path that
 * exists, and throws the system's first error (ENOENT, ENOTDIR where a file stands on the way,
 * EEXIST where a file stands at the path, EACCES…), which the CLI reports with the path.
 * Synchronous: a handful of mkdir calls, where the async form would only add a thread-pool round
 * trip per folder.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const isFolder = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;

/**
 * Creates `path` and the folders above it that are missing. Returns the first folder it created
 * (as `mkdirSync(path, { recursive: true })` does), or undefined when `path` was a folder already.
 */
export function makeFolder(path: string): string | undefined {
  const missing: string[] = [];
  let at = resolve(path);
  while (!statSync(at, { throwIfNoEntry: false }) && dirname(at) !== at) {
    missing.unshift(at);
    at = dirname(at);
  }
  // The path itself is there: a folder is fine, anything else gets mkdir's own EEXIST.
  if (missing.length === 0 && !isFolder(at)) mkdirSync(at);
  let first: string | undefined;
  for (const folder of missing) {
    try {
      mkdirSync(folder);
      first ??= folder;
    } catch (error) {
      // Made meanwhile by someone else: fine, if it is a folder.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !isFolder(folder)) throw error;
    }
  }
  return first;
}
