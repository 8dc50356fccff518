import { describeFailure, SkilldexError, type SkilldexErrorOptions } from '../core/errors/skilldex-error.ts';

/** Exit codes shared by every command. */
export const EXIT = {
  ok: 0,
  /** Validation errors, a failed run, a refused install: the input was at fault. */
  failure: 1,
  /** Bad usage: unknown command or flag, unreadable arguments. */
  usage: 2,
} as const;

/**
 * The error a command throws for a failure the user can act on, when it wants to say more than
 * the library error it caught (a hint naming a flag) or choose the exit code. `main` prints the
 * message and hint (never a stack trace) and turns `exitCode` into the process's.
 */
export class CliError extends SkilldexError {
  override name = 'CliError';
  readonly exitCode: number;

  constructor(code: string, message: string, options: SkilldexErrorOptions & { exitCode?: number } = {}) {
    super(code, message, options);
    this.exitCode = options.exitCode ?? EXIT.failure;
  }

  /** The CLI's codes only tell tests and scripts apart; the user reads the message and hint. */
  override get headline(): string {
    return this.message;
  }
}

/**
 * The one mapping from a thrown error to what the CLI prints and exits with: any
 * {@link SkilldexError} becomes its headline, hint and exit code (a `CliError`'s own, else 1).
 * Anything else is a bug; `undefined` lets it surface with its stack.
 */
export function cliFailure(error: unknown): { exitCode: number; message: string; hint: string | undefined } | undefined {
  if (!(error instanceof SkilldexError)) return undefined;
  const { text, hint } = describeFailure(error);
  return { exitCode: error instanceof CliError ? error.exitCode : EXIT.failure, message: text, hint };
}
