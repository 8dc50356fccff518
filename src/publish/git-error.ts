import { SkilldexError } from '../core/errors/skilldex-error.ts';

/**
 * A git command that failed; the message quotes the command and the first line git printed.
 *
 * @example
 * throw new GitError(['rev-parse', 'origin/main'], "fatal: ambiguous argument 'origin/main'");
 */
export class GitError extends SkilldexError<'GIT_FAILED'> {
  override name = 'GitError';
  readonly args: readonly string[];
  readonly stderr: string;

  constructor(args: readonly string[], stderr: string, cause?: unknown) {
    super('GIT_FAILED', `git ${args.join(' ')} failed: ${stderr.trim().split('\n')[0] ?? 'unknown error'}`, { cause });
    this.args = args;
    this.stderr = stderr;
  }
}
