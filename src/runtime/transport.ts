import { RegistryError, type RegistryErrorCode } from '../core/errors/registry-error.ts';

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
  /**
   * Refuse the body once it passes this many bytes (`RESPONSE_TOO_LARGE`); reading stops there,
   * so a server streaming without end costs at most this much memory.
   */
  maxBytes?: number;
}

/** Redirects followed per request, all within the registry's origin. */
const MAX_REDIRECTS = 5;

/**
 * Every `urls.*` in a manifest is relative to the registry root. A registry is untrusted input, so
 * a URL that would leave the root (absolute, scheme, `..`, backslash, encoded dots) is refused
 * before any request is made. So is any character outside printable ASCII: the URL parser drops
 * tabs and newlines and trims spaces, so `\t//other-host/` or `.\t./` would pass a string check
 * and then mean something else.
 *
 * @example
 * checkRegistryPath('skills/pdf/0123456789abcdef/SKILL.md'); // ok
 * checkRegistryPath('../secrets');                           // throws INVALID_PATH
 */
export function checkRegistryPath(relPath: string): string {
  const bad =
    typeof relPath !== 'string' ||
    relPath.length === 0 ||
    /[^\x21-\x7e]/.test(relPath) ||
    relPath.startsWith('/') ||
    /^[a-z][a-z0-9+.-]*:/i.test(relPath) ||
    /[\\?#]/.test(relPath) ||
    /%(2e|2f|5c|00)/i.test(relPath) ||
    relPath.split('/').some((segment) => segment === '..' || segment === '.');
  if (bad) {
    throw new RegistryError('INVALID_PATH', `registry path ${JSON.stringify(relPath)} leaves the registry root`, {
      hint: 'the registry published a URL that is not relative to its root; report it to the registry maintainers',
    });
  }
  return relPath;
}

/**
 * The absolute URL of `relPath` under the registry root `base`. After {@link checkRegistryPath},
 * the parsed result is compared with the root as a URL — same origin, path under the root's path,
 * no query or fragment — so nothing the parser normalises can move a request elsewhere.
 *
 * @example
 * registryUrl('https://skills.example.org/r/', 'index.json'); // 'https://skills.example.org/r/index.json'
 */
export function registryUrl(base: string, relPath: string): string {
  const root = new URL(base);
  const target = new URL(checkRegistryPath(relPath), root);
  if (target.origin !== root.origin || !target.pathname.startsWith(root.pathname) || target.search !== '' || target.hash !== '') {
    throw new RegistryError('INVALID_PATH', `registry path ${JSON.stringify(relPath)} resolves to ${target.href}, outside ${root.href}`, {
      hint: 'the registry published a URL that is not relative to its root; report it to the registry maintainers',
    });
  }
  return target.href;
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

/** The limit on JSON documents (index.json, manifests) is the client's own, and can be raised; a file's or an archive's comes from what the registry declares. */
const tooLarge = (target: string, maxBytes: number): RegistryError =>
  /\.json(?:[?#]|$)/.test(target)
    ? new RegistryError('RESPONSE_TOO_LARGE', `GET ${target} sent more than ${maxBytes} bytes, more than this client reads of a JSON document`, {
        hint: 'for a very large index.json or manifest, raise SKILLDEX_MAX_INDEX_BYTES; otherwise the registry serves something else there, so report it to the registry maintainers',
      })
    : new RegistryError('RESPONSE_TOO_LARGE', `GET ${target} sent more than ${maxBytes} bytes, more than the registry declares`, {
        hint: 'the registry serves something other than what its index declares; report it to the registry maintainers',
      });

/**
 * How long a request may make no progress: no response headers, or no body bytes, for this long
 * ends it (`FETCH_FAILED`), and so does a body still arriving slower than
 * {@link MIN_BYTES_PER_SECOND} once it has taken this long. A server (or anything on the way)
 * that drips its answer would otherwise hang the client, a build or an MCP server for ever.
 */
export const DEFAULT_STALL_MS = 30_000;
const MIN_BYTES_PER_SECOND = 1024;

const stalled = (target: string, why: string) =>
  new RegistryError('FETCH_FAILED', `GET ${target} ${why}`, { hint: 'the registry or the network is too slow or stalled; retry later (SKILLDEX_NETWORK_TIMEOUT_MS sets the patience in milliseconds)' });

/** Resolves with `promise`, or rejects with `onTimeout()` after `ms`. */
function within<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), Math.max(0, ms));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** What a bounded read of a response body refuses, each refusal worded by its caller. */
export interface BodyLimits {
  /** Refused past this many bytes, declared (Content-Length) or received. */
  maxBytes: number;
  tooLarge: () => Error;
  /** Wraps each wait for the next chunk: a reader with limited patience rejects a stalled one. */
  next?: (read: Promise<ReadableStreamReadResult<Uint8Array>>) => Promise<ReadableStreamReadResult<Uint8Array>>;
  /** Hears the bytes received after each chunk, and the declared total; throws to stop reading. */
  onChunk?: (received: number, total: number | undefined) => void;
}

/**
 * A response body as one array, never more than `limits.maxBytes`: a declared Content-Length
 * above it is refused before reading, and the stream is cancelled as soon as what arrived passes
 * it, so a server streaming without end costs at most that much memory. Whatever stops the read
 * cancels the stream. A registry's files and a model's replies are both read through it.
 */
export async function readBoundedBody(response: Response, limits: BodyLimits): Promise<Uint8Array> {
  const header = response.headers.get('content-length');
  const total = header === null || !/^\d+$/.test(header) ? undefined : Number(header);
  if (total !== undefined && total > limits.maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw limits.tooLarge();
  }
  if (!response.body) {
    const whole = new Uint8Array(await response.arrayBuffer());
    if (whole.length > limits.maxBytes) throw limits.tooLarge();
    return whole;
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await (limits.next ? limits.next(reader.read()) : reader.read());
      if (done) break;
      received += value.length;
      if (received > limits.maxBytes) throw limits.tooLarge();
      limits.onChunk?.(received, total);
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw error;
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
 * `read(fresh)` as it is, and once more past every cache (`fresh: true`) when it fails with `code`.
 * A cache can hold altered bytes under validators the registry then confirms with 304 (whoever
 * sent them chose the validators), so without the second read a refusal would repeat for good and
 * its "Retry" never help. Already `fresh`, it reads once.
 *
 * @example
 * await oncePastCache('VERIFICATION_FAILED', async (fresh) => verified(await transport.read(path, { fresh })));
 */
export async function oncePastCache<T>(code: RegistryErrorCode, read: (fresh: boolean) => Promise<T>, fresh = false): Promise<T> {
  try {
    return await read(fresh);
  } catch (error) {
    if (fresh || !(error instanceof RegistryError) || error.code !== code) throw error;
    return read(true);
  }
}

/**
 * A body cut off (the connection closed before Content-Length bytes came) or undecodable (gzip
 * that is not) surfaces from fetch as a bare `TypeError: terminated`, which the CLI took for a bug
 * of its own. Said as what it is; the limits' own errors pass through.
 */
function brokeOff(target: string, error: unknown): unknown {
  if (error instanceof RegistryError) return error;
  const cause = (error as Error | undefined)?.cause;
  const why = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return new RegistryError('FETCH_FAILED', `GET ${target} broke off before its body was complete (${why})`, {
    cause: error,
    hint: 'the connection closed, or the body was not encoded as its headers said; retry, and if it persists report it to the registry maintainers',
  });
}

/**
 * Reads a registry's response body, reporting progress as chunks arrive, within `maxBytes`
 * ({@link readBoundedBody}) and the patience `stallMs` ({@link DEFAULT_STALL_MS}); a body that
 * breaks off is FETCH_FAILED ({@link brokeOff}), in the browser as in Node.
 */
export function readBody(response: Response, onProgress?: TransportReadOptions['onProgress'], maxBytes = Number.POSITIVE_INFINITY, target = response.url, stallMs = DEFAULT_STALL_MS): Promise<Uint8Array> {
  const started = Date.now();
  let arrived = 0;
  return readBoundedBody(response, {
    maxBytes,
    tooLarge: () => tooLarge(target, maxBytes),
    next: (read) => within(read, stallMs, () => stalled(target, `sent ${arrived} B, then nothing for ${Math.round(stallMs / 1000)} s`)),
    onChunk: (received, total) => {
      arrived = received;
      const elapsed = Date.now() - started;
      if (elapsed > stallMs && (received * 1000) / elapsed < MIN_BYTES_PER_SECOND) {
        throw stalled(target, `is arriving at ${Math.round((received * 1000) / elapsed)} bytes/s after ${Math.round(elapsed / 1000)} s`);
      }
      onProgress?.(received, total);
    },
  }).catch((error: unknown) => {
    throw brokeOff(target, error);
  });
}

/**
 * GET `target` following redirects by hand, and only within the registry's origin: a registry (or
 * anything between it and the client) must not be able to point the client at another host — a
 * cloud metadata address, a service on localhost — and have it read the answer as registry data.
 * At most {@link MAX_REDIRECTS} hops. In a browser, which hides redirect targets, the redirect is
 * followed by the browser and its final URL checked instead.
 */
export async function fetchWithinOrigin(fetchImpl: typeof fetch, target: string, init: RequestInit = {}, stallMs = DEFAULT_STALL_MS): Promise<Response> {
  const origin = new URL(target).origin;
  let url = target;
  // Waiting for headers counts against the same patience as the body; a request that runs out
  // of it is aborted, so its socket is closed too.
  const request = async (redirect: RequestRedirect): Promise<Response> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), stallMs);
    try {
      return await fetchImpl(url, { ...init, redirect, signal: controller.signal });
    } catch (error) {
      if (controller.signal.aborted) throw stalled(url, `did not answer within ${Math.round(stallMs / 1000)} s`);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      response = await request('manual');
      if (response.type === 'opaqueredirect') {
        response = await request('follow');
        if (response.url && new URL(response.url).origin !== origin) {
          await response.body?.cancel().catch(() => {});
          throw redirectRefused(target, response.url);
        }
        return response;
      }
    } catch (error) {
      if (error instanceof RegistryError) throw error;
      throw new RegistryError('FETCH_FAILED', `GET ${url} failed: ${(error as Error).message}`, { cause: error, hint: 'check the registry URL and your network' });
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || response.status === 304 || location === null) return response;
    await response.body?.cancel().catch(() => {});
    let next: URL;
    try {
      if (/[^\x21-\x7e]/.test(location)) throw new Error('unprintable');
      next = new URL(location, url);
    } catch {
      throw redirectRefused(target, JSON.stringify(location));
    }
    if (next.origin !== origin) throw redirectRefused(target, next.href);
    if (hop + 1 > MAX_REDIRECTS) {
      throw new RegistryError('REDIRECT_REFUSED', `GET ${target} redirected more than ${MAX_REDIRECTS} times`, { hint: 'the registry redirects in a loop; report it to the registry maintainers' });
    }
    url = next.href;
  }
}

const redirectRefused = (target: string, to: string): RegistryError =>
  new RegistryError('REDIRECT_REFUSED', `GET ${target} redirected to ${to}, outside the registry's origin`, {
    hint: 'a registry may only redirect within its own origin; use the final URL as --registry if the registry really moved',
  });

/** `FETCH_FAILED` for a response that is not 2xx. The status text comes from the server, so only the code is shown. */
export function httpError(target: string, response: Response): RegistryError {
  return new RegistryError('FETCH_FAILED', `GET ${target} answered ${response.status}`, {
    hint: response.status === 404 ? 'the registry does not publish this file; is the URL the folder holding index.json?' : undefined,
  });
}

/**
 * Plain `fetch` transport: works in browsers, Deno and Node. Caching is left to the HTTP layer
 * (the browser's cache, or the Node transport's on-disk cache).
 *
 * @example
 * const transport = httpTransport('https://skills.example.org/');
 */
export function httpTransport(url: string, fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis), stallMs = DEFAULT_STALL_MS): RegistryTransport {
  const base = registryBaseUrl(url);
  return {
    root: base,
    locate: (relPath) => registryUrl(base, relPath),
    async read(relPath, options = {}) {
      const target = registryUrl(base, relPath);
      const response = await fetchWithinOrigin(fetchImpl, target, options.fresh ? { cache: 'no-store' } : {}, stallMs);
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw httpError(target, response);
      }
      return readBody(response, options.onProgress, options.maxBytes, target, stallMs);
    },
  };
}
