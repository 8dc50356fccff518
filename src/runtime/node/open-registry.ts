import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRegistryIndex } from '../registry.ts';
import { SkilldexError } from '../skilldex-error.ts';
import { defaultCacheDir } from './cache-dir.ts';
import { fileTransport } from './file-transport.ts';
import { cachedHttpTransport } from './http-cache.ts';
import { NodeRegistry } from './node-registry.ts';
import { zodShapeCheck } from './zod-shape-check.ts';

export interface NodeOpenRegistryOptions {
  /** HTTP cache and run copies; defaults to {@link defaultCacheDir}. */
  cacheDir?: string;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
}

/**
 * Opens a registry by URL (`https://…`, cached on disk with ETag / Last-Modified revalidation) or
 * by local folder (the output of `skilldex build`). Without an argument, `$SKILLDEX_REGISTRY`.
 *
 * @example
 * import { openRegistry } from 'skilldex/node';
 * const registry = await openRegistry('https://skills.example.org/');
 * await registry.install('pdf', process.cwd(), { to: 'claude' });
 * const outcome = await registry.run('semver-tool', { a: '1.2.0', b: '1.10.0' }, { action: 'compare' });
 */
export async function openRegistry(urlOrDir: string | undefined = process.env.SKILLDEX_REGISTRY, options: NodeOpenRegistryOptions = {}): Promise<NodeRegistry> {
  if (!urlOrDir) {
    throw new SkilldexError('NO_REGISTRY', 'no registry given', { hint: 'pass --registry <url|dir> or set SKILLDEX_REGISTRY, e.g. SKILLDEX_REGISTRY=https://skills.example.org/' });
  }
  const cacheDir = resolve(options.cacheDir ?? defaultCacheDir());
  let transport;
  if (/^https?:\/\//i.test(urlOrDir)) {
    transport = cachedHttpTransport(urlOrDir, { cacheDir, fetch: options.fetch });
  } else {
    let dir = urlOrDir.startsWith('file:') ? fileURLToPath(urlOrDir) : urlOrDir;
    if (dir.endsWith('index.json')) dir = resolve(dir, '..');
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory()) throw new SkilldexError('NO_REGISTRY', `registry folder ${resolve(dir)} does not exist`, { hint: 'give an http(s) URL or the folder `skilldex build` wrote' });
    transport = fileTransport(dir);
  }
  const index = parseRegistryIndex(await transport.read('index.json'), transport.root, zodShapeCheck);
  return new NodeRegistry(index, transport, cacheDir);
}
