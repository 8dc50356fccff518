import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDEX_FORMAT_VERSION } from '../../src/core/schemas/registry-index.ts';
import { SUPPORTED_INDEX_MAJOR } from '../../src/runtime/node/index.ts';
import { bundleBrowserRuntime } from '../../scripts/bundle-runtime.ts';
import { buildExamples, tempDir } from './_registries.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';

let server: StaticServer;
let outFile: string;
let bytes: number;
let lazy: { file: string; bytes: number };

beforeAll(async () => {
  server = await serveDirectory(await buildExamples());
  outFile = join(await tempDir('bundle'), 'runtime', 'skilldex.js');
  ({ bytes, lazy } = await bundleBrowserRuntime(outFile));
});
afterAll(() => server.close());

describe('browser runtime bundle', () => {
  it('reads the index major version the schema defines', () => {
    expect(SUPPORTED_INDEX_MAJOR).toBe(INDEX_FORMAT_VERSION.split('.')[0]);
  });

  it('is one ES module with no Node built-ins, and a second one it loads only for name@range', async () => {
    const code = await readFile(outFile, 'utf8');
    expect(bytes).toBe(Buffer.byteLength(code));
    // The semver range parser is imported on demand, from beside the entry, and nothing else is.
    expect(code.match(/import\(([^)]*)\)/g)).toEqual([`import("./${lazy.file}")`]);
    const rangeCode = await readFile(join(outFile, '..', lazy.file), 'utf8');
    expect(rangeCode).not.toMatch(/["']node:|\brequire\(|^import\s|[;}]import\s*[{*\w]/m);
    expect(gzipSync(rangeCode).length).toBeLessThan(8_000);
    expect(code).not.toMatch(/["']node:/);
    expect(code).not.toMatch(/\brequire\(/);
    expect(code).not.toMatch(/from\s*["'](fs|path|child_process|os|crypto|http|zlib)["']/);
    // Everything is inlined: no bare imports left for a browser to resolve.
    expect(code).not.toMatch(/^import\s|[;}]import\s*[{*\w]/m);
    // The raw budget catches a library slipping in (zod alone would add ~95 kB), with room for
    // wording; what a page downloads is held by the gzip budget below.
    expect(bytes).toBeLessThan(62_000);
    // What a page downloads: 21.3 kB gzipped when measured (59,998 bytes raw), of which 5.7 kB is the
    // Ed25519 fallback for browsers without it in WebCrypto and 2.0 kB the index, manifest and
    // versions shapes (generated JSON Schemas and their checker); zod stays out of it (it would
    // add ~95 kB), and so does semver (6.8 kB, in the module loaded for name@range).
    expect(gzipSync(code).length).toBeLessThan(21_500);
  });

  it('imports cleanly and reads a registry over HTTP with fetch only', async () => {
    const runtime = await import(pathToFileURL(outFile).href);
    expect(Object.keys(runtime)).toEqual(expect.arrayContaining(['openRegistry', 'toPrompt', 'parseTemplate', 'verifySkillFiles', 'SkilldexError']));
    const registry = await runtime.openRegistry(server.url);
    expect(registry.search('semver', { shape: 'matched_skills', limit: 1 }).matched_skills[0].name).toBe('semver-tool');
    const skill = await registry.load('semver-tool');
    expect(skill.text.startsWith('# Skill: semver-tool\n\n')).toBe(true);
    const files = await registry.files('semver-tool');
    expect([...files.keys()]).toContain('scripts/semver.sh');
    await expect(registry.loadAsset('semver-tool', '../SKILL.md')).rejects.toMatchObject({ code: 'INVALID_PATH' });
    // A range loads the semver module beside the entry; the highest version it admits is the current one.
    const current = await registry.manifest('semver-tool');
    expect((await registry.manifest('semver-tool@>=0.0.0')).digest).toBe(current.digest);
    await expect(registry.manifest('semver-tool@<0.0.1-0')).rejects.toMatchObject({ code: 'VERSION_NOT_FOUND', hint: expect.stringContaining(current.version) });
  });
});
