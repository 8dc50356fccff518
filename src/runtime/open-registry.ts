import { DEFAULT_MAX_INDEX_BYTES, parseRegistryIndex, Registry } from './registry.ts';
import type { ShapeCheck } from './shape-check.ts';
import { httpTransport, type RegistryTransport } from './transport.ts';

export interface OpenRegistryOptions {
  /** A `fetch` to use instead of the global one (for auth headers, proxies, tests). */
  fetch?: typeof fetch;
  /** Read through this transport instead of plain HTTP. */
  transport?: RegistryTransport;
  /** How index.json and manifests are checked; structural by default (see shape-check.ts). */
  shapes?: ShapeCheck;
  /** The most bytes read for index.json or one manifest (default {@link DEFAULT_MAX_INDEX_BYTES}, 64 MiB). */
  maxIndexBytes?: number;
}

/**
 * Opens a registry published over HTTP: fetches `index.json`, checks its major version and schema.
 * Give the registry root or the URL of its index.json.
 *
 * @example
 * import { openRegistry } from 'https://skills.example.org/runtime/skilldex.js';
 * const registry = await openRegistry('https://skills.example.org/');
 * const { matched_skills } = registry.search('pdf', { shape: 'matched_skills' });
 */
export async function openRegistry(url: string, options: OpenRegistryOptions = {}): Promise<Registry> {
  const transport = options.transport ?? httpTransport(url, options.fetch);
  const maxBytes = options.maxIndexBytes ?? DEFAULT_MAX_INDEX_BYTES;
  const index = parseRegistryIndex(await transport.read('index.json', { maxBytes }), transport.root, options.shapes);
  return new Registry(index, transport, options.shapes, maxBytes);
}
