import { DEFAULT_MAX_INDEX_BYTES, parseRegistryIndex, Registry } from './registry.ts';
import type { ShapeCheck } from './shape-check.ts';
import { httpTransport, type RegistryTransport } from './transport.ts';
import { checkRollback, readSignedIndex } from './trust.ts';

export interface OpenRegistryOptions {
  /** A `fetch` to use instead of the global one (for auth headers, proxies, tests). */
  fetch?: typeof fetch;
  /** Read through this transport instead of plain HTTP. */
  transport?: RegistryTransport;
  /** How index.json and manifests are checked; structural by default (see shape-check.ts). */
  shapes?: ShapeCheck;
  /** The most bytes read for index.json or one manifest (default {@link DEFAULT_MAX_INDEX_BYTES}, 64 MiB). */
  maxIndexBytes?: number;
  /**
   * Public keys (`ed25519:<base64url>`) of the registry's maintainers. When given, the index is
   * read from the signed `index.jws.json` and refused unless one of these keys signed it.
   */
  trust?: readonly string[];
  /** The newest `generatedAt` seen before: a signed index older than this is refused (`INDEX_ROLLBACK`). */
  lastSeen?: string;
}

/**
 * Opens a registry published over HTTP: fetches `index.json`, checks its major version and schema.
 * Give the registry root or the URL of its index.json.
 *
 * @example
 * import { openRegistry } from 'https://skills.example.org/runtime/skilldex.js';
 * const registry = await openRegistry('https://skills.example.org/');
 * const { matched_skills } = registry.search('pdf', { shape: 'matched_skills' });
 * // Verified: refused unless the maintainers' key signed the index.
 * const verified = await openRegistry('https://skills.example.org/', { trust: ['ed25519:…'] });
 */
export async function openRegistry(url: string, options: OpenRegistryOptions = {}): Promise<Registry> {
  const transport = options.transport ?? httpTransport(url, options.fetch);
  const maxBytes = options.maxIndexBytes ?? DEFAULT_MAX_INDEX_BYTES;
  if (options.trust && options.trust.length > 0) {
    const signed = await readSignedIndex(transport, options.trust, maxBytes);
    const index = parseRegistryIndex(signed.bytes, transport.root, options.shapes);
    checkRollback(index, options.lastSeen, transport.root);
    return new Registry(index, transport, options.shapes, maxBytes, signed.kid);
  }
  const index = parseRegistryIndex(await transport.read('index.json', { maxBytes }), transport.root, options.shapes);
  return new Registry(index, transport, options.shapes, maxBytes);
}
