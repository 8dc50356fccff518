/**
 * Installing and reading earlier versions (`name@version`, `name@range`) from a registry built
 * from a real git repository, and refusing versions documents a hostile host could serve: every
 * forgery here is consistent (each digest the client checks before the one under test is right).
 */
import { createHash } from 'node:crypto';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRegistry } from '../../src/runtime/node/index.ts';
import { openRegistry as openBrowserRegistry, SkilldexError } from '../../src/runtime/index.ts';
import { closeServer } from '../../scripts/preview.ts';
import { GitRepo, skillMd } from '../helpers/git-repo.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';
import { buildInto, rewriteManifest, tempDir } from './_registries.ts';

let built: string;
let server: StaticServer;

beforeAll(async () => {
  const repo = new GitRepo('runtime-versions');
  repo.write('skills/tidy/SKILL.md', skillMd('tidy', '1.0.0', '# Tidy\n\nFirst edition.\n')).write('skills/tidy/references/old.md', 'Old notes.\n').commit('Add tidy', '2026-01-02T10:00:00Z');
  repo.write('skills/tidy/SKILL.md', skillMd('tidy', '1.2.0', '# Tidy\n\nSecond edition.\n')).commit('tidy 1.2.0', '2026-02-02T10:00:00Z');
  repo.write('skills/tidy/SKILL.md', skillMd('tidy', '2.0.0-rc.1', '# Tidy\n\nCandidate.\n')).commit('tidy 2.0.0-rc.1', '2026-02-20T10:00:00Z');
  repo.write('skills/tidy/SKILL.md', skillMd('tidy', '2.0.0', '# Tidy\n\nThird edition.\n')).remove('skills/tidy/references').commit('tidy 2.0.0', '2026-03-02T10:00:00Z');
  repo.write('skills/other/SKILL.md', skillMd('other', '1.0.0')).commit('Add other', '2026-03-03T10:00:00Z');
  built = await buildInto(repo.root, 'runtime-versions');
  server = await serveDirectory(built);
});
afterAll(() => server.close());

const codeOf = (promise: Promise<unknown>) => promise.then(() => 'resolved', (e: unknown) => (e instanceof SkilldexError ? e.code : String(e)));
const sha = (text: string | Uint8Array) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** A copy of the built registry whose versions document for tidy is `forge(document)`, pinned consistently by its manifest and the index. */
async function forged(forge: (document: any) => string | void) {
  const copy = await tempDir('versions-forged');
  await cp(built, copy, { recursive: true });
  const path = join(copy, 'skills/tidy.versions.json');
  const document = JSON.parse(await readFile(path, 'utf8'));
  const text = forge(document) ?? JSON.stringify(document);
  await writeFile(path, text);
  await rewriteManifest(copy, 'tidy', (m) => (m.versions = { ...m.versions, size: Buffer.byteLength(text), digest: sha(text) }));
  return openRegistry(copy, { cacheDir: await tempDir('versions-cache') });
}

