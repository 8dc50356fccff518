import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_STALL_MS, fetchWithinOrigin, httpError, readBody, registryBaseUrl, registryUrl, type RegistryTransport } from '../transport.ts';
import { bracketDepthExceeds, MAX_JSON_DEPTH } from '../../core/json-depth.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { fsError } from './fs-error.ts';

/** What the cache remembers about one URL besides its body. */
interface CacheMeta {
  url: string;
  etag?: string;
  lastModified?: string;
  /** sha256 of the cached body, so a torn or edited cache file is noticed and discarded. */
  sha256: string;
}

const sha256 = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex');

/** How far a server's clock may run ahead of ours before its `Last-Modified` is taken for a lie. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * A `Last-Modified` worth sending back: a date, and not one in the future. Whoever answered once
 * (a man in the middle, a hijacked mirror) chooses it, and a server answers `If-Modified-Since`
 * with 304 whenever its file is not newer than the date sent, so a cached body dated 2100 would
 * be confirmed by the real registry, and used, until 2100.
 */
const pastDate = (value: string | undefined): string | undefined => {
  const time = value === undefined ? Number.NaN : Date.parse(value);
  return Number.isFinite(time) && time <= Date.now() + CLOCK_SKEW_MS ? value : undefined;
};

/** `W/"x"` and `"x"` name the same body here: servers that compress mark their ETags weak. */
const opaque = (etag: string): string => etag.replace(/^W\//, '');

/**
 * Whether a 304 confirms the body in the cache: every validator it carries (RFC 9110 has it send
 * the ETag a 200 would have) is the one the cache holds. A 304 naming another ETag or date was
 * answered about another body — the cached one came from someone else, say a man in the middle
 * who chose its validators — so the cache is not used and the body is fetched again.
 */
const answersFor = (response: Response, meta: CacheMeta): boolean => {
  const etag = response.headers.get('etag');
  const lastModified = response.headers.get('last-modified');
  if (etag !== null) return meta.etag !== undefined && opaque(etag) === opaque(meta.etag);
  if (lastModified !== null) return lastModified === meta.lastModified;
  return true;
};

/**
 * HTTP transport with an on-disk cache, revalidated on every read (crates.io's sparse-index model):
 * a cached response is only ever used after the server answered `304 Not Modified` to
 * `If-None-Match` / `If-Modified-Since`. That rules out the stale-cache trap — a cache that keeps
 * serving an old index.json after the registry changed — at the price of one small request per
 * file. Entries the server gives no validator for are not kept, a cache entry whose body no longer
 * matches its recorded hash is thrown away, and a network failure is an error, never a silent
 * fallback to old data.
 *
 * @example
 * const transport = cachedHttpTransport('https://skills.example.org/', { cacheDir: '/tmp/skilldex' });
 */
export function cachedHttpTransport(url: string, options: { cacheDir: string; fetch?: typeof fetch; stallMs?: number }): RegistryTransport {
  const stallMs = options.stallMs ?? DEFAULT_STALL_MS;
  const base = registryBaseUrl(url);
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const dir = join(options.cacheDir, 'http');

  const readCached = async (key: string, target: string): Promise<{ meta: CacheMeta; body: Uint8Array } | undefined> => {
    try {
      const text = await readFile(join(dir, `${key}.json`), 'utf8');
      if (bracketDepthExceeds(text, MAX_JSON_DEPTH) !== undefined) throw new Error('too deep');
      const meta = JSON.parse(text) as CacheMeta;
      const body = new Uint8Array(await readFile(join(dir, `${key}.body`)));
      if (meta.url === target && sha256(body) === meta.sha256) return { meta, body };
    } catch {
      // No entry, or a half-written one: treat as a miss.
    }
    await forget(key);
    return undefined;
  };
  // Best effort: an entry that cannot be removed is still never used (its hash no longer matches).
  const forget = async (key: string): Promise<void> => {
    await rm(join(dir, `${key}.json`), { force: true }).catch(() => {});
    await rm(join(dir, `${key}.body`), { force: true }).catch(() => {});
  };

  return {
    root: base,
    locate: (relPath) => registryUrl(base, relPath),
    async read(relPath, readOptions = {}) {
      const target = registryUrl(base, relPath);
      const key = sha256(target);
      const maxBytes = readOptions.maxBytes ?? Number.POSITIVE_INFINITY;
      let cached = readOptions.fresh ? undefined : await readCached(key, target);
      // A cached body larger than this read allows is not revalidated but fetched (and capped) again.
      if (cached && cached.body.length > maxBytes) cached = undefined;
      const request = async (conditional: boolean): Promise<Response> => {
        const headers: Record<string, string> = {};
        if (conditional && cached?.meta.etag) headers['if-none-match'] = cached.meta.etag;
        if (conditional && cached?.meta.lastModified) headers['if-modified-since'] = cached.meta.lastModified;
        if (readOptions.fresh) headers['cache-control'] = 'no-cache';
        return fetchWithinOrigin(fetchImpl, target, { headers }, stallMs);
      };
      let response = await request(true);
      if (response.status === 304) {
        await response.body?.cancel().catch(() => {});
        if (cached && answersFor(response, cached.meta)) {
          readOptions.onProgress?.(cached.body.length, cached.body.length);
          return cached.body;
        }
        // A 304 to a request we did not make conditional, or one about another body than the
        // cached one: ask again for the full body.
        response = await request(false);
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw httpError(target, response);
      }
      const body = await readBody(response, readOptions.onProgress, maxBytes, target, stallMs);
      // Validators are sent back to the server verbatim; anything but a short printable string is not kept.
      const validator = (name: string) => {
        const value = response.headers.get(name);
        return value !== null && value.length <= 256 && /^[\x20-\x7e]*$/.test(value) ? value : undefined;
      };
      const etag = validator('etag');
      const lastModified = pastDate(validator('last-modified'));
      if (etag || lastModified) {
        try {
          await writeFileAtomic(join(dir, `${key}.body`), body);
          await writeFileAtomic(join(dir, `${key}.json`), JSON.stringify({ url: target, etag, lastModified, sha256: sha256(body) } satisfies CacheMeta));
        } catch (error) {
          throw fsError(error, dir);
        }
      } else {
        await forget(key);
      }
      return body;
    },
  };
}
