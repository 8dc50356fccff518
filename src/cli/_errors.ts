/**
 * The one error class of the CLI. A command throws it for a failure the user can act on; `main`
 * prints the message and hint (never a stack trace) and turns `exitCode` into the process's.
 */
export class CliError extends Error {
  override name = 'CliError';
  readonly code: string;
  readonly hint: string | undefined;
  readonly exitCode: number;

  constructor(code: string, message: string, options: { hint?: string; exitCode?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? 1;
  }
}

/** Exit codes shared by every command. */
export const EXIT = {
  ok: 0,
  /** Validation errors, a failed run, a refused install: the input was at fault. */
  failure: 1,
  /** Bad usage: unknown command or flag, unreadable arguments. */
  usage: 2,
} as const;
