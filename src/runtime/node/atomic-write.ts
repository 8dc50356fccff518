import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { makeFolder } from '../../core-node/make-folder.ts';

/**
 * Writes a file so that readers see the old content or the new, never a torn write: the bytes go
 * to a temporary file beside the target, which is then renamed over it.
 */
export async function writeFileAtomic(path: string, data: Uint8Array | string, mode?: number): Promise<void> {
  makeFolder(dirname(path));
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, data, mode === undefined ? {} : { mode });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
