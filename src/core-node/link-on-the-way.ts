import { lstatSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * The first entry below `base` on the way to `target` (`target` included) that is a symbolic link,
 * relative to `base`; undefined when there is none, when the rest of the way does not exist yet
 * (it will be created as real folders), or when `target` is not below `base`. A command that writes
 * into a registry must not follow a link put on the way: through a category folder linked
 * elsewhere, `convert` rewrote a skill outside the registry, and `new` and `migrate` wrote through
 * a linked skills folder, which validate and build refuse.
 *
 * @example
 * linkOnTheWay('/repo', '/repo/skills/cat/x'); // 'skills/cat' when skills/cat is a link
 */
export function linkOnTheWay(base: string, target: string): string | undefined {
  const rel = relative(base, target);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  let at = base;
  for (const part of rel.split(sep)) {
    at = join(at, part);
    const info = lstatSync(at, { throwIfNoEntry: false });
    if (!info) return undefined;
    if (info.isSymbolicLink()) return relative(base, at);
  }
  return undefined;
}

/**
 * `target` when it is itself a symbolic link, wherever it lies, else the link {@link linkOnTheWay}
 * finds below `base`; as an absolute path. For a folder a command writes into, which may lie outside
 * the current folder (`--skill-dir /elsewhere`, `--out ../x`).
 */
export function linkAtOrOnTheWay(base: string, target: string): string | undefined {
  if (lstatSync(target, { throwIfNoEntry: false })?.isSymbolicLink()) return resolve(target);
  const link = linkOnTheWay(base, target);
  return link === undefined ? undefined : join(base, link);
}
