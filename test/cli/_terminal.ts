import { execFile } from 'node:child_process';
import { CLI } from '../helpers/cli.ts';

export interface TerminalResult {
  status: number;
  /** Everything the terminal received: stdout and stderr together, with \r and escape codes. */
  output: string;
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * Runs the real CLI on a real pseudo-terminal (util-linux `script`), so stdout and stderr are
 * both TTYs, as in an interactive shell.
 */
export function runInTerminal(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<TerminalResult> {
  const command = [process.execPath, CLI, ...args].map(quote).join(' ');
  return new Promise((resolve) => {
    // -q: no "Script started" banner; -f: flush as written; -e: exit with the command's status.
    execFile('script', ['-qfec', command, '/dev/null'], { cwd, env: { TERM: 'xterm', ...env }, timeout: 60_000 }, (error, stdout) =>
      resolve({ status: error ? Number((error as { code?: number }).code ?? 1) : 0, output: stdout }));
  });
}
