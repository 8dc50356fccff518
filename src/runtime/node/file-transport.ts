import { constants, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { RegistryError } from '../../core/errors/registry-error.ts';
import { checkRegistryPath, type RegistryTransport } from '../transport.ts';

/** What a non-regular file is, for the message that refuses it. */
const kindOf = (info: Stats): string =>
  info.isDirectory() ? 'a folder' : info.isFIFO() ? 'a FIFO (named pipe)' : info.isCharacterDevice() ? 'a character device' : info.isBlockDevice() ? 'a block device' : info.isSocket() ? 'a socket' : 'an unknown kind of file';

/**
 * Reads a registry straight from a build folder (the `outDir` of `skilldex build`), e.g. for
 * local testing before deploying. Paths are confined to the folder.
 *
 * A folder is as untrusted as a server (it may be an unpacked download), and it can hold what a
 * server cannot send: a FIFO, whose open or read blocks for ever, or a link to `/dev/zero`, which
 * never ends. So every file is opened without blocking, read only when `fstat` says it is a
 * regular file, and read no further than the byte cap the same read has over HTTP
 * (`RESPONSE_TOO_LARGE`). A link to a regular file is followed: a deploy may build the folder out
 * of links.
 *
 * @example
 * const transport = fileTransport('./dist');
 */
export function fileTransport(dir: string): RegistryTransport {
  const root = resolve(dir);
  const locate = (relPath: string): string => {
    const target = resolve(root, checkRegistryPath(relPath));
    if (!target.startsWith(root + sep)) throw new RegistryError('INVALID_PATH', `${relPath} resolves outside ${root}`);
    return target;
  };
  // As over HTTP: a JSON document's limit is the client's own (SKILLDEX_MAX_INDEX_BYTES), a file's the size the registry declares.
  const tooLarge = (target: string, size: string, maxBytes: number) =>
    /\.json$/.test(target)
      ? new RegistryError('RESPONSE_TOO_LARGE', `${target} has ${size} bytes, more than the ${maxBytes} this client reads of a JSON document`, {
          hint: 'for a very large index.json or manifest, raise SKILLDEX_MAX_INDEX_BYTES; otherwise the build folder holds something else there: rebuild it',
        })
      : new RegistryError('RESPONSE_TOO_LARGE', `${target} has ${size} bytes, more than the ${maxBytes} the registry declares`, { hint: 'the build folder does not match its index; rebuild it' });
  return {
    root,
    locate,
    async read(relPath, options = {}) {
      const target = locate(relPath);
      const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
      let handle;
      try {
        // O_NONBLOCK makes opening a FIFO return at once (a blocking open waits for a writer that
        // never comes); for a regular file it changes nothing. Windows has no such flag, nor FIFOs.
        handle = await open(target, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
        const info = await handle.stat();
        if (!info.isFile()) {
          throw new RegistryError('FETCH_FAILED', `cannot read ${target}: it is ${kindOf(info)}, not a regular file`, {
            hint: 'a registry folder holds only the regular files `skilldex build` writes; rebuild it, or point --registry at one that does',
          });
        }
        if (info.size > maxBytes) throw tooLarge(target, String(info.size), maxBytes);
        // Read to the end, never past the cap: a file that grows while it is read is refused once
        // it passes the cap, not followed. The size fstat gave sizes the reads, one byte over it
        // to see the end in the same read.
        const chunks: Uint8Array[] = [];
        let received = 0;
        for (;;) {
          const wanted = received < info.size ? info.size - received + 1 : 64 * 1024;
          const chunk = new Uint8Array(Math.max(1, Math.min(wanted, maxBytes + 1 - received, 1024 * 1024)));
          const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
          if (bytesRead === 0) break;
          received += bytesRead;
          if (received > maxBytes) throw tooLarge(target, `more than ${maxBytes}`, maxBytes);
          chunks.push(chunk.subarray(0, bytesRead));
        }
        const bytes = new Uint8Array(received);
        let offset = 0;
        for (const chunk of chunks) {
          bytes.set(chunk, offset);
          offset += chunk.length;
        }
        options.onProgress?.(bytes.length, bytes.length);
        return bytes;
      } catch (error) {
        if (error instanceof RegistryError) throw error;
        const code = (error as NodeJS.ErrnoException).code;
        throw new RegistryError('FETCH_FAILED', `cannot read ${target}: ${code ?? (error as Error).message}`, {
          cause: error,
          hint: code === 'ENOENT' && relPath === 'index.json' ? `${root} holds no index.json; point --registry at the folder \`skilldex build\` wrote` : undefined,
        });
      } finally {
        await handle?.close().catch(() => {});
      }
    },
  };
}
