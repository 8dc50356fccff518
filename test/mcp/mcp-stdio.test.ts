import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOL_NAME } from '../../src/mcp/tool-names.ts';
import { REPO, runSkilldex } from '../helpers/cli.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';
import { buildExamples, tempDir } from '../runtime/_registries.ts';
import { call, connectStdio, textOf } from './_mcp.ts';

const BUILTIN = ['get_skill_script_path', 'install_skill', 'list_skill_assets', 'list_skills', 'load_skill', 'load_skill_asset', 'match_skills', 'run_skill', 'search_skills'];

let registry: StaticServer;
let cacheDir: string;
let installRoot: string;
let open: Client;
let closeOpen: () => Promise<void>;
let openStderr: () => string;

beforeAll(async () => {
  registry = await serveDirectory(await buildExamples());
  cacheDir = await tempDir('mcp-cache');
  installRoot = await tempDir('mcp-install');
  // No model, whatever the environment says: llm-mode skills fail the same way everywhere.
  const server = await connectStdio(['--registry', registry.url, '--cache-dir', cacheDir, '--install-root', installRoot, '--allow-run', '--expose-skills', '--poll', '0'], { SKILLDEX_LLM_BASE_URL: '' });
  open = server.client;
  closeOpen = server.close;
  openStderr = server.stderr;
}, 120_000);

afterAll(async () => {
  await closeOpen?.();
  await registry?.close();
});

