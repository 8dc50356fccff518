import { execFileSync } from 'node:child_process';
import { cp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRegistryPath, openRegistry as openBrowserRegistry, SkilldexError } from '../../src/runtime/index.ts';
import { fileUnderFile } from '../../src/runtime/shape-check.ts';
import { MAX_SKILL_FILES } from '../../src/runtime/verify.ts';
import { openRegistry } from '../../src/runtime/node/index.ts';
import { buildExamples, rewriteManifest, tempDir } from './_registries.ts';
import { forgeRegistry, type ForgedServer, type ForgedSkill, mount, serveForged, writeForged } from './_forged-registry.ts';

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

  it('a run refused for what the registry served fails with VERIFICATION_FAILED (not retried), naming the client\'s own code', async () => {
    const registry = await registryWith('semver-tool', (m) => (m.urls.archive = 'https://evil.example/semver.tar.gz'));
    const outcome = await registry.run('semver-tool', { version: '1.2.3' }, { action: 'parse', unsandboxed: true, retry: 3 });
    expect(outcome.error).toMatchObject({ code: 'VERIFICATION_FAILED', message: expect.stringContaining('leaves the registry root'), details: { registryCode: 'INVALID_PATH' } });
    // Not retried: a retry would be logged as a warning per failed try.
    expect((outcome.warnings ?? []).filter((w) => /^try \d/.test(w))).toEqual([]);
  });

  it('a tool id finds its skill only for a tool the skill has; a path-like script part is the caller\'s mistake', async () => {
    const registry = await openRegistry(built, { cacheDir: await tempDir('cache') });
    expect(registry.find('skill:semver-tool:semver')?.name).toBe('semver-tool');
    expect(registry.find('skill:semver-tool:../../etc/passwd')).toBeUndefined();
    expect(await codeOf(registry.load('skill:semver-tool:nope'))).toBe('ASSET_NOT_FOUND');
    expect(await codeOf(registry.install('skill:semver-tool:../../x', await tempDir('project')))).toBe('ASSET_NOT_FOUND');
    const traversal = await registry.run('skill:semver-tool:../../../../bin/sh', {}, { unsandboxed: true });
    expect(traversal.error?.code).toBe('INVALID_PARAM');
  });

  it('refuses a manifest listing a file path that would escape the install folder, and writes nothing', async () => {
    const registry = await registryWith('semver-tool', (m) => (m.files[0].path = '../../escaped.txt'));
    const project = await tempDir('project');
    expect(await codeOf(registry.install('semver-tool', project, { via: 'files' }))).toBe('MANIFEST_INVALID');
    expect(await codeOf(registry.install('semver-tool', project, { via: 'archive' }))).toBe('MANIFEST_INVALID');
    expect(await readdir(project)).toEqual([]);
  });

  it.each([
    ['a Windows device name', 'references/CON', 'a device name on Windows'],
    ['a Windows device name with an extension', 'references/aux.txt', 'a device name on Windows'],
    ['a name ending in a dot', 'references/notes.', 'ending in a dot or a space'],
    ['a name longer than a file system holds', `references/${'n'.repeat(300)}.md`, 'at most 255 fit a file system'],
  ])('refuses a manifest listing a file with %s, naming the file, and writes nothing', async (_what, path, words) => {
    const registry = await registryWith('semver-tool', (m) => (m.files[0].path = path));
    const project = await tempDir('project');
    const error = await registry.install('semver-tool', project, { via: 'files' }).then(() => undefined, (e: unknown) => e as SkilldexError);
    expect(error?.code).toBe('MANIFEST_INVALID');
    expect(error?.message).toContain(words);
    expect(await readdir(project)).toEqual([]);
  });

  it('refuses a manifest that says the skill has a SKILL.md and lists none, and writes nothing', async () => {
    const registry = await registryWith('semver-tool', (m) => (m.files = m.files.filter((f: { path: string }) => f.path !== 'SKILL.md')));
    const project = await tempDir('project');
    const error = await registry.install('semver-tool', project, { via: 'files' }).then(() => undefined, (e: unknown) => e as SkilldexError);
    expect(error?.code).toBe('MANIFEST_INVALID');
    expect(error?.message).toContain('must list SKILL.md, as hasSkillMd says the skill has one');
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
      expect(error?.code, via).toBe('MANIFEST_TOO_LARGE');
      expect(error?.message, via).toMatch(/skills\/semver-tool\.json declares 10995116\d{5} bytes of files for semver-tool/);
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

  it('will not run an entry outside the skill folder: the manifest is refused before anything starts', async () => {
    const registry = await registryWith('semver-tool', (m) => (m.entry.path = '../../../../../../bin/sh'));
    const outcome = await registry.run('semver-tool', { version: '1.0.0' }, { action: 'parse' });
    expect(outcome.error?.code).toBe('VERIFICATION_FAILED');
    expect(outcome.error?.message).toContain("entry.path: '../../../../../../bin/sh' must be one of the listed files");
    // Unsandboxed, it must not say it ran unconfined.
    const unsandboxed = await registry.run('semver-tool', { version: '1.0.0' }, { action: 'parse', unsandboxed: true });
    expect(unsandboxed.error?.code).toBe('VERIFICATION_FAILED');
    expect(unsandboxed.warnings ?? []).toEqual([]);
    const project = await tempDir('project');
    expect(await codeOf(registry.install('semver-tool', project, { via: 'files' }))).toBe('MANIFEST_INVALID');
    expect(await readdir(project)).toEqual([]);
  });

  it('will not run an entry that is not one of the verified files', async () => {
    const registry = await registryWith('semver-tool', (m) => (m.entry.path = 'scripts/missing.sh'));
    const outcome = await registry.run('semver-tool', { version: '1.0.0' }, { action: 'parse' });
    expect(outcome.error?.code).toBe('VERIFICATION_FAILED');
    expect(outcome.error?.message).toContain("entry.path: 'scripts/missing.sh' must be one of the listed files");
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

  it('fails a run whose input or output schema does not compile with an outcome, never an exception', async () => {
    const broken = { type: 'object', properties: { limit: { type: 'number', maximum: null } } };
    for (const field of ['inputSchema', 'outputSchema'] as const) {
      const registry = await registryWith('semver-tool', (m) => (m[field] = broken));
      const outcome = await registry.run('semver-tool', { version: '1.0.0' }, { action: 'parse' });
      expect(outcome.status, field).toBe('error');
      expect(outcome.error?.code, field).toBe('VERIFICATION_FAILED');
      expect(outcome.error?.message, field).toMatch(/^the skill's (input|output) schema is not a usable JSON Schema \(schema is invalid: data\/properties\/limit\/maximum must be number\)$/);
    }
  });

  it('rejects a manifest that breaks the schema', async () => {
    const registry = await registryWith('semver-tool', (m) => (m.files = 'everything'));
    expect(await codeOf(registry.load('semver-tool'))).toBe('MANIFEST_INVALID');
  });
});

describe('hostile registry folders', () => {
  const SKILL: ForgedSkill = { name: 'tidy', files: { 'SKILL.md': '---\nname: tidy\ndescription: Tidies.\n---\n\n# Tidy\n', 'scripts/run.sh': '#!/bin/sh\necho tidy\n' } };

  /** A forged registry folder in which `path` has been replaced by what `plant` puts there. */
  async function folderWith(path: (files: Map<string, Uint8Array>) => string, plant: (target: string) => Promise<void>) {
    const files = await forgeRegistry([SKILL]);
    const dir = await writeForged(await tempDir('folder-registry'), files);
    const target = join(dir, path(files));
    await rm(target);
    await plant(target);
    return { dir, target };
  }
  const fifo = async (target: string) => {
    execFileSync('mkfifo', [target]);
  };
  const devZero = (target: string) => symlink('/dev/zero', target);
  const manifestOf = (files: Map<string, Uint8Array>) => [...files.keys()].find((p) => p.endsWith('.json') && p !== 'index.json')!;
  const rawFileOf = (files: Map<string, Uint8Array>) => [...files.keys()].find((p) => p.endsWith('/scripts/run.sh'))!;

  /** The error `promise` ends in, within 10 s: a FIFO or /dev/zero read used to hang for ever. */
  const refusal = async (promise: Promise<unknown>) => {
    const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('hung'), 10_000).unref());
    return Promise.race([promise.then(() => 'resolved', (e: unknown) => e as SkilldexError), timeout]);
  };
  const expectNotRegular = (error: unknown, target: string, kind: string) => {
    expect(error).toBeInstanceOf(SkilldexError);
    expect((error as SkilldexError).code).toBe('FETCH_FAILED');
    expect((error as SkilldexError).message).toBe(`cannot read ${target}: it is ${kind}, not a regular file`);
    expect((error as SkilldexError).hint).toContain('regular files');
  };

  it.skipIf(process.platform === 'win32')('refuses an index.json that is a FIFO or a link to /dev/zero, without hanging', async () => {
    const piped = await folderWith(() => 'index.json', fifo);
    expectNotRegular(await refusal(openRegistry(piped.dir, { cacheDir: await tempDir('cache') })), piped.target, 'a FIFO (named pipe)');
    const zero = await folderWith(() => 'index.json', devZero);
    expectNotRegular(await refusal(openRegistry(zero.dir, { cacheDir: await tempDir('cache') })), zero.target, 'a character device');
  });

  it.skipIf(process.platform === 'win32')('refuses a manifest, or a skill file, that is a FIFO or a link to /dev/zero', async () => {
    for (const [plant, kind] of [[fifo, 'a FIFO (named pipe)'], [devZero, 'a character device']] as const) {
      const manifest = await folderWith(manifestOf, plant);
      const registry = await openRegistry(manifest.dir, { cacheDir: await tempDir('cache') });
      expectNotRegular(await refusal(registry.manifest('tidy')), manifest.target, kind);
      const raw = await folderWith(rawFileOf, plant);
      const project = await tempDir('project');
      const files = await openRegistry(raw.dir, { cacheDir: await tempDir('cache') });
      expectNotRegular(await refusal(files.install('tidy', project, { via: 'files' })), raw.target, kind);
      expect(await readdir(project)).toEqual([]);
    }
  });

  it('follows a link to a regular file, and stops reading at the cap a read has over HTTP', async () => {
    const linked = await folderWith(() => 'index.json', async (target) => {
      const elsewhere = join(await tempDir('deploy'), 'index.json');
      await writeFile(elsewhere, (await forgeRegistry([SKILL])).get('index.json')!);
      await symlink(elsewhere, target);
    });
    expect((await openRegistry(linked.dir, { cacheDir: await tempDir('cache') })).list().map((s) => s.name)).toEqual(['tidy']);
    const large = await folderWith(() => 'index.json', (target) => writeFile(target, Buffer.alloc(4096, 0x20)));
    const error = await refusal(openRegistry(large.dir, { cacheDir: await tempDir('cache'), maxIndexBytes: 1024 }));
    expect((error as SkilldexError).code).toBe('RESPONSE_TOO_LARGE');
    expect((error as SkilldexError).message).toContain(large.target);
  });

  it('shows the control characters of an index.json that is not JSON, never the raw bytes', async () => {
    const { dir } = await folderWith(() => 'index.json', (target) => writeFile(target, '\u001b]0;PWNED\u0007\u009b31m{'));
    const error = (await refusal(openRegistry(dir, { cacheDir: await tempDir('cache') }))) as SkilldexError;
    expect(error.code).toBe('INDEX_INVALID');
    expect(error.message).toContain('␛]0;PWNED␇');
    expect(error.message).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});

describe('a manifest listing a file and a path inside it', () => {
  const NESTED: ForgedSkill = {
    name: 'nested',
    mode: 'code',
    files: { 'SKILL.md': '---\nname: nested\ndescription: Nests.\n---\n\n# Nested\n', 'scripts/semver.sh': '#!/bin/sh\necho {}\n', 'scripts/semver.sh/x': 'inside a file\n' },
    manifest: (m) => (m.entry = { path: 'scripts/semver.sh', runner: 'protocol', language: 'shell' }),
  };
  let forged: ForgedServer;
  let url: string;
  beforeAll(async () => {
    forged = await serveForged();
    url = mount(forged, await forgeRegistry([NESTED]));
  });
  afterAll(() => forged.close());

  it('is refused up front (MANIFEST_INVALID) by install, run and the browser build, and nothing is written', async () => {
    const registry = await openRegistry(url, { cacheDir: await tempDir('cache') });
    const project = await tempDir('project');
    for (const via of ['files', 'archive'] as const) {
      const error = await registry.install('nested', project, { via }).then(() => undefined, (e: unknown) => e as SkilldexError);
      expect(error?.code, via).toBe('MANIFEST_INVALID');
      expect(error?.message, via).toContain('must not list a path inside another listed file (scripts/semver.sh and scripts/semver.sh/x)');
    }
    expect(await readdir(project)).toEqual([]);
    // run's outcome codes have no MANIFEST_INVALID: a manifest that fails its checks failed verification.
    const outcome = await registry.run('nested', {});
    expect(outcome.status).toBe('error');
    expect(outcome.error?.code).toBe('VERIFICATION_FAILED');
    expect(outcome.error?.message).toContain('does not match the SkillManifest schema (files: must not list a path inside another listed file');
    expect(outcome.error?.details).toMatchObject({ problems: ['files: must not list a path inside another listed file (scripts/semver.sh and scripts/semver.sh/x)'] });
    const browser = await openBrowserRegistry(url);
    expect(await codeOf(browser.manifest('nested'))).toBe('MANIFEST_INVALID');
  });

  it('finds the pair whatever the order and whatever sorts between them, and nothing in look-alikes', () => {
    expect(fileUnderFile(['a/b/c', 'a-b', 'a/b', 'a'])).toEqual(['a', 'a/b']);
    expect(fileUnderFile(['x/y.sh/z', 'x/y.sh!', 'x/y.sh'])).toEqual(['x/y.sh', 'x/y.sh/z']);
    expect(fileUnderFile(['a/b', 'a/bc', 'ab', 'a.b/c'])).toBeUndefined();
    expect(fileUnderFile([`${'d/'.repeat(50_000)}f`, `${'d/'.repeat(49_999)}d`])).toEqual([`${'d/'.repeat(49_999)}d`, `${'d/'.repeat(50_000)}f`]);
  });
});

describe('a manifest listing two paths that differ only in case', () => {
  // On macOS and Windows both are one file: installed there, run.sh would hold RUN.sh's bytes.
  const TWINS: ForgedSkill = {
    name: 'twins',
    mode: 'code',
    files: { 'SKILL.md': '---\nname: twins\ndescription: Twins.\n---\n\n# Twins\n', 'scripts/run.sh': '#!/bin/sh\necho {}\n', 'scripts/RUN.sh': '#!/bin/sh\necho pwned\n' },
    manifest: (m) => (m.entry = { path: 'scripts/run.sh', runner: 'protocol', language: 'shell' }),
  };
  let forged: ForgedServer;
  let url: string;
  beforeAll(async () => {
    forged = await serveForged();
    url = mount(forged, await forgeRegistry([TWINS]));
  });
  afterAll(() => forged.close());

  it('is refused up front (MANIFEST_INVALID) by install and the browser build, and nothing is written', async () => {
    const registry = await openRegistry(url, { cacheDir: await tempDir('cache') });
    const project = await tempDir('project');
    const error = await registry.install('twins', project).then(() => undefined, (e: unknown) => e as SkilldexError);
    expect(error?.code).toBe('MANIFEST_INVALID');
    expect(error?.message).toContain('must not list two paths that differ only in case (scripts/run.sh and scripts/RUN.sh)');
    expect(await readdir(project)).toEqual([]);
    expect((await registry.run('twins', {})).error?.code).toBe('VERIFICATION_FAILED');
    expect(await codeOf((await openBrowserRegistry(url)).manifest('twins'))).toBe('MANIFEST_INVALID');
  });
});

describe('a manifest listing more files than a client reads', () => {
  // Real files, every digest right: the only thing wrong with `crowded` is how many files it lists.
  const many = (name: string, count: number): ForgedSkill => ({
    name,
    files: { 'SKILL.md': `---\nname: ${name}\ndescription: Many files.\n---\n\n# Many\n`, ...Object.fromEntries(Array.from({ length: count - 1 }, (_, i) => [`references/r${i}.md`, `${i}\n`])) },
  });
  let forged: ForgedServer;
  let url: string;
  beforeAll(async () => {
    forged = await serveForged();
    url = mount(forged, await forgeRegistry([many('crowded', MAX_SKILL_FILES + 1), many('full', MAX_SKILL_FILES)]));
  });
  afterAll(() => forged.close());

  it('is refused as MANIFEST_TOO_LARGE, naming the manifest URL, the count and the limit, before any file is requested', async () => {
    const project = await tempDir('project');
    const registry = await openRegistry(url, { cacheDir: await tempDir('cache') });
    for (const via of ['archive', 'files'] as const) {
      const error = await registry.install('crowded', project, { via }).then(() => undefined, (e: unknown) => e as SkilldexError);
      expect(error?.code, via).toBe('MANIFEST_TOO_LARGE');
      expect(error?.message, via).toBe(`${url}skills/crowded.json lists 10001 files; this client reads at most 10000 files of one skill`);
      expect(error?.hint, via).toContain('nothing of this skill was downloaded');
    }
    expect(await codeOf(registry.load('crowded'))).toBe('MANIFEST_TOO_LARGE');
    // The browser build checks shapes with the generated JSON Schemas instead of zod: the count comes first for both.
    expect(await codeOf((await openBrowserRegistry(url)).files('crowded'))).toBe('MANIFEST_TOO_LARGE');
    expect(forged.requests.filter((path) => path.startsWith('/reg/skills/crowded/'))).toEqual([]);
    expect(await readdir(project)).toEqual([]);
  });

  it('installs a skill of exactly as many files as the limit', async () => {
    const project = await tempDir('project');
    const registry = await openRegistry(url, { cacheDir: await tempDir('cache') });
    const result = await registry.install('full', project);
    expect(result.files).toBe(MAX_SKILL_FILES);
    expect((await readdir(join(project, 'full', 'references'))).length).toBe(MAX_SKILL_FILES - 1);
    // Installing it again finds its own earlier install: it is not taken for a folder of the user's.
    await writeFile(join(project, 'full', 'references', 'r0.md'), 'edited\n');
    expect(await registry.install('full', project)).toMatchObject({ changed: true });
    expect(await readFile(join(project, 'full', 'references', 'r0.md'), 'utf8')).toBe('0\n');
  });
});
