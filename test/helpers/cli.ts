import { execFile } from 'node:child_process';
import { join } from 'node:path';

export const REPO = join(import.meta.dirname, '..', '..');
export const CLI = join(REPO, 'bin', 'skilldex.mjs');

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `skilldex` CLI in a child process, asynchronously: tests often serve a registry
 * from this process, which must keep answering while the CLI runs.
 */
export function runSkilldex(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' }): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd, env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ status: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

/**
 * Runs the CLI as {@link runSkilldex} does, without root's power to read and write any file
 * (CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH dropped with setpriv), or as this user when not root:
 * a folder's permissions then apply as they do for a publisher.
 */
export function runSkilldexUnprivileged(cwd: string, args: readonly string[]): Promise<CliResult> {
  const command = process.getuid?.() === 0 ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search', process.execPath] : [process.execPath];
  return new Promise((resolve) => {
    execFile(command[0]!, [...command.slice(1), CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ status: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}
