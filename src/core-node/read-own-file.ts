import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * The text of a file a build keeps for itself (its cache, the record of its last build), or
 * undefined when the path holds anything but a regular file of at most `maxBytes`. Such files
 * live in the repository being built, where a pull request can commit them: as a link to
 * /dev/zero or a FIFO they made the build read forever, and a plain read follows a link out of
 * the checkout. The file is opened without following a link and without blocking, then checked.
 */
export function readOwnFile(path: string, maxBytes: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > maxBytes) return undefined;
    const buffer = Buffer.allocUnsafe(info.size);
    let read = 0;
    while (read < info.size) {
      const n = readSync(fd, buffer, read, info.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.toString('utf8', 0, read);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
