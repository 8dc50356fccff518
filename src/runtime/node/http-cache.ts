import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SkilldexError } from '../skilldex-error.ts';
import { checkRegistryPath, readBody, registryBaseUrl, type RegistryTransport } from '../transport.ts';
import { writeFileAtomic } from './atomic-write.ts';

/** What the cache remembers about one URL besides its body. */
interface CacheMeta {
  url: string;
  etag?: string;
  lastModified?: string;
  /** sha256 of the cached body, so a torn or edited cache file is noticed and discarded. */
  sha256: string;
}

const sha256 = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex');

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
export function cachedHttpTransport(url: string, options: { cacheDir: string; fetch?: typeof fetch }): RegistryTransport {
  const base = registryBaseUrl(url);
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const dir = join(options.cacheDir, 'http');

  const readCached = async (key: string, target: string): Promise<{ meta: CacheMeta; body: Uint8Array } | undefined> => {
    try {
      const meta = JSON.parse(await readFile(join(dir, `${key}.json`), 'utf8')) as CacheMeta;
      const body = new Uint8Array(await readFile(join(dir, `${key}.body`)));
      if (meta.url === target && sha256(body) === meta.sha256) return { meta, body };
    } catch {
      // No entry, or a half-written one: treat as a miss.
    }
    await forget(key);
    return undefined;
  };
  const forget = async (key: string): Promise<void> => {
    await rm(join(dir, `${key}.json`), { force: true });
    await rm(join(dir, `${key}.body`), { force: true });
  };

  return {
    root: base,
    locate: (relPath) => new URL(checkRegistryPath(relPath), base).href,
    async read(relPath, readOptions = {}) {
      const target = new URL(checkRegistryPath(relPath), base).href;
      const key = sha256(target);
      const cached = readOptions.fresh ? undefined : await readCached(key, target);
      const request = async (conditional: boolean): Promise<Response> => {
        const headers: Record<string, string> = {};
        if (conditional && cached?.meta.etag) headers['if-none-match'] = cached.meta.etag;
        if (conditional && cached?.meta.lastModified) headers['if-modified-since'] = cached.meta.lastModified;
        if (readOptions.fresh) headers['cache-control'] = 'no-cache';
        try {
          return await fetchImpl(target, { headers });
        } catch (error) {
          throw new SkilldexError('FETCH_FAILED', `GET ${target} failed: ${(error as Error).message}`, { cause: error, hint: 'check the registry URL and your network' });
        }
      };
      let response = await request(true);
      if (response.status === 304) {
        if (cached) {
          readOptions.onProgress?.(cached.body.length, cached.body.length);
          return cached.body;
        }
        // A 304 to a request we did not make conditional: ask again for the full body.
        response = await request(false);
      }
      if (!response.ok) {
        throw new SkilldexError('FETCH_FAILED', `GET ${target} answered ${response.status} ${response.statusText}`.trim(), {
          hint: response.status === 404 ? 'the registry does not publish this file; is the URL the folder holding index.json?' : undefined,
        });
      }
      const body = await readBody(response, readOptions.onProgress);
      const etag = response.headers.get('etag') ?? undefined;
      const lastModified = response.headers.get('last-modified') ?? undefined;
      if (etag || lastModified) {
        await writeFileAtomic(join(dir, `${key}.body`), body);
        await writeFileAtomic(join(dir, `${key}.json`), JSON.stringify({ url: target, etag, lastModified, sha256: sha256(body) } satisfies CacheMeta));
      } else {
        await forget(key);
      }
      return body;
    },
  };
}
