import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkRegistryPath, SkilldexError } from '../../src/runtime/index.ts';
import { openRegistry } from '../../src/runtime/node/index.ts';
import { buildExamples, rewriteManifest, tempDir } from './_registries.ts';

/**
 * A registry is untrusted input. These tests rewrite published manifests the way a compromised
 * host could, and check that nothing is read, written or run outside the skill's own folder.
 */
let built: string;
beforeAll(async () => {
  built = await buildExamples();
});

async function registryWith(name: string, change: (manifest: Record<string, any>) => void) {
  const copy = await tempDir('hostile');
  await cp(built, copy, { recursive: true });
  await rewriteManifest(copy, name, change);
  return openRegistry(copy, { cacheDir: await tempDir('cache') });
}

const codeOf = (promise: Promise<unknown>) => promise.then(() => 'resolved', (e: unknown) => (e instanceof SkilldexError ? e.code : String(e)));

describe('hostile manifests', () => {
  it('refuses registry URLs that leave the registry root', () => {
    for (const bad of ['../index.json', 'skills/../../etc/passwd', '/etc/passwd', 'https://evil.example/x.tar.gz', '//evil.example/x', 'skills/%2e%2e/x', 'a\\b', '\t//evil.example/x', 'ht\ttp://evil.example/x', 'skills/.\t./.\t./x', ' //evil.example/x', 'skills/a\u00a0b']) {
      expect(() => checkRegistryPath(bad)).toThrow(SkilldexError);
    }
    expect(checkRegistryPath('skills/pdf/0123456789abcdef/SKILL.md')).toBe('skills/pdf/0123456789abcdef/SKILL.md');
  });

  it('does not follow an archive URL pointing off the registry', async () => {
    const registry = await registryWith('semver-tool', (m) => (m.urls.archive = 'https://evil.example/semver.tar.gz'));
    expect(await codeOf(registry.install('semver-tool', await tempDir('project'), { via: 'archive' }))).toBe('INVALID_PATH');
  });

  it('refuses a manifest listing a file path that would escape the install folder, and writes nothing', async () => {
    const registry = await registryWith('semver-tool', (m) => (m.files[0].path = '../../escaped.txt'));
    const project = await tempDir('project');
    expect(await codeOf(registry.install('semver-tool', project, { via: 'files' }))).toBe('MANIFEST_INVALID');
    expect(await codeOf(registry.install('semver-tool', project, { via: 'archive' }))).toBe('MANIFEST_INVALID');
    expect(await readdir(project)).toEqual([]);
  });

  it('refuses a manifest listing one file path twice, and writes nothing', async () => {
    const registry = await registryWith('semver-tool', (m) => m.files.push({ ...m.files[0] }));
    const project = await tempDir('project');
    for (const via of ['files', 'archive'] as const) {
      const error = await registry.install('semver-tool', project, { via }).then(() => undefined, (e: unknown) => e as SkilldexError);
      expect(error?.code, via).toBe('MANIFEST_INVALID');
      expect(error?.message, via).toContain('must not list a path twice');
    }
    expect(await readdir(project)).toEqual([]);
  });

  it('refuses a manifest that declares more than a client unpacks, before downloading anything', async () => {
    const registry = await registryWith('semver-tool', (m) => (m.files[0].size = 2 ** 40));
    const project = await tempDir('project');
    for (const via of ['archive', 'files'] as const) {
      const error = await registry.install('semver-tool', project, { via }).then(() => undefined, (e: unknown) => e as SkilldexError);
      expect(error?.code, via).toBe('VERIFICATION_FAILED');
      expect(error?.message, via).toMatch(/its manifest declares 10995116\d{5} bytes of files/);
      expect(error?.message, via).toContain('at most 268435456 bytes');
    }
    expect(await readdir(project)).toEqual([]);
  });

  it('stops a gzip bomb at the size the manifest declares, without blocking the event loop', async () => {
    const copy = await tempDir('hostile');
    await cp(built, copy, { recursive: true });
    const manifest = JSON.parse(await readFile(join(copy, 'skills', 'semver-tool.json'), 'utf8')) as { urls: { archive: string } };
    // 8 MiB of zeros gzip to 8 KiB: small enough to download, far past the declared files' bound.
    await writeFile(join(copy, manifest.urls.archive), gzipSync(Buffer.alloc(8 * 1024 * 1024), { level: 9 }));
    const registry = await openRegistry(copy, { cacheDir: await tempDir('cache') });
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 1);
    const started = performance.now();
    const error = await registry.install('semver-tool', await tempDir('project'), { via: 'archive' }).then(() => undefined, (e: unknown) => e as SkilldexError);
    clearInterval(ticker);
    expect(error?.code).toBe('VERIFICATION_FAILED');
    expect(error?.message).toMatch(/inflates past \d+ bytes, more than the files its manifest declares/);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(ticks).toBeGreaterThan(0);
  });

  it('will not run an entry outside the skill folder', async () => {
    const registry = await registryWith('semver-tool', (m) => (m.entry.path = '../../../../../../bin/sh'));
    const outcome = await registry.run('semver-tool', { version: '1.0.0' }, { action: 'parse' });
    expect(outcome.error?.code).toBe('PERMISSION_DENIED');
  });

  it('will not run an entry that is not one of the verified files', async () => {
    const registry = await registryWith('semver-tool', (m) => (m.entry.path = 'scripts/missing.sh'));
    const outcome = await registry.run('semver-tool', { version: '1.0.0' }, { action: 'parse' });
    expect(outcome.error?.code).toBe('VERIFICATION_FAILED');
    expect(outcome.error?.message).toContain("entry 'scripts/missing.sh' is not one of the skill's files");
  });

  it('blocks a skill the scanner failed unless allowUnsafe, and warns on warn', async () => {
    const finding = { rule: 'exec/download-pipe-shell', severity: 'critical', file: 'scripts/semver.sh', line: 3, column: 1, evidence: 'curl … | sh', message: 'downloads and runs code', docs: '/security/#exec' };
    const failed = await registryWith('semver-tool', (m) => (m.scan = { verdict: 'fail', rulesVersion: '1', findings: [finding] }));
    const blocked = await failed.run('semver-tool', { version: '1.0.0' }, { action: 'parse' });
    expect(blocked.error?.code).toBe('BLOCKED_BY_SCAN');
    expect(blocked.error?.message).toContain('exec/download-pipe-shell (scripts/semver.sh:3)');
    const allowed = await failed.run('semver-tool', { version: '1.0.0' }, { action: 'parse', allowUnsafe: true });
    expect(allowed.status).toBe('success');
    const warned = await registryWith('semver-tool', (m) => (m.scan = { verdict: 'warn', rulesVersion: '1', findings: [{ ...finding, severity: 'warn' }] }));
    const outcome = await warned.run('semver-tool', { version: '1.0.0' }, { action: 'parse' });
    expect(outcome.status).toBe('success');
    expect(outcome.warnings?.[0]).toContain("security scan verdict is 'warn'");
  });

  it('rejects a manifest that breaks the schema', async () => {
    const registry = await registryWith('semver-tool', (m) => (m.files = 'everything'));
    expect(await codeOf(registry.load('semver-tool'))).toBe('MANIFEST_INVALID');
  });
});
