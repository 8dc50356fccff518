/**
 * The MCP server's install_skill with `name@version` and `name@range`, against a registry built
 * from a git repository made here and served over HTTP.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRepo, skillMd } from '../helpers/git-repo.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';
import { buildInto, tempDir } from '../runtime/_registries.ts';
import { call, connectStdio, textOf } from './_mcp.ts';

let registry: StaticServer;
let installRoot: string;
let server: Awaited<ReturnType<typeof connectStdio>>;

beforeAll(async () => {
  const repo = new GitRepo('mcp-versions');
  repo.write('skills/greet/SKILL.md', skillMd('greet', '1.0.0', '# Greet\n\nSay hello.\n')).commit('Add greet', '2026-01-02T10:00:00Z');
  repo.write('skills/greet/SKILL.md', skillMd('greet', '1.1.0', '# Greet\n\nSay hello twice.\n')).commit('greet 1.1.0', '2026-01-03T10:00:00Z');
  repo.write('skills/greet/SKILL.md', skillMd('greet', '2.0.0', '# Greet\n\nSay hello warmly.\n')).commit('greet 2.0.0', '2026-02-01T10:00:00Z');
  registry = await serveDirectory(await buildInto(repo.root, 'mcp-versions'));
  installRoot = await tempDir('mcp-versions-install');
  server = await connectStdio(['--registry', registry.url, '--cache-dir', await tempDir('mcp-versions-cache'), '--install-root', installRoot, '--poll', '0']);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await registry?.close();
});

describe('install_skill with a version', () => {
  it('installs the version a range selects, verified, and says which', async () => {
    const result = await call(server.client, 'install_skill', { name: 'greet@~1.0', target: 'claude' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ name: 'greet', version: '1.0.0', dir: join(installRoot, '.claude/skills/greet'), changed: true });
    expect(await readFile(join(installRoot, '.claude/skills/greet/SKILL.md'), 'utf8')).toContain('Say hello.\n');
    const latestOne = await call(server.client, 'install_skill', { name: 'greet@^1', target: 'claude' });
    expect(latestOne.structuredContent).toMatchObject({ version: '1.1.0', changed: true });
  });

  it('answers a range that matches nothing with the versions there are', async () => {
    const result = await call(server.client, 'install_skill', { name: 'greet@^5', target: 'claude' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('[VERSION_NOT_FOUND]');
    expect(textOf(result)).toContain('available: 2.0.0, 1.1.0, 1.0.0');
  });
});
