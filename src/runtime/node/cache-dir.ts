import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the runtime keeps its HTTP cache and its verified copies of skills it runs:
 * `$SKILLDEX_CACHE_DIR`, else `$XDG_CACHE_HOME/skilldex`, else `~/.cache/skilldex`.
 *
 * @example
 * defaultCacheDir(); // '/home/me/.cache/skilldex'
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SKILLDEX_CACHE_DIR) return env.SKILLDEX_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'skilldex');
}
