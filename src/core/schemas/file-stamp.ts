import { z } from 'zod';

/** A path inside an output folder: relative, and never out of it through a `..` segment. */
const PathInFolder = z.string().refine((p) => p.length > 0 && !p.startsWith('/') && !p.split('/').includes('..'), 'must be a path inside the folder');

/**
 * A file a build wrote, as a later build checks it is still there unchanged: its path in the
 * output folder, with the size, mtime and inode it had once written (src/core-node/file-stamp.ts).
 */
export const FileStamp = z.tuple([PathInFolder, z.number(), z.number(), z.number()]);
export type FileStamp = z.infer<typeof FileStamp>;
