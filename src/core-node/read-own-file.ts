import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/**
 * Opens `path` for reading without following a link (O_NOFOLLOW) and without blocking on a pipe
 * (O_NONBLOCK), with what is there: a listing or an `lstat` said a regular file stood at the path,
 * and a link or a FIFO put in its place since must not be read through or waited on. Undefined for
 * a link; other errors are thrown. The caller checks `info.isFile()` and closes `fd`.
 */
export function openNoFollow(path: string): { fd: number; info: Stats } | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') return undefined;
    throw error;
  }
  try {
    return { fd, info: fstatSync(fd) };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * The bytes of the regular file at `path`, `null` when nothing is there, undefined for anything
 * else: a folder, a pipe, a device, a file over `maxBytes`, a link unless `followLinks`, an error.
 * For files a build reads beside the skills, which a pull request or anyone who can write a
 * folder above the registry may have put there: as a link to /dev/zero or a FIFO they made the
 * build read forever or until memory ran out. The file is opened without blocking, then checked.
 */
export function readRegularFile(path: string, maxBytes: number, { followLinks = false }: { followLinks?: boolean } = {}): Buffer | null | undefined {
  let opened: { fd: number; info: Stats } | undefined;
  try {
    opened = followLinks ? openFollowing(path) : openNoFollow(path);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
  if (!opened) return undefined;
  const { fd, info } = opened;
  try {
    if (!info.isFile() || info.size > maxBytes) return undefined;
    const buffer = Buffer.allocUnsafe(info.size);
    let read = 0;
    while (read < info.size) {
      const n = readSync(fd, buffer, read, info.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** {@link openNoFollow}'s twin for a file whose path may be a link (the config file). */
function openFollowing(path: string): { fd: number; info: Stats } {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    return { fd, info: fstatSync(fd) };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * The text of a file a build keeps for itself (its cache, the record of its last build), or
 * undefined when the path holds anything but a regular file of at most `maxBytes`: such files live
 * in the repository being built, where a pull request can commit them, and no link is followed.
 */
export const readOwnFile = (path: string, maxBytes: number): string | undefined => readRegularFile(path, maxBytes)?.toString('utf8');
