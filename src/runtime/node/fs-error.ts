import { RegistryError } from '../../core/errors/registry-error.ts';

/** What to tell the user for the file-system errors a path they chose can cause. */
const HINTS: Record<string, { code: 'INVALID_PATH' | 'INSTALL_FAILED'; why: string; hint: string }> = {
  ENAMETOOLONG: { code: 'INVALID_PATH', why: 'the path is too long for the file system', hint: 'choose a shorter --dir or --cache-dir' },
  ENOTDIR: { code: 'INVALID_PATH', why: 'a part of the path is a file, not a folder', hint: 'choose a --dir whose parents are folders' },
  EACCES: { code: 'INSTALL_FAILED', why: 'permission denied', hint: 'choose a folder you can write to' },
  EPERM: { code: 'INSTALL_FAILED', why: 'operation not permitted', hint: 'choose a folder you can write to' },
  EROFS: { code: 'INSTALL_FAILED', why: 'the file system is read-only', hint: 'choose a writable folder' },
  ENOSPC: { code: 'INSTALL_FAILED', why: 'the disk is full', hint: 'free some space and retry' },
  ELOOP: { code: 'INVALID_PATH', why: 'the path has too many symbolic links', hint: 'choose a folder without a symbolic-link loop' },
};

/**
 * Turns a Node file-system error into a `RegistryError` naming the path, so the CLI prints a code
 * and a hint instead of a stack trace. Other errors pass through unchanged.
 *
 * @example
 * await mkdir(dest).catch((e) => { throw fsError(e, dest); });
 */
export function fsError(error: unknown, path: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const known = code ? HINTS[code] : undefined;
  if (!known || error instanceof RegistryError) return error;
  const shown = path.length > 200 ? `${path.slice(0, 120)}…${path.slice(-60)} (${path.length} characters)` : path;
  return new RegistryError(known.code, `cannot write ${shown}: ${known.why} (${code})`, { cause: error, hint: known.hint });
}
