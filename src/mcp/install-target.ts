import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, resolve, sep } from 'node:path';
import { AGENT_ALIASES, agentSkillFolder, installDestination } from '../runtime/node/install.ts';
import { RegistryError } from '../core/errors/registry-error.ts';

const inside = (root: string, path: string): boolean => path === root || path.startsWith(root + sep);

/** The real path of `path`'s nearest existing ancestor, joined with the part that does not exist yet. */
async function realish(path: string): Promise<string> {
  let existing = path;
  for (;;) {
    try {
      return resolve(await realpath(existing), path.slice(existing.length + 1) || '.');
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return path;
      existing = parent;
    }
  }
}

/**
 * Where `install_skill` may write: `target` is an agent (`claude`, `cursor`, … or one of their
 * folders, e.g. `.claude/skills`) under the install root, or a folder inside the install root.
 * Anything that would land outside it — `..`, an absolute path elsewhere, a symlink pointing out —
 * is refused. The destination is computed by the runtime's own `installDestination` (the folder
 * name comes from the registry) and checked again once symlinks are resolved.
 *
 * @example
 * await resolveInstallTarget('/work', 'claude', 'pdf');  // { dir: '/work', to: 'claude', dest: '/work/.claude/skills/pdf' }
 * await resolveInstallTarget('/work', '../etc', 'pdf'); // throws INSTALL_FAILED
 */
export async function resolveInstallTarget(installRoot: string, target: string, folderName: string): Promise<{ dir: string; to?: string; dest: string }> {
  const root = await realish(resolve(installRoot));
  const refuse = (why: string): never => {
    throw new RegistryError('INSTALL_FAILED', `install target ${JSON.stringify(target)} ${why}`, {
      hint: `use an agent (${Object.keys(AGENT_ALIASES).join(', ')}, cursor, codex, …) or a folder inside the install root ${root}`,
    });
  };
  if (target.includes('\0')) refuse('contains NUL');
  const agentFolder = agentSkillFolder(target);
  const base = agentFolder ? resolve(root, agentFolder) : isAbsolute(target) ? resolve(target) : resolve(root, target);
  if (!inside(root, base)) refuse('is outside the install root');
  const dest = await realish(agentFolder ? installDestination(root, folderName, target) : installDestination(base, folderName));
  if (!inside(root, dest) || dest === root) refuse(`would put ${JSON.stringify(folderName)} outside the install root`);
  return agentFolder ? { dir: root, to: target, dest } : { dir: base, dest };
}
