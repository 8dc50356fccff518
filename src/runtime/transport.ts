import { SkilldexError } from './skilldex-error.ts';

/**
 * How the runtime reads a published registry: bytes by path relative to the registry root.
 * The browser-safe part ships an HTTP transport; the Node part adds a local folder and an HTTP
 * transport with an on-disk cache.
 */
export interface RegistryTransport {
  /** Human-readable location of the registry root (URL or folder), for messages. */
  readonly root: string;
  /** Reads `relPath` (already checked by {@link checkRegistryPath}); throws `FETCH_FAILED`. */
  read(relPath: string, options?: TransportReadOptions): Promise<Uint8Array>;
  /** Where `relPath` lives, as a URL or absolute file path (used as a prompt `location`). */
  locate(relPath: string): string;
}

export interface TransportReadOptions {
  /** Called with downloaded and total bytes (total is undefined when the server does not say). */
  onProgress?: (received: number, total: number | undefined) => void;
  /** Skip any cache: used to re-fetch after a digest mismatch. */
  fresh?: boolean;
}

/**
 * Every `urls.*` in a manifest is relative to the registry root. A registry is untrusted input, so
 * a URL that would leave the root (absolute, scheme, `..`, backslash, encoded dots) is refused
 * before any request is made.
 *
 * @example
 * checkRegistryPath('skills/pdf/0123456789abcdef/SKILL.md'); // ok
 * checkRegistryPath('../secrets');                           // throws INVALID_PATH
 */
export function checkRegistryPath(relPath: string): string {
  const bad =
    relPath.length === 0 ||
    relPath.startsWith('/') ||
    /^[a-z][a-z0-9+.-]*:/i.test(relPath) ||
    /[\\\0?#]/.test(relPath) ||
    /%(2e|2f|5c|00)/i.test(relPath) ||
    relPath.split('/').some((segment) => segment === '..' || segment === '.');
  if (bad) {
    throw new SkilldexError('INVALID_PATH', `registry path ${JSON.stringify(relPath)} leaves the registry root`, {
      hint: 'the registry published a URL that is not relative to its root; report it to the registry maintainers',
    });
  }
  return relPath;
}

/** The registry root as a URL ending in `/`, whether given as the root or as its index.json. */
export function registryBaseUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.pathname.endsWith('/index.json')) parsed.pathname = parsed.pathname.slice(0, -'index.json'.length);
  else if (!parsed.pathname.endsWith('/')) parsed.pathname += '/';
  parsed.search = '';
  parsed.hash = '';
  return parsed.href;
}

/** Reads a response body, reporting progress as chunks arrive. */
export async function readBody(response: Response, onProgress?: TransportReadOptions['onProgress']): Promise<Uint8Array> {
  if (!onProgress || !response.body) return new Uint8Array(await response.arrayBuffer());
  const header = response.headers.get('content-length');
  const total = header === null ? undefined : Number(header);
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    onProgress(received, total);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/**
 * Plain `fetch` transport: works in browsers, Deno and Node. Caching is left to the HTTP layer
 * (the browser's cache, or the Node transport's on-disk cache).
 *
 * @example
 * const transport = httpTransport('https://skills.example.org/');
 */
export function httpTransport(url: string, fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis)): RegistryTransport {
  const base = registryBaseUrl(url);
  return {
    root: base,
    locate: (relPath) => new URL(checkRegistryPath(relPath), base).href,
    async read(relPath, options = {}) {
      const target = new URL(checkRegistryPath(relPath), base).href;
      let response: Response;
      try {
        response = await fetchImpl(target, options.fresh ? { cache: 'no-store' } : {});
      } catch (error) {
        throw new SkilldexError('FETCH_FAILED', `GET ${target} failed: ${(error as Error).message}`, { cause: error, hint: 'check the registry URL and your network' });
      }
      if (!response.ok) {
        throw new SkilldexError('FETCH_FAILED', `GET ${target} answered ${response.status} ${response.statusText}`.trim(), {
          hint: response.status === 404 ? 'the registry does not publish this file; is the URL the folder holding index.json?' : undefined,
        });
      }
      return readBody(response, options.onProgress);
    },
  };
}
