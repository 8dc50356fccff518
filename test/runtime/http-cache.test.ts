import { generateKeyPairSync, sign } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedHttpTransport, openRegistry } from '../../src/runtime/node/index.ts';
import { keyIdOf } from '../../src/core/signing.ts';
import { buildExamples, tempDir } from './_registries.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';
import { forgeRegistry, type ForgedServer, mount, serveForged } from './_forged-registry.ts';

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

describe('validators chosen by whoever answered once', () => {
  // A man in the middle (or a hijacked mirror) answers one request and picks the validators the
  // cache keeps. The real registry then answers If-Modified-Since as static servers and CDNs do:
  // 304 whenever its file is not newer than the date sent. The forged index must not outlive him.
  const realDate = new Date('2026-01-01T00:00:00Z');
  let forged: ForgedServer;
  beforeAll(async () => {
    forged = await serveForged();
  });
  afterAll(() => forged.close());

  async function poisonThenHeal(prefix: string, mitmHeaders: Record<string, string>, realNotModified: Record<string, string>): Promise<string[]> {
    const good = await forgeRegistry([{ name: 'okskill', description: 'The real description.', files: { 'SKILL.md': '# real\n' } }]);
    const evil = await forgeRegistry([{ name: 'okskill', description: 'The forged description.', files: { 'SKILL.md': '# forged\n' } }]);
    const url = mount(forged, good, prefix);
    let mitm = true;
    forged.set(`${prefix}index.json`, (req, res) => {
      if (mitm) {
        res.writeHead(200, mitmHeaders).end(evil.get('index.json'));
        return;
      }
      const since = req.headers['if-modified-since'];
      if (since !== undefined && Date.parse(since) >= realDate.getTime()) {
        res.writeHead(304, realNotModified).end();
        return;
      }
      res.writeHead(200, { 'last-modified': realDate.toUTCString() }).end(good.get('index.json'));
    });
    const cacheDir = await tempDir('cache-poison');
    const seen = [(await openRegistry(url, { cacheDir })).list()[0]!.description];
    mitm = false;
    seen.push((await openRegistry(url, { cacheDir })).list()[0]!.description);
    seen.push((await openRegistry(url, { cacheDir })).list()[0]!.description);
    return seen;
  }

  it('does not keep a Last-Modified in the future, which the real server would confirm until then', async () => {
    expect(await poisonThenHeal('/future/', { 'last-modified': 'Fri, 01 Jan 2100 00:00:00 GMT' }, {})).toEqual(['The forged description.', 'The real description.', 'The real description.']);
  });

  it('reads a manifest once more past the cache when the cached one fails its digest, as it does a file', async () => {
    // Whoever answered once copied the real manifest's ETag onto altered bytes: the registry's
    // 304 then confirmed them, and 'Retry', as the refusal says, failed the same way for good.
    const files = await forgeRegistry([{ name: 'okskill', files: { 'SKILL.md': '# real\n' } }]);
    const url = mount(forged, files, '/pinned/');
    const real = Buffer.from(files.get('skills/okskill.json') as Uint8Array);
    let mitm = true;
    forged.set('/pinned/skills/okskill.json', (req, res) => {
      if (mitm) res.writeHead(200, { etag: '"real"' }).end(Buffer.from(real.toString().replace('The okskill', 'Forged')));
      else if (req.headers['if-none-match'] === '"real"') res.writeHead(304, { etag: '"real"' }).end();
      else res.writeHead(200, { etag: '"real"' }).end(real);
    });
    const cacheDir = await tempDir('cache-pinned');
    const refused = await (await openRegistry(url, { cacheDir })).load('okskill').catch((e: unknown) => e);
    expect((refused as { code?: string }).code).toBe('VERIFICATION_FAILED');
    mitm = false;
    expect((await (await openRegistry(url, { cacheDir })).load('okskill')).body).toBe('# real\n');
    expect((await (await openRegistry(url, { cacheDir })).load('okskill')).body).toBe('# real\n');
  });

  it('does the same for an archive and for a signed index, whose refusals also said to retry', async () => {
    const files = await forgeRegistry([{ name: 'okskill', files: { 'SKILL.md': '# real\n', 'references/a.md': 'a\n' } }]);
    const url = mount(forged, files, '/both/');
    // Altered bytes once under the real ETag, then the real server: 304 to that ETag.
    const poisonOnce = (path: string, altered: Uint8Array, state: { mitm: boolean }) => {
      const real = files.get(path) as Uint8Array;
      forged.set(`/both/${path}`, (req, res) => {
        if (state.mitm) res.writeHead(200, { etag: '"real"' }).end(altered);
        else if (req.headers['if-none-match'] === '"real"') res.writeHead(304, { etag: '"real"' }).end();
        else res.writeHead(200, { etag: '"real"' }).end(real);
      });
    };
    const archivePath = [...files.keys()].find((p) => p.endsWith('.tar.gz')) as string;
    const other = await forgeRegistry([{ name: 'okskill', files: { 'SKILL.md': '# forged\n', 'references/a.md': 'a\n' } }]);
    const archive = { mitm: true };
    poisonOnce(archivePath, [...other.entries()].find(([p]) => p.endsWith('.tar.gz'))![1], archive);

    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const x = publicKey.export({ format: 'jwk' }).x as string;
    const b64 = (text: string | Uint8Array) => Buffer.from(text).toString('base64url');
    const header = b64(JSON.stringify({ alg: 'EdDSA', typ: 'skilldex-index+jws', kid: await keyIdOf(`ed25519:${x}`) }));
    const payload = b64(files.get('index.json') as Uint8Array);
    const jws = (signature: string) => new TextEncoder().encode(JSON.stringify({ payload, signatures: [{ protected: header, signature }] }));
    files.set('index.jws.json', jws(sign(null, Buffer.from(`${header}.${payload}`), privateKey).toString('base64url')));
    const index = { mitm: true };
    poisonOnce('index.jws.json', jws('A'.repeat(86)), index);

    const cacheDir = await tempDir('cache-both');
    const trust = [`ed25519:${x}`];
    expect(((await openRegistry(url, { cacheDir, trust }).catch((e: unknown) => e)) as { code?: string }).code).toBe('SIGNATURE_INVALID');
    index.mitm = false;
    const registry = await openRegistry(url, { cacheDir, trust });
    expect(registry.verifiedBy).toBeDefined();
    const project = await tempDir('project-both');
    expect(((await registry.install('okskill', project, { via: 'archive' }).catch((e: unknown) => e)) as { code?: string }).code).toBe('VERIFICATION_FAILED');
    archive.mitm = false;
    for (let i = 0; i < 2; i++) {
      const again = await openRegistry(url, { cacheDir, trust });
      expect((await again.install('okskill', project, { via: 'archive' })).digest).toBe(again.entry('okskill').digest);
    }
    expect(await readFile(join(project, 'okskill', 'SKILL.md'), 'utf8')).toBe('# real\n');
  });

  it('uses a cached body only on a 304 that names the validators it was cached with', async () => {
    const now = new Date().toUTCString();
    // The real server's 304 names its own date, not the one the forged answer came with.
    expect(await poisonThenHeal('/dated/', { 'last-modified': now }, { 'last-modified': realDate.toUTCString() })).toEqual(['The forged description.', 'The real description.', 'The real description.']);
    // A forged ETag too, at a server that has none and answers by date alone.
    expect(await poisonThenHeal('/tagged/', { etag: '"forged"', 'last-modified': now }, { 'last-modified': realDate.toUTCString() })).toEqual(['The forged description.', 'The real description.', 'The real description.']);
  });
});
