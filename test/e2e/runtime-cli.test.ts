import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../runtime/_chat-server.ts';
import { buildExamples, REPO_ROOT, tempDir } from '../runtime/_registries.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';

/** The real CLI (bin/skilldex.mjs) against a registry served over HTTP on 127.0.0.1. */
let server: StaticServer;
let chat: ChatServer;
let cacheDir: string;

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function skilldex(args: string[], options: { env?: Record<string, string>; stdin?: string; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/skilldex.mjs'), ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', SKILLDEX_REGISTRY: server.url, SKILLDEX_CACHE_DIR: cacheDir, ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.stdin.end(options.stdin ?? '');
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `skills list --json` for one agent in `cwd`: what that agent's skills folder holds, as the `skills` CLI reads it. */
function skillsList(cwd: string, agent: string): Promise<{ name: string; path: string; agents: string[] }[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'node_modules/skills/bin/cli.mjs'), 'list', '--json', '--agent', agent], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: cwd, NO_COLOR: '1', DISABLE_TELEMETRY: '1', DO_NOT_TRACK: '1' },
    });
    let stdout = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stdin.end();
    child.on('close', () => {
      try {
        resolve(JSON.parse(stdout));
      } catch (error) {
        reject(new Error(`skills list printed ${stdout}`, { cause: error }));
      }
    });
  });
}

beforeAll(async () => {
  server = await serveDirectory(await buildExamples());
  chat = await startChatServer();
  cacheDir = await tempDir('cli-cache');
});
afterAll(async () => {
  await server.close();
  await chat.close();
});

