import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedHttpTransport, openRegistry } from '../../src/runtime/node/index.ts';
import { buildExamples, tempDir } from './_registries.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';

let dir: string;
let server: StaticServer;

beforeAll(async () => {
  dir = await buildExamples();
  server = await serveDirectory(dir);
});
afterAll(() => server.close());

const requestsFor = (path: string) => server.requests.filter((r) => r.path === path);

describe('on-disk HTTP cache', () => {
  it('revalidates with If-None-Match / If-Modified-Since and serves the cached body on 304', async () => {
    const cacheDir = await tempDir('cache');
    const first = await openRegistry(server.url, { cacheDir });
    const second = await openRegistry(server.url, { cacheDir });
    expect(second.index).toEqual(first.index);
    const [initial, revalidation] = requestsFor('/index.json').slice(-2);
    expect(initial?.status).toBe(200);
    expect(initial?.headers['if-none-match']).toBeUndefined();
    expect(revalidation?.status).toBe(304);
    expect(revalidation?.headers['if-none-match']).toMatch(/^"[0-9a-f]{32}"$/);
    expect(revalidation?.headers['if-modified-since']).toBeTruthy();
  });

  it('never serves a stale index: a changed file on the server is seen on the next open', async () => {
    const cacheDir = await tempDir('cache');
    const before = await openRegistry(server.url, { cacheDir });
    const original = await readFile(join(dir, 'index.json'), 'utf8');
    try {
      const changed = JSON.parse(original);
      changed.registry.title = 'Changed title';
      await writeFile(join(dir, 'index.json'), JSON.stringify(changed));
      const after = await openRegistry(server.url, { cacheDir });
      expect(before.index.registry.title).not.toBe('Changed title');
      expect(after.index.registry.title).toBe('Changed title');
      expect(requestsFor('/index.json').at(-1)?.status).toBe(200);
    } finally {
      await writeFile(join(dir, 'index.json'), original);
    }
  });

  it('discards a cache entry whose body was altered on disk', async () => {
    const cacheDir = await tempDir('cache');
    const transport = cachedHttpTransport(server.url, { cacheDir });
    const good = await transport.read('index.json');
    const bodyFile = (await readdir(join(cacheDir, 'http'))).find((f) => f.endsWith('.body')) as string;
    await writeFile(join(cacheDir, 'http', bodyFile), '{"version":"1.0.0","tampered":true}');
    const again = await transport.read('index.json');
    expect(Buffer.from(again).equals(Buffer.from(good))).toBe(true);
    const last = requestsFor('/index.json').at(-1);
    expect(last?.status).toBe(200);
    expect(last?.headers['if-none-match']).toBeUndefined();
  });

  it('does not keep responses that carry no validator', async () => {
    const cacheDir = await tempDir('cache');
    server.setValidators(false);
    try {
      const transport = cachedHttpTransport(server.url, { cacheDir });
      await transport.read('index.json');
      await transport.read('index.json');
      expect(requestsFor('/index.json').slice(-2).map((r) => [r.status, r.headers['if-none-match']])).toEqual([
        [200, undefined],
        [200, undefined],
      ]);
      expect(await readdir(join(cacheDir, 'http')).catch(() => [])).toEqual([]);
    } finally {
      server.setValidators(true);
    }
  });

  it('reports a failed request instead of falling back to old data', async () => {
    const cacheDir = await tempDir('cache');
    await openRegistry(server.url, { cacheDir });
    const error = await openRegistry('http://127.0.0.1:9/', { cacheDir }).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('FETCH_FAILED');
  });
});
