import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SkilldexError } from '../../src/runtime/index.ts';
import { AGENT_SKILL_FOLDERS, installDestination } from '../../src/runtime/node/index.ts';
import { REPO_ROOT } from './_registries.ts';

/**
 * `--to <agent>` must put a skill where the `skills` CLI (`npx skills add`) would, for every agent
 * it knows. The table is read out of the installed package itself, so a version bump that adds or
 * moves an agent fails here until AGENT_SKILL_FOLDERS follows.
 */
async function skillsCliAgents(): Promise<Record<string, string>> {
  const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'node_modules/skills/package.json'), 'utf8')) as { version: string };
  expect(pkg.version).toBe('1.7.4');
  const source = await readFile(join(REPO_ROOT, 'node_modules/skills/dist/cli.mjs'), 'utf8');
  const table = source.slice(source.indexOf('const agents = {'), source.indexOf('async function detectInstalledAgents'));
  const agents: Record<string, string> = {};
  for (const match of table.matchAll(/\n\t\tname: "([^"]+)",\n\t\tdisplayName: "[^"]*",\n\t\tskillsDir: "([^"]+)"/g)) agents[match[1] as string] = match[2] as string;
  return agents;
}

describe('agent skill folders', () => {
  it('are exactly the project-level folders of the skills CLI, agent by agent', async () => {
    const agents = await skillsCliAgents();
    expect(Object.keys(agents).length).toBeGreaterThan(70);
    expect(AGENT_SKILL_FOLDERS).toEqual(agents);
  });

  it('put a skill strictly inside the chosen folder, whatever the name says', () => {
    expect(installDestination('/project', 'pdf', 'claude')).toBe('/project/.claude/skills/pdf');
    expect(installDestination('/project', 'pdf', 'gemini-cli')).toBe('/project/.agents/skills/pdf');
    // VS Code's agent is GitHub Copilot: a user names the editor.
    expect(installDestination('/project', 'pdf', 'vscode')).toBe('/project/.agents/skills/pdf');
    expect(installDestination('/project', 'pdf', '.windsurf/skills/')).toBe('/project/.windsurf/skills/pdf');
    for (const [name, to] of [['../victim', 'claude'], ['/etc', undefined], ['a/../..', 'agents'], ['.', undefined], ['', 'cursor']] as const) {
      expect(() => installDestination('/project', name, to), `${name} ${to}`).toThrow(SkilldexError);
    }
  });
});
