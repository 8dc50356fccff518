import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MAX_INDEX_BYTES, parseRegistryIndex } from '../registry.ts';
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
  /** The most bytes read for index.json or one manifest: default `$SKILLDEX_MAX_INDEX_BYTES`, else 64 MiB. */
  maxIndexBytes?: number;
}

/** `$SKILLDEX_MAX_INDEX_BYTES` as a byte count, or the default. */
function maxIndexBytesFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SKILLDEX_MAX_INDEX_BYTES;
  if (raw === undefined || raw === '') return DEFAULT_MAX_INDEX_BYTES;
  if (!/^\d{1,15}$/.test(raw) || Number(raw) === 0) {
    throw new SkilldexError('NO_REGISTRY', `SKILLDEX_MAX_INDEX_BYTES must be a positive number of bytes, not ${JSON.stringify(raw)}`, { hint: 'e.g. SKILLDEX_MAX_INDEX_BYTES=134217728 for 128 MiB' });
  }
  return Number(raw);
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
  const maxBytes = options.maxIndexBytes ?? maxIndexBytesFromEnv();
  const index = parseRegistryIndex(await transport.read('index.json', { maxBytes }), transport.root, zodShapeCheck);
  return new NodeRegistry(index, transport, cacheDir, maxBytes);
}