describe('skilldex agent commands', () => {
  it('search --json prints seed 003 matched_skills', async () => {
    const result = await skilldex(['search', '语义化版本 semver', '--json', '--limit', '1']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ matched_skills: [{ name: 'semver-tool', description: expect.stringContaining('Semantic Versioning') }] });
  });

  it('search prints a plain table without colour under NO_COLOR', async () => {
    const result = await skilldex(['search', 'json']);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toMatch(/^json-toolkit\s+Validates/);
    expect(result.stdout).not.toContain('\u001b[');
  });

  it('load prints "# Skill: <name>" and --raw the published SKILL.md', async () => {
    const loaded = await skilldex(['load', 'SEMVER-TOOL']);
    expect(loaded.code).toBe(0);
    expect(loaded.stdout.startsWith('# Skill: semver-tool\n\n# SemVer Tool')).toBe(true);
    const raw = await skilldex(['load', 'semver-tool', '--raw']);
    expect(raw.stdout.startsWith('---\nname: semver-tool\n')).toBe(true);
  });

  it('info --json prints the manifest; unknown names exit 1 with a hint', async () => {
    const info = await skilldex(['info', 'text_report', '--json']);
    expect(JSON.parse(info.stdout)).toMatchObject({ name: 'text_report', mode: 'composite', calls: ['text_stats', 'keyword_extract'] });
    // Every skill that refers to it, and how: a tool id and a link in conventional-commits' SKILL.md.
    expect((await skilldex(['info', 'semver-tool'])).stdout).toContain('used by    conventional-commits (uses its tools, links to its docs)\n');
    const missing = await skilldex(['info', 'semvr-tool']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no skill named 'semvr-tool'");
    expect(missing.stderr).toContain("hint: did you mean 'semver-tool'");
  });

  it('assets lists, prints, refuses traversal, and resolves script paths', async () => {
    expect((await skilldex(['assets', 'json-toolkit'])).stdout).toBe('references/query-paths.md\nscripts/json_tool.py\n');
    const printed = await skilldex(['assets', 'json-toolkit', 'references/query-paths.md']);
    expect(printed.stdout.length).toBeGreaterThan(20);
    const refused = await skilldex(['assets', 'json-toolkit', 'references/%2e%2e/SKILL.md']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('percent-encoding');
    const script = await skilldex(['assets', 'json-toolkit', '--script-path', 'json_tool.py']);
    expect(script.stdout.trim()).toMatch(new RegExp(`^${cacheDir}/skills/json-toolkit/[0-9a-f]{16}/scripts/json_tool.py$`));
  });

  it('install --to claude verifies and writes the skill, then reports it unchanged', async () => {
    const project = await tempDir('cli-project');
    const first = await skilldex(['install', 'conventional-commits', '--to', 'claude'], { cwd: project });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^installed conventional-commits → .*\/\.claude\/skills\/conventional-commits \(\d+ files, verified sha256:[0-9a-f]{64}\)/);
    expect((await readdir(join(project, '.claude/skills/conventional-commits'))).sort()).toContain('SKILL.md');
    const second = await skilldex(['install', 'conventional-commits', '--to', 'claude', '--json'], { cwd: project });
    expect(JSON.parse(second.stdout)).toMatchObject({ name: 'conventional-commits', changed: false });
  });

  it('install puts a skill.json function where Claude Code discovers it: kebab-case folder, generated SKILL.md, either spelling', async () => {
    const project = await tempDir('cli-function');
    const first = await skilldex(['install', 'code_review', '--to', 'claude'], { cwd: project });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const dir = join(project, '.claude/skills/code-review');
    expect((await readdir(dir)).sort()).toEqual(['SKILL.md', 'prompt.md', 'skill.json']);
    const skillMd = await readFile(join(dir, 'SKILL.md'), 'utf8');
    expect(skillMd).toMatch(/^---\nname: code-review\ndescription: /);
    // The run command names the registry this client installed from, never a placeholder.
    expect(skillMd).toContain(`npx skilldex run code_review --registry ${server.url} --input`);
    expect(skillMd).not.toContain('<registry-url>');
    const again = await skilldex(['install', 'code-review', '--to', 'claude', '--json'], { cwd: project });
    expect(JSON.parse(again.stdout)).toMatchObject({ name: 'code_review', dir, changed: false });
    // The `skills` CLI reads agent folders the way agents do; it lists the function for Claude Code.
    expect(await skillsList(project, 'claude-code')).toContainEqual(expect.objectContaining({ name: 'code-review', agents: ['Claude Code'] }));
    // The discovery copy of a registry without a siteUrl leaves the run command out instead of a placeholder.
    const published = await (await fetch(`${server.url}.well-known/skills/code-review/SKILL.md`)).text();
    expect(published).toMatch(/^---\nname: code-review\n/);
    expect(published).not.toContain('<registry-url>');
    expect(published).not.toContain('npx skilldex run');
  });

  it('install --to accepts every agent of the skills CLI and uses its folder', async () => {
    const project = await tempDir('cli-agents');
    for (const [agent, folder] of [['cursor', '.agents/skills'], ['windsurf', '.windsurf/skills'], ['gemini-cli', '.agents/skills'], ['codex', '.agents/skills'], ['roo', '.roo/skills']]) {
      const result = await skilldex(['install', 'text-stats', '--to', agent as string, '--json'], { cwd: project });
      expect(result.code, agent).toBe(0);
      expect(JSON.parse(result.stdout).dir).toBe(join(project, folder as string, 'text-stats'));
    }
    expect(await skillsList(project, 'windsurf')).toContainEqual(expect.objectContaining({ name: 'text-stats', agents: expect.arrayContaining(['Windsurf']) }));
    const unknown = await skilldex(['install', 'text-stats', '--to', 'notepad'], { cwd: project });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error unknown install target 'notepad'");
    expect(unknown.stderr).toContain('name an agent as the `skills` CLI spells it');
  });

  it('run prints the outcome', async () => {
    const ok = await skilldex(['run', 'markdown_toc', '--input', '{"markdown": "# T\\n\\n## Usage\\n"}']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ status: 'success', output: { toc: '- [Usage](#usage)' } });
  });

  it('run --protocol prints the seed 004 envelope', async () => {

    const envelope = await skilldex(['run', 'semver-tool', '--action', 'compare', '--input', '{"a": "2.0.0", "b": "10.0.0"}', '--protocol']);
    expect(envelope.code).toBe(0);
    expect(JSON.parse(envelope.stdout)).toMatchObject({ success: true, action: 'compare', data: { relation: '<' }, metadata: { execution_time_ms: expect.any(Number) } });

  });

  it('run reads input from a file or stdin', async () => {
    const inputFile = join(await tempDir('cli-input'), 'in.json');
    await writeFile(inputFile, JSON.stringify({ text: '一二三 four five' }));
    const fromFile = await skilldex(['run', 'text_stats', '--input-file', inputFile]);
    expect(JSON.parse(fromFile.stdout).output.cjkCharacters).toBe(3);
    const fromStdin = await skilldex(['run', 'text_stats', '--input-file', '-'], { stdin: '{"text": "a b"}' });
    expect(JSON.parse(fromStdin.stdout).output.words).toBe(2);

  });

  it('run exits 1 on a failed run and 2 on unreadable input', async () => {
    const bad = await skilldex(['run', 'semver-tool', '--action', 'explode', '--protocol']);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ success: false, action: 'explode', error: { code: 'UNKNOWN_ACTION' } });
    const missing = await skilldex(['run', 'keyword_extract', '--input', '{}']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout).error.code).toBe('MISSING_PARAM');
    const notJson = await skilldex(['run', 'text_stats', '--input', '{oops']);
    expect(notJson.code).toBe(2);
  });

  it('run uses the model configured by SKILLDEX_LLM_* for llm skills', async () => {
    chat.fallback = () => JSON.stringify({ summary: 'short', keyPoints: ['a'], language: 'en' });
    const result = await skilldex(['run', 'summarize', '--input', '{"text": "long text"}'], {
      env: { SKILLDEX_LLM_BASE_URL: chat.baseUrl, SKILLDEX_LLM_MODEL: 'tiny', SKILLDEX_LLM_API_KEY: 'k' },
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'success', output: { summary: 'short' }, tokenUsage: 15 });
    expect(chat.calls.at(-1)?.body.model).toBe('tiny');
  });

  it('prompt prints both formats', async () => {
    const agentSkills = await skilldex(['prompt', 'json-toolkit']);
    expect(agentSkills.stdout).toMatch(/^<available_skills>\n<skill>\n<name>\njson-toolkit\n<\/name>\n<description>\n.*\n<\/description>\n<location>\nhttp:\/\/127\.0\.0\.1:\d+\/skills\/json-toolkit\/[0-9a-f]{16}\/SKILL\.md\n<\/location>\n<\/skill>\n<\/available_skills>\n$/);
    const seed003 = await skilldex(['prompt', '--query', 'semver', '--limit', '1', '--style', 'available-skills']);
    expect(seed003.stdout).toMatch(/^<available-skills>\n {2}<skill name="semver-tool">\n {4}.+\n {2}<\/skill>\n<\/available-skills>\n$/);
  });

  it('prompt --json prints JSON, as every agent-side command does', async () => {
    const result = await skilldex(['prompt', 'JSON-Toolkit', 'semver-tool', '--json']);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed.style).toBe('agent-skills');
    expect(printed.skills).toEqual(['json-toolkit', 'semver-tool']);
    expect(printed.prompt).toMatch(/^<available_skills>\n<skill>\n<name>\njson-toolkit\n/);
    const all = JSON.parse((await skilldex(['prompt', '--json', '--style', 'available-skills'])).stdout);
    expect(all.skills.length).toBeGreaterThan(10);
    expect(all.prompt).toMatch(/^<available-skills>\n/);
  });

  it('explains a missing registry as a usage error', async () => {
    const result = await skilldex(['search', 'x'], { env: { SKILLDEX_REGISTRY: '' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('hint: pass --registry <url|dir> or set SKILLDEX_REGISTRY');
  });

  it('reads the published files it claims to (sanity of the served registry)', async () => {
    const index = JSON.parse(await (await fetch(`${server.url}index.json`)).text());
    expect(index.version).toBe('2.2.0');
    expect(await readFile(join(REPO_ROOT, 'bin/skilldex.mjs'), 'utf8')).toContain('main');
  });
});
