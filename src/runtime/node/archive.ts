import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { SkilldexError } from '../skilldex-error.ts';

/** Refuse archives that would inflate past this (a skill is capped far lower by the registry). */
const MAX_UNPACKED_BYTES = 256 * 1024 * 1024;

/**
 * Reads a skill archive (`.tar.gz`, files at the root) into memory, nothing on disk. Only regular
 * files and folders are accepted: a symlink, hard link or device entry is refused, because writing
 * it could point outside the install folder. The caller verifies the result against the manifest.
 *
 * @example
 * const files = await readSkillArchive(bytes); // Map { 'SKILL.md' => Uint8Array, … }
 */
export async function readSkillArchive(gz: Uint8Array, name = 'archive'): Promise<Map<string, Uint8Array>> {
  let tarBytes: Buffer;
  try {
    tarBytes = gunzipSync(gz, { maxOutputLength: MAX_UNPACKED_BYTES });
  } catch (error) {
    throw new SkilldexError('VERIFICATION_FAILED', `${name}: the archive is not valid gzip (${(error as Error).message})`, { cause: error });
  }
  const files = new Map<string, Uint8Array>();
  const extract = tar.extract();
  const done = (async () => {
    for await (const entry of extract) {
      const { name: path, type } = entry.header;
      if (type === 'directory') {
        entry.resume();
        continue;
      }
      if (type !== 'file' && type !== 'contiguous-file') {
        entry.resume();
        throw new SkilldexError('VERIFICATION_FAILED', `${name}: archive entry '${path}' is a ${type}; only regular files are allowed`);
      }
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      const key = path.replace(/^\.\//, '');
      if (files.has(key)) throw new SkilldexError('VERIFICATION_FAILED', `${name}: archive holds '${key}' twice`);
      files.set(key, new Uint8Array(Buffer.concat(chunks)));
    }
  })();
  Readable.from([tarBytes]).pipe(extract);
  try {
    await done;
  } catch (error) {
    extract.destroy();
    if (error instanceof SkilldexError) throw error;
    throw new SkilldexError('VERIFICATION_FAILED', `${name}: the archive is not a valid tar (${(error as Error).message})`, { cause: error });
  }
  return files;
}
