import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { describeFailure, SkilldexError, type SkilldexErrorOptions } from '../core/errors/skilldex-error.ts';
import { closest } from '../core/suggest.ts';
import { printable } from './_output.ts';

/** Exit codes shared by every command. */
export const EXIT = {
  ok: 0,
  /** Validation errors, a failed run, a refused install: the input was at fault. */
  failure: 1,
  /** Bad usage: unknown command or flag, unreadable arguments. */
  usage: 2,
  /** Stopped by Ctrl+C (SIGINT), as a shell reports it: 128 + 2. */
  interrupted: 130,
  /** A bug in Skilldex: an error no command expected (sysexits' EX_SOFTWARE). */
  internal: 70,
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
 * A usage error for an option given a value outside its choices, with the choice probably meant.
 *
 * @example
 * throw choiceError('via', 'file', ['archive', 'files']); // --via must be archive or files, not 'file' / did you mean 'files'?
 */
export function choiceError(flag: string, value: string, choices: readonly string[]): CliError {
  const guess = closest(value, choices);
  const listed = choices.length === 2 ? choices.join(' or ') : `one of ${choices.join(', ')}`;
  return new CliError('E_USAGE', `--${flag} must be ${listed}, not '${printable(value)}'`, { exitCode: EXIT.usage, hint: guess ? `did you mean '${guess}'?` : `write --${flag} ${choices[0]}, for example` });
}

/** What a file system error means, and what to do about it, by its code. */
const SYSTEM_ERRORS: Record<string, { reason: string; hint: string }> = {
  ENOENT: { reason: 'no such file or folder', hint: 'check the path: every folder on the way must exist' },
  ENOTDIR: { reason: 'a part of the path is a file, not a folder', hint: 'check the path: a file stands where a folder should be' },
  EEXIST: { reason: 'a file is in the way', hint: 'choose another path, or move the file that is there' },
  EISDIR: { reason: 'it is a folder, not a file', hint: 'name a file, not a folder' },
  EACCES: { reason: 'permission denied', hint: "check the permissions of the path and the folders on the way" },
  EPERM: { reason: 'operation not permitted', hint: "check the permissions of the path and the folders on the way" },
  EROFS: { reason: 'the file system is read-only', hint: 'choose a path on a writable file system' },
  ENOSPC: { reason: 'no space left on the device', hint: 'free some space, or choose a path on another disk' },
  EMFILE: { reason: 'too many open files', hint: "raise the limit of open files ('ulimit -n') and run it again" },
  ENAMETOOLONG: { reason: 'the path is too long', hint: 'choose a shorter path' },
  ELOOP: { reason: 'too many symbolic links on the way', hint: 'check the links on the path' },
};

/** An error from the operating system (a failed open, mkdir, write), as Node raises it. */
function systemError(error: unknown): (Error & { code: string; syscall?: string; path?: string; dest?: string }) | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code } = error as { code?: unknown };
  return typeof code === 'string' && Object.hasOwn(SYSTEM_ERRORS, code) ? (error as Error & { code: string }) : undefined;
}

/** A file system error's reason in words, with its code ("no such file or folder (ENOENT)"); undefined for any other error. */
export function systemReason(error: unknown): string | undefined {
  const system = systemError(error);
  return system && `${SYSTEM_ERRORS[system.code]!.reason} (${system.code})`;
}

/**
 * Library errors that are the invocation's fault, not the input's: a malformed environment
 * variable is bad usage, as a malformed option value is. By code, so that mapping them loads no
 * library module.
 */
const USAGE_CODES: ReadonlySet<string> = new Set(['SOURCE_DATE_EPOCH_INVALID']);

/**
 * The one mapping from a thrown error to what the CLI prints and exits with: any
 * {@link SkilldexError} becomes its headline, hint and exit code (a `CliError`'s own, 2 for bad
 * usage, else 1); a file system error (a path that is a file, a folder that cannot be written) says which path and
 * why, and exits 1. Anything else is a bug; `undefined` lets it surface with its stack.
 */
export function cliFailure(error: unknown): { exitCode: number; message: string; hint: string | undefined } | undefined {
  const system = systemError(error);
  if (system) {
    const target = system.path === undefined ? '' : ` ${printable(system.path)}`;
    const action = system.syscall ? `cannot ${system.syscall}${target}` : `failed${target}`;
    // mkdir answers ENOENT under a folder that exists where nothing may be created (/proc, /sys).
    const refused = system.code === 'ENOENT' && system.syscall === 'mkdir' && system.path !== undefined && statSync(dirname(system.path), { throwIfNoEntry: false })?.isDirectory();
    return { exitCode: EXIT.failure, message: `${action}: ${systemReason(system)}`, hint: refused ? 'the folder above it exists, but the system lets nothing be created there; choose another path' : SYSTEM_ERRORS[system.code]!.hint };
  }
  if (!(error instanceof SkilldexError)) return undefined;
  const { text, hint } = describeFailure(error);
  return { exitCode: error instanceof CliError ? error.exitCode : USAGE_CODES.has(error.code) ? EXIT.usage : EXIT.failure, message: text, hint };
}
