import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/core/prompt.ts';
import { openRegistry as openBrowserRegistry, SkilldexError } from '../../src/runtime/index.ts';
import { type NodeRegistry, openRegistry } from '../../src/runtime/node/index.ts';
import { buildExamples, tempDir } from './_registries.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';

let dir: string;
let server: StaticServer;
let registry: NodeRegistry;

beforeAll(async () => {
  dir = await buildExamples();
  server = await serveDirectory(dir);
  registry = await openRegistry(server.url, { cacheDir: await tempDir('cache') });
});
afterAll(() => server.close());

const rejectsWith = async (promise: Promise<unknown>, code: string) => {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(SkilldexError);
  expect((error as SkilldexError).code).toBe(code);
  return error as SkilldexError;
};

describe('openRegistry over HTTP', () => {
  it('reads index.json from the root URL or the index URL, in the browser build and in Node', async () => {
    const viaIndex = await openBrowserRegistry(`${server.url}index.json`);
    expect(viaIndex.root).toBe(server.url);
    expect(viaIndex.list().map((s) => s.name)).toEqual(registry.list().map((s) => s.name));
    expect(registry.list().length).toBeGreaterThanOrEqual(10);
    expect(new Set(registry.list().map((s) => s.format))).toEqual(new Set(['skill-md', 'package', 'skill-json']));
  });

  it('also opens the build folder directly', async () => {
    const local = await openRegistry(dir, { cacheDir: await tempDir('cache') });
    expect(local.list().map((s) => s.name)).toEqual(registry.list().map((s) => s.name));
    expect((await local.load('semver-tool')).skillMd).toBe((await registry.load('semver-tool')).skillMd);
  });

  it('refuses an index with an unknown major version, and one that breaks the schema', async () => {
    const copy = await tempDir('badindex');
    const index = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8'));
    await writeFile(join(copy, 'index.json'), JSON.stringify({ ...index, version: '3.0.0' }));
    const versionError = await rejectsWith(openRegistry(copy), 'INDEX_VERSION_UNSUPPORTED');
    expect(versionError.message).toContain('"3.0.0"');
    await writeFile(join(copy, 'index.json'), JSON.stringify({ ...index, skills: [{ name: 1 }] }));
    await rejectsWith(openRegistry(copy), 'INDEX_INVALID');
    await rejectsWith(openRegistry(join(copy, 'missing')), 'NO_REGISTRY');
  });
});

describe('search', () => {
  it('ranks English and Chinese queries and filters by tag, category and format', () => {
    expect(registry.search('semantic version bump')[0]?.skill.name).toBe('semver-tool');
    expect(registry.search('审查代码')[0]?.skill.name).toBe('code_review');
    expect(registry.search('校对')[0]?.skill.name).toBe('chinese-proofreading');
    const functions = registry.search('', { format: 'skill-json', limit: 100 });
    expect(functions.length).toBeGreaterThan(3);
    expect(functions.every((hit) => hit.skill.format === 'skill-json')).toBe(true);
    const tagged = registry.search('', { tags: ['SEMVER'], limit: 100 });
    expect(tagged.map((hit) => hit.skill.name)).toEqual(['semver-tool']);
  });

  it("returns seed 003's matched_skills shape", () => {
    const result = registry.search('json', { shape: 'matched_skills', limit: 2 });
    expect(Object.keys(result)).toEqual(['matched_skills']);
    expect(result.matched_skills[0]).toEqual({ name: 'json-toolkit', description: registry.find('json-toolkit')?.description });
    expect(Object.keys(result.matched_skills[0] ?? {})).toEqual(['name', 'description']);
  });
});

