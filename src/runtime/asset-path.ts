import { pathProblem } from '../core/paths.ts';
import { RegistryError } from '../core/errors/registry-error.ts';

/** The skills manager's rule: assets may only be read from these folders of a skill. */
export const ASSET_FOLDERS = ['references/', 'assets/', 'scripts/'] as const;

/**
 * Checks a path an agent asked for (`load_skill_asset`). The request comes from a model,
 * so anything that could name a file outside the skill's asset folders is refused outright rather
 * than normalised: `..`, absolute and drive paths, backslashes, NUL, and percent-encoding (a
 * `%2e%2e` or `%2f` that some later layer might decode).
 *
 * @example
 * checkAssetPath('references/REFERENCE.md');  // 'references/REFERENCE.md'
 * checkAssetPath('references/../SKILL.md');   // throws INVALID_PATH
 */
export function checkAssetPath(relPath: string): string {
  const refuse = (why: string): never => {
    throw new RegistryError('INVALID_PATH', `asset path ${JSON.stringify(relPath)} ${why}`, {
      hint: `ask for a relative path under ${ASSET_FOLDERS.join(', ')} exactly as the skill's list of assets gives it ('skilldex assets <skill>')`,
    });
  };
  if (relPath.includes('\0')) refuse('contains NUL');
  if (relPath.includes('\\')) refuse('contains a backslash');
  if (/%[0-9a-f]{2}/i.test(relPath)) refuse('contains percent-encoding');
  if (/^[a-z]:/i.test(relPath) || relPath.startsWith('~')) refuse('is absolute');
  const problem = pathProblem(relPath);
  if (problem) refuse(problem);
  if (!ASSET_FOLDERS.some((folder) => relPath.startsWith(folder) && relPath.length > folder.length)) {
    refuse(`is not under ${ASSET_FOLDERS.join(', ')}`);
  }
  return relPath;
}

/** True for a published file an agent may read through the asset operations. */
export const isAssetPath = (relPath: string): boolean => ASSET_FOLDERS.some((folder) => relPath.startsWith(folder));
