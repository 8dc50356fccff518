import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, resolve, sep } from 'node:path';
import { AGENT_SKILL_FOLDERS } from '../runtime/node/install.ts';
import { SkilldexError } from '../runtime/skilldex-error.ts';

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
 * Where `install_skill` may write: `target` is an agent folder name (`claude`, `agents`, or the
 * folder itself) under the install root, or a folder inside the install root. Anything that would
 * land outside it — `..`, an absolute path elsewhere, a symlink pointing out — is refused. The
 * final skill folder is checked again, since its name comes from the registry.
 *
 * @example
 * await resolveInstallTarget('/work', 'claude', 'pdf');  // { dir: '/work', to: 'claude', dest: '/work/.claude/skills/pdf' }
 * await resolveInstallTarget('/work', '../etc', 'pdf'); // throws INSTALL_FAILED
 */
export async function resolveInstallTarget(installRoot: string, target: string, name: string): Promise<{ dir: string; to?: string; dest: string }> {
  const root = await realish(resolve(installRoot));
  const refuse = (why: string): never => {
    throw new SkilldexError('INSTALL_FAILED', `install target ${JSON.stringify(target)} ${why}`, {
      hint: `use ${Object.keys(AGENT_SKILL_FOLDERS).join(' or ')}, or a folder inside the install root ${root}`,
    });
  };
  if (target.includes('\0')) refuse('contains NUL');
  const agentFolder = (AGENT_SKILL_FOLDERS as Record<string, string>)[target] ?? Object.values(AGENT_SKILL_FOLDERS).find((folder) => folder === target.replace(/\/+$/, ''));
  const base = agentFolder ? resolve(root, agentFolder) : isAbsolute(target) ? resolve(target) : resolve(root, target);
  if (!inside(root, base)) refuse('is outside the install root');
  const dest = await realish(resolve(base, name));
  if (!inside(root, dest) || dest === root || dest === base) refuse(`would put ${JSON.stringify(name)} outside the install root`);
  return agentFolder ? { dir: root, to: target, dest } : { dir: base, dest };
}
