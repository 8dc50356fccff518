import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';

/**
 * The path with every link in its existing part resolved, so that `--out` through a link to the
 * root is seen for what it is; the part that does not exist yet is joined on as written.
 */
function realPath(path: string): string {
  let existing = resolve(path);
  const rest: string[] = [];
  while (!existsSync(existing) && dirname(existing) !== existing) {
    rest.unshift(basename(existing));
    existing = dirname(existing);
  }
  try {
    return join(realpathSync(existing), ...rest);
  } catch {
    return resolve(path);
  }
}

/** `inner` is `outer` or lies inside it. */
function within(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Why the registry at `root`, whose skills are in `skillsDir` (relative to it), must not be built
 * into `outDir`; undefined when it may. The folder may lie inside the root (dist/ does), not in the
 * skills folder, and may not be the root or hold it.
 */
export function outputPlaceProblem(root: string, skillsDir: string, outDir: string): string | undefined {
  const out = realPath(outDir);
  const base = realPath(root);
  const skills = realPath(join(root, skillsDir));
  if (out === base) return `the output folder ${outDir} is the registry root: the next build would publish this one's output as skills`;
  if (within(base, out)) return `the output folder ${outDir} holds the registry root ${root}: a build must not write over its own sources`;
  if (within(out, skills)) return `the output folder ${outDir} lies inside the skills folder ${join(root, skillsDir)}: the next build would take it for a skill`;
  if (within(skills, out)) return `the output folder ${outDir} holds the skills folder ${join(root, skillsDir)}: a build must not write over its own sources`;
  return undefined;
}
