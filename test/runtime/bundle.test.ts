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

beforeAll(async () => {
  server = await serveDirectory(await buildExamples());
  outFile = join(await tempDir('bundle'), 'runtime', 'skilldex.js');
  ({ bytes } = await bundleBrowserRuntime(outFile));
});
afterAll(() => server.close());

describe('browser runtime bundle', () => {
  it('reads the index major version the schema defines', () => {
    expect(SUPPORTED_INDEX_MAJOR).toBe(INDEX_FORMAT_VERSION.split('.')[0]);
  });

  it('is one ES module with no Node built-ins', async () => {
    const code = await readFile(outFile, 'utf8');
    expect(bytes).toBe(Buffer.byteLength(code));
    expect(code).not.toMatch(/["']node:/);
    expect(code).not.toMatch(/\brequire\(/);
    expect(code).not.toMatch(/from\s*["'](fs|path|child_process|os|crypto|http|zlib)["']/);
    // Everything is inlined: no bare imports left for a browser to resolve.
    expect(code).not.toMatch(/^import\s|[;}]import\s*[{*\w]/m);
    expect(bytes).toBeLessThan(60_000);
    // What a page downloads: 17.7 kB gzipped when measured (49 kB raw), of which 5.7 kB is the
    // Ed25519 fallback for browsers without it in WebCrypto and 1.7 kB the index and manifest
    // shapes (generated JSON Schemas and their checker); zod stays out of it (it would add ~95 kB).
    expect(gzipSync(code).length).toBeLessThan(19_000);
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
  });
});
