/** The line `skilldex mcp` writes to stderr when it starts: what it serves, counted in words that agree with the count. */
import { describe, expect, it } from 'vitest';
import { forgeRegistry, writeForged } from '../runtime/_forged-registry.ts';
import { tempDir } from '../runtime/_registries.ts';
import { connectStdio } from './_mcp.ts';

const skill = (name: string) => ({ name, files: { 'SKILL.md': `---\nname: ${name}\ndescription: Does ${name} things.\n---\n\nSteps.\n` } });

describe('skilldex mcp start-up line', () => {
  it.each([
    [[skill('only-one')], '(1 skill from '],
    [[skill('first-one'), skill('second-one')], '(2 skills from '],
  ])('names %#: the skill count with its noun', async (skills, expected) => {
    const folder = await writeForged(await tempDir('mcp-banner'), await forgeRegistry(skills));
    const server = await connectStdio(['--registry', folder, '--cache-dir', await tempDir('mcp-banner-cache'), '--poll', '0']);
    try {
      await server.client.listTools();
      expect(server.stderr()).toContain(`skilldex MCP server on stdio ${expected}`);
    } finally {
      await server.close();
    }
  }, 30_000);
});
