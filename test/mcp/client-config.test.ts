import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpClientSetups, mcpLaunchArgs } from '../../src/mcp/client-config.ts';
import { REPO } from '../helpers/cli.ts';

const packageName = (JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { name: string }).name;

describe('mcpClientSetups', () => {
  it('fills the registry URL and package name into every client setup', () => {
    const setups = mcpClientSetups({ registryUrl: 'https://skills.example.org/team skills/', packageName: '@acme/skilldex' });
    expect(setups.map((s) => s.id)).toEqual(['claude-desktop', 'claude-code', 'vscode', 'cursor']);
    const launch = mcpLaunchArgs({ registryUrl: 'https://skills.example.org/team skills/', packageName: '@acme/skilldex' });
    expect(launch).toEqual({ command: 'npx', args: ['-y', '@acme/skilldex', 'mcp', '--registry', 'https://skills.example.org/team skills/'] });
    expect(JSON.parse(setups[0]?.text ?? '')).toEqual({ mcpServers: { skilldex: launch } });
    expect(setups[1]?.text).toBe("claude mcp add skilldex -- npx -y @acme/skilldex mcp --registry 'https://skills.example.org/team skills/'");
    expect(JSON.parse(setups[2]?.text ?? '')).toEqual({ servers: { skilldex: { type: 'stdio', ...launch } } });
    expect(JSON.parse(setups[3]?.text ?? '')).toEqual({ mcpServers: { skilldex: launch } });
  });

  it("quotes a hostile URL for the shell", () => {
    const text = mcpClientSetups({ registryUrl: "https://x.example/'; rm -rf ~ #", packageName: 'skilldex' })[1]?.text;
    expect(text).toBe(`claude mcp add skilldex -- npx -y skilldex mcp --registry 'https://x.example/'\\''; rm -rf ~ #'`);
  });

  it('docs/mcp.md shows exactly what the generator produces for the package', async () => {
    const docs = await readFile(join(REPO, 'docs/mcp.md'), 'utf8');
    for (const setup of mcpClientSetups({ registryUrl: 'https://skills.example.org/', packageName })) {
      expect(docs, setup.client).toContain(`\`\`\`${setup.language}\n${setup.text}\n\`\`\``);
    }
  });
});

describe('mcpClientSetups JSON', () => {
  it('keeps arrays of plain values on one line, and any URL still round-trips exactly', () => {
    for (const registryUrl of ['https://skills.example.org/', 'https://x.example/[a]{b}, "c"\\n', "https://x.example/a,\nb"]) {
      for (const setup of mcpClientSetups({ registryUrl, packageName: 'skilldex' }).filter((s) => s.language === 'json')) {
        const parsed = JSON.parse(setup.text) as Record<string, Record<string, { args: string[] }>>;
        expect(Object.values(Object.values(parsed)[0] ?? {})[0]?.args.at(-1)).toBe(registryUrl);
      }
    }
    expect(mcpClientSetups({ registryUrl: 'https://skills.example.org/', packageName: 'skilldex' })[3]?.text).toContain('"args": ["-y", "skilldex", "mcp", "--registry", "https://skills.example.org/"]');
  });
});
