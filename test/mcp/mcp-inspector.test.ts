import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, REPO } from '../helpers/cli.ts';
import { buildExamples, tempDir } from '../runtime/_registries.ts';

// The MCP Inspector's own launcher (what `npx @modelcontextprotocol/inspector` runs), installed as
// a devDependency, so this works offline.
const INSPECTOR = join(REPO, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');

const inspect = (args: readonly string[]): Promise<{ status: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [INSPECTOR, '--cli', ...args], { cwd: REPO, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) =>
      resolve({ status: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });

let server: string[];

beforeAll(async () => {
  server = [process.execPath, CLI, 'mcp', '--registry', await buildExamples(), '--cache-dir', await tempDir('mcp-inspector-cache'), '--poll', '0'];
}, 120_000);

describe('the MCP Inspector (CLI mode) drives skilldex mcp', () => {
  it('tools/list', async () => {
    const result = await inspect([...server, '--method', 'tools/list']);
    expect(result.status, result.stderr).toBe(0);
    const names = (JSON.parse(result.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['list_skills', 'search_skills', 'load_skill', 'run_skill']));
  });

  it('tools/call search_skills, resources/list and prompts/get', async () => {
    const searched = await inspect([...server, '--method', 'tools/call', '--tool-name', 'search_skills', '--tool-arg', 'query=semantic versioning', '--tool-arg', 'limit=2']);
    expect(searched.status, searched.stderr).toBe(0);
    expect((JSON.parse(searched.stdout) as { structuredContent: { results: { name: string }[] } }).structuredContent.results[0]?.name).toBe('semver-tool');
    const resources = await inspect([...server, '--method', 'resources/list']);
    expect((JSON.parse(resources.stdout) as { resources: { uri: string }[] }).resources.map((r) => r.uri)).toContain('skill://semver-tool/scripts/semver.sh');
    const prompt = await inspect([...server, '--method', 'prompts/get', '--prompt-name', 'semver-tool']);
    expect(prompt.stdout).toContain('# Skill: semver-tool');
  });
});
