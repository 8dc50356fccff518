import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import tar from 'tar-stream';
import type { SkillManifest } from '../../core/schemas/manifest.ts';
import { RegistryError } from '../../core/errors/registry-error.ts';
import { MAX_SKILL_BYTES } from '../verify.ts';

/**
 * The most bytes a skill's archive can take, from the sizes its manifest declares: per file the
 * bytes padded to 512, a header, a long-name (PAX) header and a folder entry per path segment;
 * then the tar end blocks and record padding; gzip adds at most ~0.1 % to incompressible data.
 * A download or an inflation past these is refused as soon as it passes them.
 *
 * @example
 * archiveSizeBound(manifest); // { tar: 12800, gzip: 13836 }
 */
/**
 * The most tar any archive inflates to, whatever its manifest lists: the files' ceiling and room
 * for their headers. A manifest of 600,000 empty files fits in 64 MiB and bounds its archive at
 * nearly 1 GB, all of it headers; without this cap the download alone would be read into memory
 * that far, to be refused only when it inflated past this.
 */
const MAX_TAR_BYTES = MAX_SKILL_BYTES + 64 * 1024 * 1024;

export function archiveSizeBound(manifest: Pick<SkillManifest, 'files'>): { tar: number; gzip: number } {
  let tarBytes = 10240;
  const folders = new Set<string>();
  for (const file of manifest.files) {
    tarBytes += Math.ceil(file.size / 512) * 512 + entryBound(file.path);
    for (let at = file.path.indexOf('/'); at !== -1; at = file.path.indexOf('/', at + 1)) folders.add(file.path.slice(0, at + 1));
  }
  // One entry per folder, as a build writes them: a file 150 folders deep brings 150 of them.
  for (const folder of folders) tarBytes += entryBound(folder);
  tarBytes = Math.min(tarBytes, MAX_TAR_BYTES);
  return { tar: tarBytes, gzip: tarBytes + Math.ceil(tarBytes / 1000) + 1024 };
}

/**
 * The most one entry's headers take: its own 512-byte header, and for a name too long for one a
 * PAX header before it (a header block and the blocks holding `NN path=<name>` and a little more).
 */
const entryBound = (path: string): number => 1024 + 512 * Math.ceil((path.length + 64) / 512);

const inflate = promisify(gunzip);
/** Every refusal of an archive: what it means for the user, and that nothing reached their disk. */
const NOT_WRITTEN = "the archive does not match what its manifest publishes (a broken or forged registry); nothing was written. Report it to the registry's maintainers";

/**
 * Reads a skill archive (`.tar.gz`, files at the root) into memory, nothing on disk. Only regular
 * files and folders are accepted: a symlink, hard link or device entry is refused, because writing
 * it could point outside the install folder. The caller verifies the result against the manifest.
 *
 * @example
 * const files = await readSkillArchive(bytes); // Map { 'SKILL.md' => Uint8Array, … }
 */
export async function readSkillArchive(gz: Uint8Array, name = 'archive', maxTarBytes = MAX_SKILL_BYTES): Promise<Map<string, Uint8Array>> {
  // Inflated on libuv's thread pool, not the event loop: an MCP server keeps answering meanwhile.
  const limit = Math.min(maxTarBytes, MAX_TAR_BYTES);
  let tarBytes: Buffer;
  try {
    tarBytes = await inflate(gz, { maxOutputLength: limit });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new RegistryError('VERIFICATION_FAILED', `${name}: the archive inflates past ${limit} bytes, more than the files its manifest declares`, { cause: error, hint: NOT_WRITTEN });
    }
    throw new RegistryError('VERIFICATION_FAILED', `${name}: the archive is not valid gzip (${(error as Error).message})`, { cause: error, hint: NOT_WRITTEN });
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
        throw new RegistryError('VERIFICATION_FAILED', `${name}: archive entry ${JSON.stringify(path)} is a ${type}; only regular files are allowed`, { hint: NOT_WRITTEN });
      }
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      const key = path.replace(/^\.\//, '');
      if (files.has(key)) throw new RegistryError('VERIFICATION_FAILED', `${name}: archive holds ${JSON.stringify(key)} twice`, { hint: NOT_WRITTEN });
      files.set(key, new Uint8Array(Buffer.concat(chunks)));
    }
  })();
  Readable.from([tarBytes]).pipe(extract);
  try {
    await done;
  } catch (error) {
    extract.destroy();
    if (error instanceof RegistryError) throw error;
    throw new RegistryError('VERIFICATION_FAILED', `${name}: the archive is not a valid tar (${(error as Error).message})`, { cause: error, hint: NOT_WRITTEN });
  }
  return files;
}
