import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeRegistry, openRegistry } from '../../src/runtime/node/index.ts';
import { openRegistry as openBrowserRegistry } from '../../src/runtime/index.ts';
import { runSkilldex } from '../helpers/cli.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';
import { buildExamples, REPO_ROOT, tempDir } from './_registries.ts';

/** `match` over the example skills' real triggers, served on 127.0.0.1: library (both entries) and CLI. */
let server: StaticServer;
let registry: NodeRegistry;
let cacheDir: string;

beforeAll(async () => {
  server = await serveDirectory(await buildExamples());
  cacheDir = await tempDir('cache');
  registry = await openRegistry(server.url, { cacheDir });
});
afterAll(() => server.close());

describe('match', () => {
  it('finds skills by their trigger phrases in English, Chinese and Japanese', async () => {
    expect(registry.match('Can you convert 5 miles to km?').map((m) => m.skill.name)).toContain('unit-converter');
    expect(registry.match('帮我换算一下 5 英里')[0]?.skill.name).toBe('unit-converter');
    expect(registry.match('会議の宿題を洗い出して')[0]).toMatchObject({ skill: { name: 'action-items' }, fired: { phrases: ['宿題を洗い出して'] } });
    expect(registry.match('the weather is nice')).toEqual([]);
  });

  it('fires on events and ranks by priority, from index.json alone (browser entry)', async () => {
    const browser = await openBrowserRegistry(server.url);
    const ranked = browser.match('', { event: 'abp.tool_request' });
    expect(ranked.length).toBeGreaterThanOrEqual(3);
    const priorities = ranked.map((m) => m.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
    expect(browser.match('', { event: 'meeting.ended' }).map((m) => m.skill.name)).toEqual(['action-items']);
  });

  it('prints matches with `skilldex match`', async () => {
    const args = ['--registry', server.url, '--cache-dir', cacheDir];
    const json = await runSkilldex(REPO_ROOT, ['match', '请整理待办', '--json', ...args]);
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout).matches[0]).toMatchObject({ name: 'action-items', priority: 0.7, fired: { phrases: ['整理待办'] } });
    const text = await runSkilldex(REPO_ROOT, ['match', 'convert 3 kg to lb', ...args]);
    expect(text.stdout).toMatch(/unit-converter\s+priority 0\.6\s+"convert"/);
    const usage = await runSkilldex(REPO_ROOT, ['match', 'x', '--limit', '0', ...args]);
    expect(usage.status).toBe(2);
  });
});
