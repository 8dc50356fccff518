import { cp } from 'node:fs/promises';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { buildExamples, buildFixtures, tempDir } from '../runtime/_registries.ts';
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
