import { join, relative, sep } from 'node:path';
import { stat } from 'node:fs/promises';
import type { RegistryConfig } from '../core/schemas/config.ts';
import { shellQuote } from '../core/shell-quote.ts';
import { loadConfig } from '../pipeline/config.ts';
import { ConfigError } from '../pipeline/config-error.ts';
import { folderKind, type FolderKind } from '../pipeline/discover.ts';
import { CliError, EXIT } from './_errors.ts';
import { printable } from './_output.ts';

/** A path as the user should read it: relative to `base` (the current folder), `/`-separated. */
export const displayPath = (base: string, abs: string): string => relative(base, abs).split(sep).join('/') || '.';

/** What to say about a folder that is not what a command expected. */
export function notUsable(kind: FolderKind, shown: string, wanted = 'the folder that holds SKILL.md or skill.json'): CliError | undefined {
  const name = printable(shown);
  if (kind === 'missing') return new CliError('E_NOT_FOUND', `${name} does not exist`, { hint: 'check the path; it is taken relative to the current folder', exitCode: EXIT.usage });
  if (kind === 'loop') return new CliError('E_NOT_FOUND', `${name} is a symbolic link that leads round a loop, never to a folder`, { hint: 'point the link at the folder, or pass the folder itself', exitCode: EXIT.usage });
  if (kind === 'denied') return new CliError('E_NOT_FOUND', `${name} cannot be reached: a folder on the way may not be searched (permission denied)`, { hint: 'check the permissions of the folders on the way (chmod a+x), or run as a user who may read them', exitCode: EXIT.usage });
  if (kind === 'file') return new CliError('E_NOT_A_FOLDER', `${name} is not a folder`, { hint: `pass ${wanted}, not a file`, exitCode: EXIT.usage });
  return undefined;
}

/** The registry's config; a broken config file is the input's fault (exit 1), reported with its line. */
export async function registryConfig(root: string): Promise<RegistryConfig> {
  try {
    return await loadConfig(root);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError('E_CONFIG', error.message, { hint: error.hint ?? 'fix skilldex.config.json; its schema is schemas/config.schema.json' });
    throw error;
  }
}

/**
 * The registry at `root` (`--root`), or a usage error that says what the folder is instead and
 * what to run: a missing path, a file, a skill folder, a folder of skills, or a folder with
 * nothing of Skilldex in it. A registry whose skills folder exists but is empty is returned:
 * it is a registry with no skills yet.
 */
export async function requireRegistryRoot(root: string, shown: string, command: 'validate' | 'build'): Promise<RegistryConfig> {
  const kind = await folderKind(root);
  const unusable = notUsable(kind, shown, command === 'build' ? 'the registry root, the folder that holds skills/' : undefined);
  if (unusable) throw unusable;
  const config = await registryConfig(root);
  if ((await stat(join(root, config.skillsDir)).catch(() => undefined))?.isDirectory()) return config;
  const name = printable(shown);
  const layout = `a registry keeps its skills in ${config.skillsDir}/<name>/ (or ${config.skillsDir}/<category>/<name>/), each with SKILL.md or skill.json`;
  const hint =
    kind === 'skill'
      ? command === 'validate'
        ? `${name} is a skill folder; check it with: skilldex validate ${shellQuote(name)}`
        : `${name} is a skill folder; ${layout}`
      : kind === 'skills'
        ? command === 'validate'
          ? `${name} is a folder of skills; check it with: skilldex validate ${shellQuote(name)}`
          : `${name} is a folder of skills: pass its parent as --root, with "skillsDir" set in skilldex.config.json if it is not named ${config.skillsDir}`
        : `${layout}; 'skilldex new <name>' creates one`;
  throw new CliError('E_NO_SKILLS', `${name} has no ${config.skillsDir}/ folder, so there is nothing to ${command}`, { hint, exitCode: EXIT.usage });
}
