import { cp } from 'node:fs/promises';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { buildExamples, buildFixtures, tempDir } from '../runtime/_registries.ts';
import { forgeRegistry, mount, serveForged } from '../runtime/_forged-registry.ts';
import { call, connectStdio } from './_mcp.ts';

describe('skilldex mcp --poll over a local build folder', () => {
  it('notices a rebuilt index on its own and sends tools/list_changed; the new tools follow', async () => {
    const folder = await tempDir('mcp-poll');
    await cp(await buildExamples(), folder, { recursive: true });
    const fixtures = await buildFixtures();
    const server = await connectStdio(['--registry', folder, '--cache-dir', await tempDir('mcp-poll-cache'), '--expose-skills', '--poll', '1']);
    let changes = 0;
    server.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes += 1;
    });
    try {
      const before = (await server.client.listTools()).tools.map((t) => t.name);
      expect(before).toContain('unit-converter__convert');
      // Wait past one poll with nothing changed: no notification.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(changes).toBe(0);
      await cp(fixtures, folder, { recursive: true });
      await expect.poll(() => changes, { timeout: 10_000, interval: 100 }).toBe(1);
      const after = (await server.client.listTools()).tools.map((t) => t.name);
      expect(after).not.toContain('unit-converter__convert');
      expect(after).toContain('greeter');
      expect((await call(server.client, 'load_skill', { name: 'greeter' })).isError).toBeFalsy();
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('skilldex mcp over a registry whose index.json bytes change but not what they say', () => {
  it('sends no tools/list_changed, so a client that lists again on each notice is not driven round a loop', async () => {
    // White space appended per request: the same index each time (and with a signed index, the
    // index.json beside it is the host's to change). Each notice made the client list again, each
    // listing refreshed, each refresh saw new bytes: 177 notices in 3 s, for ever.
    const forged = await serveForged();
    const files = await forgeRegistry([{ name: 'notes', files: { 'SKILL.md': '# Notes\n' } }]);
    const url = mount(forged, files, '/reg/');
    const index = Buffer.from(files.get('index.json') as Uint8Array);
    let served = 0;
    forged.set('/reg/index.json', (_req, res) => {
      const body = Buffer.concat([index, Buffer.from(' '.repeat(++served % 40))]);
      res.writeHead(200, { 'content-length': String(body.length) }).end(body);
    });
    const work = await tempDir('mcp-bytes');
    const server = await connectStdio(['--registry', url, '--poll', '0'], { SKILLDEX_CACHE_DIR: work, SKILLDEX_CONFIG_DIR: work });
    let changes = 0;
    server.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes += 1;
      void server.client.listTools().catch(() => {});
    });
    try {
      await server.client.listTools();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(changes).toBe(0);
      expect(served).toBeLessThan(10);
    } finally {
      await server.close();
      await forged.close();
    }
  }, 60_000);
});