describe('skilldex mcp over stdio (SDK client, real CLI process, registry over HTTP)', () => {
  it('lists the built-in tools and one tool per typed skill entry point, each with input and output schema', async () => {
    const { tools } = await open.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of BUILTIN) expect(names).toContain(name);
    // ABP tools, protocol actions and skill.json functions.
    expect(names).toEqual(expect.arrayContaining(['unit-converter__convert', 'unit-converter__listUnits', 'semver-tool__compare', 'semver-tool__bump', 'text_stats', 'keyword_extract']));
    // Instructions-only skills are not tools.
    expect(names.some((name) => name.startsWith('conventional-commits'))).toBe(false);
    for (const tool of tools) {
      expect(tool.name).toMatch(MCP_TOOL_NAME);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    expect(new Set(names).size).toBe(names.length);
    const textStats = tools.find((tool) => tool.name === 'text_stats');
    expect(textStats?.inputSchema.required).toEqual(['text']);
    expect(textStats?.outputSchema?.properties).toHaveProperty('readingTimeMinutes');
  });

  it('list_skills and search_skills return structured content', async () => {
    const listed = await call(open, 'list_skills');
    const all = listed.structuredContent as { total: number; skills: { name: string }[] };
    expect(all.total).toBe(20);
    expect(all.skills.map((s) => s.name)).toContain('unit-converter');

    const found = (await call(open, 'search_skills', { query: 'convert miles to kilometres', limit: 3 })).structuredContent as { results: { name: string; score: number }[] };
    expect(found.results[0]?.name).toBe('unit-converter');
    expect(found.results.length).toBeLessThanOrEqual(3);

    const filtered = (await call(open, 'search_skills', { query: 'text', filters: { format: 'skill-json', mode: 'code' } })).structuredContent as { results: { format: string; mode: string }[] };
    expect(filtered.results.length).toBeGreaterThan(0);
    for (const hit of filtered.results) expect([hit.format, hit.mode]).toEqual(['skill-json', 'code']);
  });

  it('match_skills returns the skills whose triggers fire for a message, in English and Chinese', async () => {
    type Matches = { matches: { name: string; priority: number; fired: { phrases: string[]; event?: string } }[] };
    const english = (await call(open, 'match_skills', { message: 'How many days until my birthday?' })).structuredContent as Matches;
    expect(english.matches[0]).toMatchObject({ name: 'date-calc', priority: 0.65, fired: { phrases: ['how many days', 'days until'] } });
    const chinese = (await call(open, 'match_skills', { message: '下周五是星期几？' })).structuredContent as Matches;
    expect(chinese.matches.map((m) => m.name)).toContain('date-calc');
    const none = (await call(open, 'match_skills', { message: 'zzzz qqqq' })).structuredContent as Matches;
    expect(none.matches).toEqual([]);
  });

  it('load_skill gives "# Skill: <name>" instructions, case-insensitively', async () => {
    const result = await call(open, 'load_skill', { name: 'Unit-Converter' });
    expect(result.isError).toBeFalsy();
    const source = await readFile(join(REPO, 'skills/data/unit-converter/SKILL.md'), 'utf8');
    const body = source.replace(/^---[\s\S]*?\n---\n+/, '');
    expect(textOf(result)).toBe(`# Skill: unit-converter\n\n${body}`);
    expect((result.structuredContent as { text: string }).text).toBe(textOf(result));
  });

  it('list_skill_assets, load_skill_asset and get_skill_script_path serve verified files', async () => {
    const assets = (await call(open, 'list_skill_assets', { name: 'semver-tool' })).structuredContent as { assets: string[] };
    expect(assets.assets).toEqual(['references/bump-rules.md', 'scripts/semver.sh']);
    const asset = await call(open, 'load_skill_asset', { name: 'semver-tool', path: 'references/bump-rules.md' });
    expect(asset.structuredContent).toMatchObject({ encoding: 'utf-8', content: await readFile(join(REPO, 'skills/dev/semver-tool/references/bump-rules.md'), 'utf8') });
    const script = await call(open, 'get_skill_script_path', { name: 'semver-tool', script: 'semver.sh' });
    const path = (script.structuredContent as { path: string }).path;
    expect(path.startsWith(join(cacheDir, 'skills', 'semver-tool'))).toBe(true);
    expect(await readFile(path, 'utf8')).toBe(await readFile(join(REPO, 'skills/dev/semver-tool/scripts/semver.sh'), 'utf8'));
  });

  it('install_skill installs a verified copy inside the install root and refuses targets outside it', async () => {
    const result = await call(open, 'install_skill', { name: 'semver-tool', target: 'claude' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ name: 'semver-tool', dir: join(installRoot, '.claude/skills/semver-tool'), files: 4, changed: true });
    expect(existsSync(join(installRoot, '.claude/skills/semver-tool/scripts/semver.sh'))).toBe(true);
    const nested = await call(open, 'install_skill', { name: 'semver-tool', target: 'vendor/skills' });
    expect(nested.structuredContent).toMatchObject({ dir: join(installRoot, 'vendor/skills/semver-tool') });
    for (const target of ['../escape', '/tmp', `${installRoot}/../x`]) {
      const refused = await call(open, 'install_skill', { name: 'semver-tool', target });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/outside the install root \[INSTALL_FAILED\]/);
    }
    expect(existsSync(join(installRoot, '..', 'escape'))).toBe(false);
    // A folder of the user's that shares the skill's name is never deleted by an agent's install.
    await mkdir(join(installRoot, 'project', 'semver-tool'), { recursive: true });
    await writeFile(join(installRoot, 'project', 'semver-tool', 'precious.txt'), 'mine\n');
    const clash = await call(open, 'install_skill', { name: 'semver-tool', target: 'project' });
    expect(clash.isError).toBe(true);
    expect(textOf(clash)).toMatch(/is not an installed copy of 'semver-tool'; nothing was changed \[INSTALL_FAILED\]/);
    expect(await readFile(join(installRoot, 'project', 'semver-tool', 'precious.txt'), 'utf8')).toBe('mine\n');
  });

  it('run_skill runs a protocol script and reports the outcome as structured content', async () => {
    const result = await call(open, 'run_skill', { name: 'semver-tool', action: 'compare', input: { a: '1.10.0', b: '1.9.2' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'success', output: { result: 1, relation: '>' } });
    const failed = await call(open, 'run_skill', { name: 'semver-tool', action: 'explode', input: {} });
    expect(failed.isError).toBe(true);
    expect(failed.structuredContent).toMatchObject({ status: 'error', error: { code: 'UNKNOWN_ACTION' } });
  });

  it('skill tools run the skill: an ABP tool, a protocol action and a skill.json function', async () => {
    const converted = await call(open, 'unit-converter__convert', { value: 1, from: 'mi', to: 'km' });
    expect(converted.isError).toBeFalsy();
    expect((converted.structuredContent as { result: number }).result).toBeCloseTo(1.609344, 6);
    const compared = await call(open, 'semver-tool__compare', { a: '2.0.0-rc.1', b: '2.0.0' });
    expect(compared.structuredContent).toMatchObject({ result: -1 });
    const stats = await call(open, 'text_stats', { text: 'one two three' });
    expect(stats.structuredContent).toMatchObject({ words: 3, lines: 1 });
    const invalid = await call(open, 'text_stats', { text: 42 });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/INVALID_PARAM/);
  });

  it('offers every skill file as a skill:// resource and every skill as a prompt', async () => {
    const { resources } = await open.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['skill://unit-converter/SKILL.md', 'skill://semver-tool/scripts/semver.sh', 'skill://text_stats/skill.json']));
    const read = await open.readResource({ uri: 'skill://semver-tool/references/bump-rules.md' });
    expect(read.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: await readFile(join(REPO, 'skills/dev/semver-tool/references/bump-rules.md'), 'utf8') });
    const { prompts } = await open.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('unit-converter');
    const prompt = await open.getPrompt({ name: 'unit-converter' });
    const message = prompt.messages[0]?.content;
    expect(message?.type === 'text' && message.text.startsWith('# Skill: unit-converter\n\n')).toBe(true);
  });

  it('answers bad input with clear MCP errors and keeps serving', async () => {
    const unknown = await call(open, 'load_skill', { name: 'no-such-skill' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/no skill named 'no-such-skill'.*\[SKILL_NOT_FOUND\]/);

    for (const path of ['../SKILL.md', 'references/../../index.json', 'SKILL.md', '/etc/passwd', 'references/%2e%2e/x']) {
      const result = await call(open, 'load_skill_asset', { name: 'semver-tool', path });
      expect(result.isError, path).toBe(true);
      expect(textOf(result)).toMatch(/\[INVALID_PATH\]/);
    }
    const escape = await call(open, 'get_skill_script_path', { name: 'semver-tool', script: '../SKILL.md' });
    expect(textOf(escape)).toMatch(/\[INVALID_PATH\]/);
    await expect(open.readResource({ uri: 'skill://semver-tool/../../index.json' })).rejects.toThrow(/no file/);
    await expect(open.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow(/not a skill resource/);
    await expect(open.getPrompt({ name: 'no-such-skill' })).rejects.toThrow(/SKILL_NOT_FOUND/);

    const missing = await call(open, 'search_skills', { limit: 1000 });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/invalid arguments \[INVALID_PARAM\]\n- query: .*\n- limit: /);

    const big = await call(open, 'run_skill', { name: 'text_stats', input: { text: 'x'.repeat(2 * 1024 * 1024) } });
    expect(big.isError).toBe(true);
    expect(textOf(big)).toMatch(/larger than 1 MB \[INVALID_PARAM\]/);

    let deep: unknown = 'bottom';
    for (let i = 0; i < 200; i++) deep = [deep];
    const nested = await call(open, 'run_skill', { name: 'text_stats', input: deep });
    expect(nested.isError).toBe(true);
    expect(textOf(nested)).toMatch(/nest deeper than 64 levels/);

    // Past the message limit the request is answered with a JSON-RPC error instead of being parsed.
    const huge = open.callTool({ name: 'run_skill', arguments: { name: 'text_stats', input: { text: 'y'.repeat(5 * 1024 * 1024) } } });
    await expect(huge).rejects.toThrow(/larger than 4 MB/);

    await expect(open.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toBeInstanceOf(McpError);
    // A skill exposed as a tool fails with the hint its outcome carries, as every other failure does.
    const llm = await call(open, 'summarize', { text: 'A long text to summarize.' });
    expect(llm.isError).toBe(true);
    expect(textOf(llm)).toMatch(/^summarize failed: .*\[EXTERNAL_SERVICE_ERROR\]\nhint: \S/);
    // The client's SDK puts "MCP error <code>: " before the message once; the server sends it bare.
    // One at a time, each awaited as it is made: a rejection no one waits on yet is an unhandled one.
    for (const refused of [() => open.callTool({ name: 'no_such_tool', arguments: {} }), () => open.getPrompt({ name: 'no-such-skill' }), () => open.readResource({ uri: 'skill://no-such-skill/SKILL.md' })]) {
      const message = await refused().then(() => '', (error: unknown) => (error as Error).message);
      expect(message).toMatch(/^MCP error -\d+: /);
      expect(message.match(/MCP error/g)).toHaveLength(1);
    }

    const still = await call(open, 'list_skills');
    expect((still.structuredContent as { total: number }).total).toBe(20);
    expect(openStderr()).not.toMatch(/\n\s+at /);
  });

  it('without --allow-run or --install-root, running and installing are refused with a clear error', async () => {
    const server = await connectStdio(['--registry', registry.url, '--cache-dir', cacheDir, '--expose-skills', '--poll', '0']);
    try {
      const run = await call(server.client, 'run_skill', { name: 'semver-tool', action: 'compare', input: { a: '1.0.0', b: '2.0.0' } });
      expect(run.isError).toBe(true);
      expect(textOf(run)).toMatch(/running skills is off.*--allow-run/);
      const tool = await call(server.client, 'text_stats', { text: 'hi' });
      expect(tool.isError).toBe(true);
      expect(textOf(tool)).toMatch(/--allow-run/);
      const install = await call(server.client, 'install_skill', { name: 'semver-tool', target: 'claude' });
      expect(install.isError).toBe(true);
      expect(textOf(install)).toMatch(/--install-root/);
      // Without --expose-skills, only the built-in tools are listed.
      const plain = await connectStdio(['--registry', registry.url, '--cache-dir', cacheDir, '--poll', '0']);
      expect((await plain.client.listTools()).tools.map((t) => t.name).sort()).toEqual(BUILTIN);
      await plain.close();
    } finally {
      await server.close();
    }
  });
});

