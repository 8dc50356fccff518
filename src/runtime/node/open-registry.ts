import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MAX_INDEX_BYTES, parseRegistryIndex } from '../registry.ts';
import { RegistryError } from '../../core/errors/registry-error.ts';
import { defaultCacheDir } from './cache-dir.ts';
import { fileTransport } from './file-transport.ts';
import { cachedHttpTransport } from './http-cache.ts';
import { NodeRegistry } from './node-registry.ts';
import { zodShapeCheck } from './zod-shape-check.ts';
import { KeysDocument } from '../../core/schemas/signing.ts';
import { KEYS_FILE } from '../../core/signing.ts';
import { parseJsonDocument } from '../json-document.ts';
import { oncePastCache, type RegistryTransport } from '../transport.ts';
import { checkRollback, readSignedIndex, readSigningFile } from '../trust.ts';
import { defaultConfigDir, TrustStore } from './trust-store.ts';


export interface NodeOpenRegistryOptions {
  /** HTTP cache and run copies; defaults to {@link defaultCacheDir}. */
  cacheDir?: string;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
  /** The most bytes read for index.json or one manifest: default `$SKILLDEX_MAX_INDEX_BYTES`, else 64 MiB. */
  maxIndexBytes?: number;
  /**
   * Public keys (`ed25519:<base64url>`) the index must be signed by. Default: the keys pinned for
   * this registry in the client's config (`trust.json` in {@link defaultConfigDir}).
   */
  trust?: readonly string[];
  /**
   * With no key pinned: pin the registry's active keys from its `keys.json` now, and verify
   * against them from then on. Only when the user asks: the first read is then trusted blindly.
   */
  trustOnFirstUse?: boolean;
  /** The client's config folder (pinned keys); defaults to {@link defaultConfigDir}. */
  configDir?: string;
  /** Called once per registry, ever, when it is read without a pinned key. */
  onUnverified?: (root: string) => void;
}

/** `$SKILLDEX_NETWORK_TIMEOUT_MS`: how long a request may make no progress (see DEFAULT_STALL_MS). */
export function stallMsFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.SKILLDEX_NETWORK_TIMEOUT_MS;
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) === 0) {
    throw new RegistryError('NO_REGISTRY', `SKILLDEX_NETWORK_TIMEOUT_MS must be a positive number of milliseconds, not ${JSON.stringify(raw)}`, { hint: 'e.g. SKILLDEX_NETWORK_TIMEOUT_MS=60000' });
  }
  return Number(raw);
}

/** `$SKILLDEX_MAX_INDEX_BYTES` as a byte count, or the default. */
export function maxIndexBytesFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SKILLDEX_MAX_INDEX_BYTES;
  if (raw === undefined || raw === '') return DEFAULT_MAX_INDEX_BYTES;
  if (!/^\d{1,15}$/.test(raw) || Number(raw) === 0) {
    throw new RegistryError('NO_REGISTRY', `SKILLDEX_MAX_INDEX_BYTES must be a positive number of bytes, not ${JSON.stringify(raw)}`, { hint: 'e.g. SKILLDEX_MAX_INDEX_BYTES=134217728 for 128 MiB' });
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
    throw new RegistryError('NO_REGISTRY', 'no registry given', { hint: 'pass --registry <url|dir> or set SKILLDEX_REGISTRY, e.g. SKILLDEX_REGISTRY=https://skills.example.org/' });
  }
  const cacheDir = resolve(options.cacheDir ?? defaultCacheDir());
  let transport;
  if (/^https?:\/\//i.test(urlOrDir)) {
    transport = cachedHttpTransport(urlOrDir, { cacheDir, fetch: options.fetch, stallMs: stallMsFromEnv() });
  } else {
    let dir = urlOrDir.startsWith('file:') ? fileURLToPath(urlOrDir) : urlOrDir;
    if (dir.endsWith('index.json')) dir = resolve(dir, '..');
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory()) throw new RegistryError('NO_REGISTRY', `registry folder ${resolve(dir)} does not exist`, { hint: 'give an http(s) URL or the folder `skilldex build` wrote' });
    transport = fileTransport(dir);
  }
  const maxBytes = options.maxIndexBytes ?? maxIndexBytesFromEnv();
  const store = new TrustStore(resolve(options.configDir ?? defaultConfigDir()), cacheDir);
  let keys = options.trust && options.trust.length > 0 ? [...options.trust] : (await store.pinned(transport.root))?.keys;
  if (!keys && options.trustOnFirstUse) {
    keys = await activeKeysOf(transport);
    await store.pin(transport.root, { keys, how: 'trust-on-first-use' });
  }
  if (keys) {
    // A cached index.jws.json that fails its signature would otherwise refuse the registry for good.
    const signed = await oncePastCache('SIGNATURE_INVALID', (fresh) =>
      readSignedIndex(fresh ? { ...transport, read: (path, readOptions) => transport.read(path, { ...readOptions, fresh: true }) } : transport, keys, maxBytes),
    );
    const index = parseRegistryIndex(signed.bytes, transport.root, zodShapeCheck);
    checkRollback(index, await store.lastSeen(transport.root), transport.root);
    if (index.generatedAt !== undefined) await store.recordSeen(transport.root, index.generatedAt);
    return new NodeRegistry(index, transport, cacheDir, maxBytes, signed.kid);
  }
  const index = parseRegistryIndex(await transport.read('index.json', { maxBytes }), transport.root, zodShapeCheck);
  if (options.onUnverified && (await store.firstUnverifiedRead(transport.root))) options.onUnverified(transport.root);
  return new NodeRegistry(index, transport, cacheDir, maxBytes);
}

/** The active keys a registry's `keys.json` lists: what trust on first use pins. */
async function activeKeysOf(transport: RegistryTransport): Promise<string[]> {
  const raw = await readSigningFile(transport, KEYS_FILE, 1024 * 1024, {
    message: `${transport.root} publishes no keys (${KEYS_FILE}); there is nothing to trust on first use`,
    hint: 'read it unverified (without --trust-on-first-use), or ask its maintainers whether they sign it',
  });
  const document = parseJsonDocument(raw, `${transport.root}: ${KEYS_FILE}`, 'SIGNATURE_INVALID');
  const parsed = KeysDocument.safeParse(document);
  const active = parsed.success ? parsed.data.keys.filter((k) => k.status === 'active').map((k) => k.publicKey) : [];
  if (active.length === 0) throw new RegistryError('SIGNATURE_INVALID', `${transport.root}: ${KEYS_FILE} lists no active key`, { hint: 'ask the registry maintainers for their key and pin it with --trust' });
  return active;
}