describe('load', () => {
  it('matches names case-insensitively and returns the whole verified SKILL.md', async () => {
    const skill = await registry.load('SemVer-Tool');
    expect(skill.name).toBe('semver-tool');
    const onDisk = await readFile(join(dir, skill.manifest.urls.files, 'SKILL.md'), 'utf8');
    expect(skill.skillMd).toBe(onDisk);
    expect(skill.skillMd?.startsWith('---\nname: semver-tool')).toBe(true);
    expect(skill.body.startsWith('# SemVer Tool')).toBe(true);
    expect(skill.text).toBe(`# Skill: semver-tool\n\n${skill.body}`);
  });

  it('returns the manifest plus prompt.md for a skill.json llm skill', async () => {
    const skill = await registry.load('code_review');
    expect(skill.format).toBe('skill-json');
    expect(skill.mode).toBe('llm');
    expect(skill.prompt).toBeTruthy();
    expect(skill.manifest.inputSchema).toBeTruthy();
    expect(skill.text).toMatch(/^# Skill: code_review\n\n/);
    expect(skill.body).toContain('## Signature');
    expect(skill.body).toContain(skill.prompt?.trim().split('\n')[0]);
  });

  it('names close matches when a skill does not exist', async () => {
    const error = await rejectsWith(registry.load('semver'), 'SKILL_NOT_FOUND');
    expect(error.hint).toContain('semver-tool');
  });

  it('shows the control characters of a name it quotes, never the raw bytes', async () => {
    const error = await rejectsWith(registry.load('\u001b[31mred\u0007'), 'SKILL_NOT_FOUND');
    expect(error.message).toContain('\u241b[31mred\u2407');
    expect(error.message).not.toMatch(/[\u0000-\u001f\u007f]/);
  });
});

describe('assets (seed 002)', () => {
  it('lists and loads files under references/, assets/ and scripts/', async () => {
    const assets = await registry.listAssets('semver-tool');
    expect(assets).toEqual(['references/bump-rules.md', 'scripts/semver.sh']);
    const text = await registry.loadAsset('semver-tool', 'references/bump-rules.md');
    expect(text).toBe(await readFile(join(dir, (await registry.manifest('semver-tool')).urls.files, 'references/bump-rules.md'), 'utf8'));
  });

  it('refuses traversal and encoding tricks before any request is made', async () => {
    const before = server.requests.length;
    const attempts = [
      '../SKILL.md',
      'references/../SKILL.md',
      'references/../../index.json',
      '/etc/passwd',
      'C:/Windows/win.ini',
      'references\\..\\SKILL.md',
      'references/%2e%2e/SKILL.md',
      'references%2f..%2fSKILL.md',
      '%2e%2e/index.json',
      'references/bump-rules.md\0.png',
      'SKILL.md',
      'references/',
      'references//bump-rules.md',
      './references/bump-rules.md',
      '~/.ssh/id_rsa',
    ];
    for (const path of attempts) await rejectsWith(registry.loadAsset('semver-tool', path), 'INVALID_PATH');
    expect(server.requests.length).toBe(before);
    await rejectsWith(registry.loadAsset('semver-tool', 'references/missing.md'), 'ASSET_NOT_FOUND');
  });

  it('gives the absolute path of a script inside a verified copy', async () => {
    const path = await registry.scriptPath('semver-tool', 'semver.sh');
    expect(path).toMatch(/^\/.*\/skills\/semver-tool\/[0-9a-f]{16}\/scripts\/semver\.sh$/);
    expect(await readFile(path, 'utf8')).toContain('semver-tool');
    await rejectsWith(registry.scriptPath('semver-tool', '../SKILL.md'), 'INVALID_PATH');
    await rejectsWith(registry.scriptPath('semver-tool', 'nope.sh'), 'ASSET_NOT_FOUND');
  });
});

describe('toPrompt', () => {
  it('renders both prompt formats with locations of the published SKILL.md', () => {
    const xml = registry.toPrompt(['semver-tool', 'code_review']);
    const semverFiles = registry.find('semver-tool')?.path;
    expect(xml).toContain(`<skill>\n<name>\nsemver-tool\n</name>\n<description>\n`);
    expect(xml).toContain(`<location>\n${server.url}${semverFiles}SKILL.md\n</location>`);
    expect(xml).toContain(`<location>\n${server.url}skills/code_review.json\n</location>`);
    expect(xml.startsWith('<available_skills>\n')).toBe(true);
    const compact = registry.toPrompt(['semver-tool'], { style: 'available-skills' });
    expect(compact).toBe(`<available-skills>\n  <skill name="semver-tool">\n    ${escapeHtml(registry.find('semver-tool')?.description ?? '')}\n  </skill>\n</available-skills>`);
    expect(registry.toPrompt([])).toBe('<available_skills>\n</available_skills>');
  });
});