describe('earlier versions', () => {
  it('lists every version, the highest first, and selects by exact version or range', async () => {
    const registry = await openRegistry(server.url, { cacheDir: await tempDir('versions-cache') });
    expect((await registry.versions('tidy')).versions.map((v) => v.version)).toEqual(['2.0.0', '2.0.0-rc.1', '1.2.0', '1.0.0']);
    expect((await registry.manifest('tidy@1.0.0')).version).toBe('1.0.0');
    expect((await registry.manifest('tidy@^1')).version).toBe('1.2.0');
    expect((await registry.manifest('tidy@~1.0')).version).toBe('1.0.0');
    // Pre-releases only when the range names one; the current version by its own number needs no versions document.
    expect((await registry.manifest('tidy@>=2.0.0-0 <2.0.0')).version).toBe('2.0.0-rc.1');
    expect((await registry.manifest('tidy@2.0.0')).version).toBe('2.0.0');
    expect((await registry.manifest('TIDY@*')).version).toBe('2.0.0');
  });

  it('reads, loads and installs an older version, every file verified against its own manifest', async () => {
    const registry = await openRegistry(server.url, { cacheDir: await tempDir('versions-cache') });
    const files = await registry.files('tidy@1.0.0');
    expect([...files.keys()].sort()).toEqual(['SKILL.md', 'references/old.md']);
    expect((await registry.load('tidy@^1.0.0')).body).toBe('# Tidy\n\nSecond edition.\n');
    expect(await registry.loadAsset('tidy@1.0.0', 'references/old.md')).toBe('Old notes.\n');
    const project = await tempDir('versions-project');
    const result = await registry.install('tidy@1.0.0', project, { to: 'claude' });
    expect(result).toMatchObject({ name: 'tidy', version: '1.0.0', changed: true });
    expect(await readFile(join(project, '.claude/skills/tidy/SKILL.md'), 'utf8')).toContain('First edition.');
    // Installing the current version over it replaces the folder: one copy per skill.
    await registry.install('tidy', project, { to: 'claude', via: 'files' });
    expect((await readdir(join(project, '.claude/skills/tidy'))).sort()).toEqual(['SKILL.md']);
  });

  it('says which versions exist when a range matches none, or is no range at all', async () => {
    const registry = await openRegistry(server.url, { cacheDir: await tempDir('versions-cache') });
    const error = await registry.manifest('tidy@^3').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'VERSION_NOT_FOUND', message: expect.stringContaining('matches ^3'), hint: 'available: 2.0.0, 2.0.0-rc.1, 1.2.0, 1.0.0; install one with tidy@<version>' });
    expect(await registry.manifest('tidy@banana').catch((e: SkilldexError) => [e.code, e.message])).toEqual(['VERSION_NOT_FOUND', "'banana' is not a version or a semver range (tidy)"]);
    expect(await codeOf(registry.manifest('tidy@'))).toBe('VERSION_NOT_FOUND');
    expect(await codeOf(registry.manifest('nope@1.0.0'))).toBe('SKILL_NOT_FOUND');
    // A skill with one version has a document too.
    expect((await registry.versions('other')).versions.map((v) => v.version)).toEqual(['1.0.0']);
  });

  it('runs only the current version, and says how to use an earlier one', async () => {
    const registry = await openRegistry(server.url, { cacheDir: await tempDir('versions-cache') });
    const outcome = await registry.run('tidy@1.0.0', {});
    expect(outcome.error).toMatchObject({ code: 'INVALID_PARAM', message: "run runs the current version of a skill; 'tidy@1.0.0' names another" });
    expect((await registry.run('tidy', {})).status).toBe('success');
  });

  it('works the same in the browser-safe runtime (the generated shapes instead of zod)', async () => {
    const registry = await openBrowserRegistry(server.url);
    expect((await registry.manifest('tidy@~1.2')).version).toBe('1.2.0');
    expect(new TextDecoder().decode(await registry.file('tidy@1.0.0', 'references/old.md'))).toBe('Old notes.\n');
  });
});

