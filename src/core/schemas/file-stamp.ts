import { z } from 'zod';

/**
 * Whether `p` is a path inside an output folder as a build writes one: relative, `/`-separated and
 * in normal form (no empty, `.` or `..` segment, no backslash or NUL). Builds compare recorded paths
 * with their own and keep or remove files by them, and the records lie where others may write (a CI
 * cache restores them): `./index.json` would name the index just written under another spelling,
 * `/x` or `a/../b` a file out of its place. A name with two dots in a row (`notes..v2.md`) is a
 * file like any other.
 */
export const isPathInFolder = (p: unknown): p is string =>
  typeof p === 'string' && p.length > 0 && !/[\\\0]/.test(p) && !p.startsWith('/') && p.split('/').every((s) => s !== '' && s !== '.' && s !== '..');

const PathInFolder = z.string().refine(isPathInFolder, 'must be a path inside the folder');

/**
 * A file a build wrote, as a later build checks it is still there unchanged: its path in the
 * output folder, with the size, mtime and inode it had once written (src/core-node/file-stamp.ts).
 */
export const FileStamp = z.tuple([PathInFolder, z.number(), z.number(), z.number()]);
export type FileStamp = z.infer<typeof FileStamp>;
