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
