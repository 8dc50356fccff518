import { createHash } from 'node:crypto';
import { link, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistry } from '../../src/pipeline/index.ts';
import { publishedJsonSchemas } from '../../src/core/schemas/json-schemas.ts';
import { SkillManifest } from '../../src/core/schemas/manifest.ts';
import { DiscoveryIndexV1, DiscoveryIndexV2, RegistryIndex } from '../../src/core/schemas/registry-index.ts';
import { fillName } from '../../src/core/url-template.ts';

const repo = join(import.meta.dirname, '..', '..');
let a: string;
let b: string;

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out.push(relative(dir, p));
    }
  };
  await walk(dir);
  return out.sort();
}

const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as unknown;

beforeAll(async () => {
  a = await mkdtemp(join(tmpdir(), 'skilldex-emit-a-'));
  b = await mkdtemp(join(tmpdir(), 'skilldex-emit-b-'));
  const first = await buildRegistry({ root: repo, outDir: a });
  expect(first.ok, JSON.stringify(first.diagnostics.filter((d) => d.severity === 'error'))).toBe(true);
  await buildRegistry({ root: repo, outDir: b });
});

afterAll(async () => {
  await rm(a, { recursive: true, force: true });
  await rm(b, { recursive: true, force: true });
});

describe('emitted registry', () => {
  it('is byte-identical across two builds of the same tree', async () => {
    const files = await listFiles(a);
    expect(await listFiles(b)).toEqual(files);
    for (const f of files) expect((await readFile(join(b, f))).equals(await readFile(join(a, f))), f).toBe(true);
  });

  it('covers every format and mode among the example skills', async () => {
    const index = RegistryIndex.parse(await readJson(join(a, 'index.json')));
    const kinds = new Set(index.skills.map((s) => `${s.format}/${s.mode}`));
    for (const k of ['skill-md/instructions', 'package/code', 'skill-json/code', 'skill-json/llm', 'skill-json/composite']) expect(kinds).toContain(k);
    expect(index.totalSkills).toBe(index.skills.length);
    expect(index.skills.length).toBeGreaterThanOrEqual(12);
    expect(index.totalTools).toBe(index.skills.reduce((n, s) => n + s.tools.length, 0));
    for (const s of index.skills) {
      expect(s.path).not.toMatch(/^\/|\\|\/work\//); // a URL path, never a machine path
      expect(s.scriptCount).toBe(s.tools.length);
    }
  });

  it('validates against the published JSON Schemas and the zod definitions', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const schemas = publishedJsonSchemas();
    const check = (schemaName: string, value: unknown) => {
      const validate = ajv.compile(schemas[schemaName] as object);
      expect(validate(value), `${schemaName}: ${JSON.stringify(validate.errors)}`).toBe(true);
    };
    const index = await readJson(join(a, 'index.json'));
    check('index.schema.json', index);
    RegistryIndex.parse(index);
    expect(await readJson(join(a, 'index.schema.json'))).toEqual(schemas['index.schema.json']);
    for (const entry of RegistryIndex.parse(index).skills) {
      const manifest = await readJson(join(a, fillName(RegistryIndex.parse(index).urls.manifest, entry.name)));
      check('manifest.schema.json', manifest);
      SkillManifest.parse(manifest);
    }
    DiscoveryIndexV2.parse(await readJson(join(a, '.well-known/agent-skills/index.json')));
    DiscoveryIndexV1.parse(await readJson(join(a, '.well-known/skills/index.json')));
  });

  it('publishes raw files and an archive whose contents match every digest', async () => {
    const index = RegistryIndex.parse(await readJson(join(a, 'index.json')));
    for (const entry of index.skills) {
      const m = SkillManifest.parse(await readJson(join(a, fillName(index.urls.manifest, entry.name))));
      const fromArchive = new Map<string, Buffer>();
      const extract = tar.extract();
      extract.on('entry', (header, stream, next) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: unknown) => {
          chunks.push(c as Buffer);
        });
        stream.on('end', () => {
          if (header.type === 'file') fromArchive.set(header.name, Buffer.concat(chunks));
          expect(header.mtime?.getTime()).toBe(0);
          next();
        });
      });
      const done = new Promise<void>((resolve) => extract.on('finish', () => resolve()));
      extract.end(gunzipSync(await readFile(join(a, m.urls.archive))));
      await done;
      expect([...fromArchive.keys()].sort()).toEqual(m.files.map((f) => f.path).sort());
      for (const file of m.files) {
        const raw = await readFile(join(a, m.urls.files, file.path));
        const digest = `sha256:${createHash('sha256').update(raw).digest('hex')}`;
        expect(digest).toBe(file.digest);
        expect(fromArchive.get(file.path)?.equals(raw)).toBe(true);
      }
    }
  });

  it('removes what an earlier build wrote when a skill disappears, and keeps the rest', async () => {
    const root = await mkdtemp(join(tmpdir(), 'skilldex-stale-'));
    const out = join(root, 'out');
    const write = async (name: string) => {
      await mkdir(join(root, 'skills', name), { recursive: true });
      await writeFile(join(root, 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: Does ${name} things when asked.\n---\n# ${name}\n\nSteps.\n`);
    };
    await write('alpha');
    await write('beta');
    await buildRegistry({ root, outDir: out, sourceDateEpoch: 0 });
    await writeFile(join(out, 'unrelated.txt'), 'kept');
    await rm(join(root, 'skills', 'beta'), { recursive: true });
    await buildRegistry({ root, outDir: out, sourceDateEpoch: 0 });
    const files = await listFiles(out);
    expect(files.some((f) => f.startsWith('skills/beta'))).toBe(false);
    expect(files.some((f) => f.startsWith('skills/alpha/'))).toBe(true);
    expect(files).toContain('unrelated.txt');
    await rm(root, { recursive: true, force: true });
  });

  it('links the 0.1.0 mirror to the content-addressed files, and a changed skill never alters an earlier file', async () => {
    const root = await mkdtemp(join(tmpdir(), 'skilldex-mirror-'));
    const out = join(root, 'out');
    const write = async (body: string) => {
      await mkdir(join(root, 'skills', 'alpha', 'references'), { recursive: true });
      await writeFile(join(root, 'skills', 'alpha', 'SKILL.md'), `---\nname: alpha\ndescription: Does alpha things when asked.\n---\n# Alpha\n\n${body}\n`);
      await writeFile(join(root, 'skills', 'alpha', 'references', 'notes.md'), `# Notes\n\n${body}\n`);
    };
    await write('First version.');
    const first = await buildRegistry({ root, outDir: out, sourceDateEpoch: 0 });
    const rawPath = (result: typeof first, file: string) => join(out, `${result.manifests[0]!.urls.files}${file}`);
    for (const file of ['SKILL.md', 'references/notes.md']) {
      expect((await stat(join(out, '.well-known/skills/alpha', file))).ino, file).toBe((await stat(rawPath(first, file))).ino);
    }
    // A host that keeps serving the first version's URL holds its file; the next build must not touch it.
    const kept = join(root, 'kept-SKILL.md');
    await link(rawPath(first, 'SKILL.md'), kept);
    await write('Second version.');
    const second = await buildRegistry({ root, outDir: out, sourceDateEpoch: 0 });
    expect(await readFile(kept, 'utf8')).toContain('First version.');
    expect(await readFile(join(out, '.well-known/skills/alpha/SKILL.md'), 'utf8')).toContain('Second version.');
    expect(await readFile(rawPath(second, 'SKILL.md'), 'utf8')).toContain('Second version.');
    await rm(root, { recursive: true, force: true });
  });

  it('takes times from SOURCE_DATE_EPOCH outside git, never from the clock', async () => {
    const root = await mkdtemp(join(tmpdir(), 'skilldex-epoch-'));
    await mkdir(join(root, 'skills', 'alpha'), { recursive: true });
    await writeFile(join(root, 'skills', 'alpha', 'SKILL.md'), '---\nname: alpha\ndescription: Alpha skill for tests.\n---\n# Alpha\n');
    const result = await buildRegistry({ root, outDir: join(root, 'out'), sourceDateEpoch: 1_234_567_890 });
    expect(result.index?.skills[0]?.lastModified).toBe('2009-02-13T23:31:30.000Z');
    expect(result.index?.updatedAt).toBe('2009-02-13T23:31:30.000Z');
    await rm(root, { recursive: true, force: true });
  });

  it('leaves times out, rather than printing 1970, without git history or SOURCE_DATE_EPOCH, and stays byte-identical', async () => {
    const root = await mkdtemp(join(tmpdir(), 'skilldex-no-time-'));
    await mkdir(join(root, 'skills', 'alpha'), { recursive: true });
    await writeFile(join(root, 'skills', 'alpha', 'SKILL.md'), '---\nname: alpha\ndescription: Alpha skill for tests.\n---\n# Alpha\n');
    const saved = process.env.SOURCE_DATE_EPOCH;
    delete process.env.SOURCE_DATE_EPOCH;
    try {
      const outs = [join(root, 'out-1'), join(root, 'out-2')];
      for (const outDir of outs) {
        const result = await buildRegistry({ root, outDir });
        expect(result.index?.skills[0]).not.toHaveProperty('lastModified');
        expect(result.index).not.toHaveProperty('generatedAt');
        expect(result.index).not.toHaveProperty('updatedAt');
        expect(result.manifests[0]).not.toHaveProperty('lastModified');
      }
      const files = await listFiles(outs[0]!);
      for (const file of files) {
        const text = await readFile(join(outs[0]!, file));
        expect(text.toString('latin1'), file).not.toContain('1970-01-01');
        expect(text.equals(await readFile(join(outs[1]!, file))), file).toBe(true);
      }
    } finally {
      if (saved !== undefined) process.env.SOURCE_DATE_EPOCH = saved;
      await rm(root, { recursive: true, force: true });
    }
  });
});
