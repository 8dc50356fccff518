import { mayBeInGitCheckout } from './git-checkout.ts';
import { runGit } from './history/git-reader.ts';

/** What git said of the history, and whether it could say it: `read` is false when a repository may be there but git failed. */
export interface GitAnswer<T> {
  value: T;
  read: boolean;
}

/**
 * Last commit time of every path under `dir`, from one `git log` pass (one process for the
 * whole registry, not one per skill), keyed by path from `root` (`--relative`: a registry may be
 * a folder of a larger repository). Empty when `root` is not a git checkout.
 */
export async function gitCommitTimes(root: string, dir: string): Promise<GitAnswer<Map<string, number>>> {
  const times = new Map<string, number>();
  if (!mayBeInGitCheckout(root)) return { value: times, read: true };
  try {
    // `--ignore-missing HEAD`: a branch with no commit yet has an empty history, not a failure.
    const stdout = (await runGit(root, ['-c', 'core.quotepath=off', 'log', '--relative', '--format=@%ct', '--name-only', '--no-renames', '--ignore-missing', 'HEAD', '--', dir])).toString('utf8');
    let current = 0;
    for (const line of stdout.split('\n')) {
      if (line.startsWith('@')) current = Number(line.slice(1));
      else if (line && !times.has(line)) times.set(line, current); // newest first: keep the first seen
    }
    return { value: times, read: true };
  } catch {
    // Not a git checkout, or git missing: callers fall back to SOURCE_DATE_EPOCH.
    return { value: times, read: false };
  }
}

/** Latest commit time (seconds) of any file under `skillDir`, if git knows one. */
export function lastCommitTime(times: Map<string, number>, skillDir: string, files: readonly string[]): number | undefined {
  let latest: number | undefined;
  for (const f of files) {
    const t = times.get(`${skillDir}/${f}`);
    if (t !== undefined && (latest === undefined || t > latest)) latest = t;
  }
  return latest;
}

/**
 * Commit time (seconds) of the checkout's HEAD, if `root` is in a git checkout. Every change to
 * the registry is a new commit, so this only moves forward along the branch a registry is built
 * from, also when the change removes the newest skill or touches only the config: what a
 * client's rollback check needs from `generatedAt`.
 */
export async function headCommitTime(root: string): Promise<GitAnswer<number | undefined>> {
  if (!mayBeInGitCheckout(root)) return { value: undefined, read: true };
  try {
    const stdout = (await runGit(root, ['log', '-1', '--format=%ct', '--ignore-missing', 'HEAD'])).toString('utf8');
    const seconds = Number(stdout.trim());
    return { value: Number.isFinite(seconds) && stdout.trim() !== '' ? seconds : undefined, read: true };
  } catch {
    // Not a repository after all, or git missing or refusing.
    return { value: undefined, read: false };
  }
}
