import { lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { FileStamp } from '../core/schemas/file-stamp.ts';

/**
 * The stat facts of the regular file at `path`, of `size` bytes when given; undefined when there is
 * none (nothing, a folder, a link, or a file of another size).
 */
export function regularFile(path: string, size?: number): Stats | undefined {
  try {
    const info = lstatSync(path);
    return info.isFile() && (size === undefined || info.size === size) ? info : undefined;
  } catch {
    return undefined;
  }
}

export const stampOf = (rel: string, info: Pick<Stats, 'size' | 'mtimeMs' | 'ino'>): FileStamp => [rel, info.size, info.mtimeMs, info.ino];

/** The stamp of `rel` in `dir` as it is now, or undefined when it is not a regular file there. */
export function stampAt(dir: string, rel: string): FileStamp | undefined {
  const info = regularFile(join(dir, rel));
  return info && stampOf(rel, info);
}

/** The file `stamp` names is still a regular file in `dir` with the size, mtime and inode it records. */
export function unchanged(dir: string, [rel, size, mtimeMs, ino]: FileStamp): boolean {
  const info = regularFile(join(dir, rel), size);
  return info !== undefined && info.mtimeMs === mtimeMs && info.ino === ino;
}
