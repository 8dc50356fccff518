import { readFile, stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { RegistryError } from '../../core/errors/registry-error.ts';
import { checkRegistryPath, type RegistryTransport } from '../transport.ts';

/**
 * Reads a registry straight from a build folder (the `outDir` of `skilldex build`), e.g. for
 * local testing before deploying. Paths are confined to the folder.
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
  return {
    root,
    locate,
    async read(relPath, options = {}) {
      const target = locate(relPath);
      try {
        const size = (await stat(target)).size;
        if (options.maxBytes !== undefined && size > options.maxBytes) {
          throw new RegistryError('RESPONSE_TOO_LARGE', `${target} has ${size} bytes, more than the ${options.maxBytes} the registry declares`, { hint: 'the build folder does not match its index; rebuild it' });
        }
        const bytes = new Uint8Array(await readFile(target));
        options.onProgress?.(bytes.length, bytes.length);
        return bytes;
      } catch (error) {
        if (error instanceof RegistryError) throw error;
        const code = (error as NodeJS.ErrnoException).code;
        throw new RegistryError('FETCH_FAILED', `cannot read ${target}: ${code ?? (error as Error).message}`, {
          cause: error,
          hint: code === 'ENOENT' && relPath === 'index.json' ? `${root} holds no index.json; point --registry at the folder \`skilldex build\` wrote` : undefined,
        });
      }
    },
  };
}