describe('skilldex mcp usage errors', () => {
  it('exits 2 on bad flags and on a missing registry folder, with a hint and no stack', async () => {
    const badPort = await runSkilldex(REPO, ['mcp', '--registry', registry.url, '--http', 'eighty']);
    expect(badPort.status).toBe(2);
    expect(badPort.stderr).toMatch(/--http must be a whole number from 0 to 65535, not 'eighty'\nhint: see 'skilldex mcp --help'/);
    const hostWithoutHttp = await runSkilldex(REPO, ['mcp', '--registry', registry.url, '--host', '0.0.0.0']);
    expect(hostWithoutHttp.status).toBe(2);
    const unknownFlag = await runSkilldex(REPO, ['mcp', '--registry', registry.url, '--alow-run']);
    expect(unknownFlag.status).toBe(2);
    const missing = await runSkilldex(REPO, ['mcp', '--registry', '/nonexistent/registry']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/registry folder \/nonexistent\/registry does not exist\nhint: /);
    const scheme = await runSkilldex(REPO, ['mcp', '--registry', 'ftp://registry.example/']);
    expect(scheme.status).toBe(2);
    expect(scheme.stderr).toContain('is neither an http(s) URL nor a folder');
    // An address this machine does not have (TEST-NET-1): the hint names the host, not the port.
    const foreignHost = await runSkilldex(REPO, ['mcp', '--registry', registry.url, '--host', '192.0.2.1', '--http', '0']);
    expect(foreignHost.status).toBe(1);
    expect(foreignHost.stderr).toContain('error cannot listen on 192.0.2.1:0: EADDRNOTAVAIL\nhint: the host is not an address of this machine');
    for (const result of [badPort, hostWithoutHttp, unknownFlag, missing, scheme, foreignHost]) expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
