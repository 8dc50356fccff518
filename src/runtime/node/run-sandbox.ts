import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeTree } from './install.ts';

/**
 * Environment variables a skill process may see (children inherit everything
 * unless given an allowlist). Tokens, keys and cloud credentials in the agent's environment stay
 * there. HOME is replaced by an empty folder of the run's own, so `~/.ssh` or `~/.aws` are not
 * where the script looks.
 */
export const INHERITED_ENV = ['PATH', 'LANG', 'LC_ALL', 'TZ'] as const;

export interface RunSandbox {
  /** The process's working directory: empty, created for this run. */
  cwd: string;
  /** Its HOME. */
  home: string;
  env: Record<string, string>;
  /** Deletes the run's folders (and anything the script left there). */
  dispose(): Promise<void>;
}

/**
 * A fresh temporary folder pair (cwd and HOME) and the allowlisted environment for one run.
 *
 * @example
 * const sandbox = await createRunSandbox('/cache/skills/pdf/0123', { debug: true });
 * try { … } finally { await sandbox.dispose(); }
 */
export async function createRunSandbox(skillDir: string, options: { debug?: boolean; env?: Record<string, string> } = {}): Promise<RunSandbox> {
  const root = await mkdtemp(join(tmpdir(), 'skilldex-run-'));
  const cwd = join(root, 'work');
  const home = join(root, 'home');
  await mkdir(cwd);
  await mkdir(home);
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  env.HOME = home;
  env.SKILL_DIR = skillDir;
  // Python would otherwise write __pycache__ next to the scripts; the installed copy is read-only
  // and is re-verified before every run.
  env.PYTHONDONTWRITEBYTECODE = '1';
  env.PYTHONIOENCODING = 'utf-8';
  if (options.debug || process.env.SKILL_DEBUG === '1') env.SKILL_DEBUG = '1';
  Object.assign(env, options.env ?? {});
  return { cwd, home, env, dispose: () => removeTree(root) };
}
