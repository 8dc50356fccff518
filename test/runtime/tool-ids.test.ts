import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeRegistry, openRegistry } from '../../src/runtime/node/index.ts';
import { parseToolId } from '../../src/runtime/tool-id.ts';
import { runSkilldex } from '../helpers/cli.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';
import { buildFixtures, REPO_ROOT, tempDir } from './_registries.ts';

/** index.json's tool ids (`skill:<name>:<script>`) name skills and scripts everywhere: library and CLI. */
let server: StaticServer;
let registry: NodeRegistry;
let cacheDir: string;

beforeAll(async () => {
  server = await serveDirectory(await buildFixtures());
  cacheDir = await tempDir('cache');
  registry = await openRegistry(server.url, { cacheDir });
});
afterAll(() => server.close());

const cli = (args: string[]) => runSkilldex(REPO_ROOT, [...args, '--registry', server.url, '--cache-dir', cacheDir]);

describe('tool ids', () => {
  it('reads tool ids and nothing else', () => {
    expect(parseToolId('skill:data-analysis:compare')).toEqual({ name: 'data-analysis', script: 'compare' });
    expect(parseToolId('skill:data-analysis')).toEqual({ name: 'data-analysis' });
    expect(parseToolId('skill://data-analysis/scripts/x.py')).toBeUndefined();
    expect(parseToolId('skill::x')).toBeUndefined();
    expect(parseToolId('skill:x:')).toBeUndefined();
    expect(parseToolId('data-analysis')).toBeUndefined();
  });

  it('lists one tool id per script in index.json, and each one runs that script (library)', async () => {
    expect(registry.find('skill:multi-tool:compare')?.tools).toEqual(['skill:multi-tool:compare', 'skill:multi-tool:double', 'skill:multi-tool:main']);
    expect(await registry.run('skill:multi-tool:main', { text: 'abc' })).toMatchObject({ status: 'success', output: { upper: 'ABC' } });
    // A script other than the entry runs in its place, without the entry's input schema.
    expect(await registry.run('skill:multi-tool:compare', { a: 'x', b: 'x' }, { action: 'check' })).toMatchObject({ status: 'success', output: { same: true } });
    expect(await registry.run('multi-tool', { a: 'x', b: 'y' }, { script: 'compare.sh' })).toMatchObject({ status: 'success', output: { same: false } });
    expect(await registry.run('skill:multi-tool:double', { n: 21 })).toMatchObject({ status: 'success', output: { doubled: 42 } });
  });

  it('names a missing script with the tool ids that exist', async () => {
    const outcome = await registry.run('skill:multi-tool:nope', {});
    expect(outcome.error?.code).toBe('SKILL_NOT_FOUND');
    expect((outcome.error?.details as { hint: string }).hint).toContain('skill:multi-tool:compare');
    const elsewhere = await registry.run('multi-tool', {}, { script: 'skill:greeter:greet' });
    expect(elsewhere.error?.message).toContain("belongs to 'greeter'");
  });

  it('accepts tool ids in run, info and assets --script-path (CLI)', async () => {
    const run = await cli(['run', 'skill:multi-tool:compare', '--input', '{"a":"q","b":"q"}', '--protocol']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ success: true, data: { same: true } });
    const info = await cli(['info', 'skill:multi-tool:compare', '--json']);
    expect(info.status).toBe(0);
    expect(JSON.parse(info.stdout).name).toBe('multi-tool');
    const byStem = await cli(['assets', 'multi-tool', '--script-path', 'compare']);
    expect(byStem.status).toBe(0);
    expect(byStem.stdout.trim()).toMatch(/\/scripts\/compare\.sh$/);
    const byId = await cli(['assets', 'skill:multi-tool:double', '--script-path', 'skill:multi-tool:double']);
    expect(byId.stdout.trim()).toMatch(/\/scripts\/double\.ts$/);
    const missing = await cli(['run', 'skill:multi-tool:nope']);
    expect(missing.status).toBe(1);
    expect(JSON.parse(missing.stdout).error.code).toBe('SKILL_NOT_FOUND');
  });
});