describe('hostile versions documents', () => {
  it('refuses a document whose bytes differ from what the manifest pins', async () => {
    const copy = await tempDir('versions-tampered');
    await cp(built, copy, { recursive: true });
    const path = join(copy, 'skills/tidy.versions.json');
    await writeFile(path, (await readFile(path, 'utf8')).replace('"1.0.0"', '"1.0.1"'));
    const registry = await openRegistry(copy, { cacheDir: await tempDir('versions-cache') });
    expect(await codeOf(registry.manifest('tidy@1.0.0'))).toBe('VERIFICATION_FAILED');
    // The current version is still readable: the index pins its manifest directly.
    expect((await registry.manifest('tidy')).version).toBe('2.0.0');
  });

  it('reads a document once more past the cache when the cached one fails its digest, so a retry works', async () => {
    // Whoever answered once copied the real document's ETag onto altered bytes; the registry then
    // answers that ETag with 304, which confirmed the cached bytes on every later read.
    const path = '/skills/tidy.versions.json';
    const real = await readFile(join(built, path), 'utf8');
    let mitm = true;
    const front = createServer((req, res) => {
      if (req.url === path) {
        if (mitm) res.writeHead(200, { etag: '"real"' }).end(real.replace('"1.0.0"', '"1.0.1"'));
        else if (req.headers['if-none-match'] === '"real"') res.writeHead(304, { etag: '"real"' }).end();
        else res.writeHead(200, { etag: '"real"' }).end(real);
        return;
      }
      fetch(new URL(req.url ?? '/', server.url)).then(async (r) => res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/octet-stream' }).end(Buffer.from(await r.arrayBuffer())), () => res.destroy());
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}/`;
      const cacheDir = await tempDir('versions-cache');
      expect(await codeOf((await openRegistry(url, { cacheDir })).manifest('tidy@1.0.0'))).toBe('VERIFICATION_FAILED');
      mitm = false;
      expect((await (await openRegistry(url, { cacheDir })).manifest('tidy@1.0.0')).version).toBe('1.0.0');
    } finally {
      await closeServer(front);
    }
  });

  it.each([
    ['names another skill', (d: any) => void (d.name = 'other')],
    ['holds a version that is not semver', (d: any) => void (d.versions[3].version = 'one')],
    ['lists a version twice', (d: any) => void d.versions.push({ ...d.versions[3], version: 'v1.0.0' })],
    ['gives the current version another digest', (d: any) => void (d.versions[0].digest = d.versions[1].digest)],
    ['gives the current version a manifest of its own', (d: any) => void Object.assign(d.versions[0], { manifest: d.versions[1].manifest, manifestDigest: d.versions[1].manifestDigest })],
    ['pins no manifest for an older version', (d: any) => void delete d.versions[3].manifestDigest],
    ['points an older manifest outside the registry', (d: any) => void (d.versions[3].manifest = '../../etc/passwd')],
    ['is not an object', () => '[]'],
    ['is not JSON', () => '{"name": "tidy", '],
    ['nests without end', () => `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
  ])('refuses a document that %s', async (_title, forge) => {
    const registry = await forged(forge);
    const error = await registry.manifest('tidy@1.0.0').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkilldexError);
    expect(['VERSIONS_INVALID', 'INVALID_PATH']).toContain((error as SkilldexError).code);
    expect((error as SkilldexError).hint).toBeTruthy();
  });

  it('refuses a document larger than the client reads, before fetching it', async () => {
    const copy = await tempDir('versions-large');
    await cp(built, copy, { recursive: true });
    await rewriteManifest(copy, 'tidy', (m) => (m.versions.size = 512 * 1024 * 1024));
    const registry = await openRegistry(copy, { cacheDir: await tempDir('versions-cache') });
    const error = await registry.versions('tidy').catch((e: SkilldexError) => e);
    expect(error).toMatchObject({ code: 'VERSIONS_INVALID', message: expect.stringContaining('more than this client reads') });
  });

  it('stops reading a served document at the pinned size', async () => {
    const copy = await tempDir('versions-grown');
    await cp(built, copy, { recursive: true });
    const path = join(copy, 'skills/tidy.versions.json');
    await writeFile(path, `${await readFile(path, 'utf8')}${' '.repeat(1 << 20)}`);
    const grown = await openRegistry(copy, { cacheDir: await tempDir('versions-cache') });
    expect(await codeOf(grown.versions('tidy'))).toBe('RESPONSE_TOO_LARGE');
  });

  it('refuses an older manifest that is not the one the document pins, or describes another version', async () => {
    const copy = await tempDir('versions-old-manifest');
    await cp(built, copy, { recursive: true });
    const path = join(copy, 'skills/tidy@1.0.0.json');
    const manifest = JSON.parse(await readFile(path, 'utf8'));
    manifest.description = 'Changed by the host.';
    await writeFile(path, JSON.stringify(manifest));
    expect(await codeOf((await openRegistry(copy, { cacheDir: await tempDir('versions-cache') })).manifest('tidy@1.0.0'))).toBe('VERIFICATION_FAILED');

    // Consistently re-pinned, but the manifest is 1.2.0's under 1.0.0's entry.
    const other = await readFile(join(built, 'skills/tidy@1.2.0.json'), 'utf8');
    const registry = await forged((d) => {
      const entry = d.versions.find((v: any) => v.version === '1.0.0');
      entry.manifestDigest = sha(other);
      entry.manifest = 'skills/tidy@1.2.0.json';
    });
    const error = await registry.manifest('tidy@1.0.0').catch((e: SkilldexError) => e);
    expect(error).toMatchObject({ code: 'VERIFICATION_FAILED', message: expect.stringContaining('but the versions document lists tidy 1.0.0') });
  });

  it('refuses altered files of an older version and writes nothing', async () => {
    const copy = await tempDir('versions-old-files');
    await cp(built, copy, { recursive: true });
    const old = JSON.parse(await readFile(join(copy, 'skills/tidy@1.0.0.json'), 'utf8'));
    await writeFile(join(copy, old.urls.files, 'references/old.md'), 'Altered.\n');
    const registry = await openRegistry(copy, { cacheDir: await tempDir('versions-cache') });
    const project = await tempDir('versions-project');
    expect(await codeOf(registry.install('tidy@1.0.0', project, { via: 'files' }))).toBe('VERIFICATION_FAILED');
    expect(await readdir(project)).toEqual([]);
  });
});
