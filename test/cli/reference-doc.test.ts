import { readFile } from 'node:fs/promises';
import type { CommandDef } from 'citty';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/main.ts';
import { CLI_DOC_FILE, renderCliDoc } from '../../src/cli/reference-doc.ts';

describe('docs/cli.md', () => {
  it('is up to date with the command definitions (regenerate with `npm run schemas`)', async () => {
    expect(await readFile(CLI_DOC_FILE, 'utf8')).toBe(await renderCliDoc());
  });

  it('documents every command and every flag it accepts', async () => {
    const text = await readFile(CLI_DOC_FILE, 'utf8');
    for (const name of COMMANDS) {
      const section = text.split(`### skilldex ${name}\n`)[1]?.split('\n### ')[0];
      expect(section, `section for skilldex ${name}`).toBeDefined();
      const command = (await import(`../../src/cli/commands/${name}.ts`)).default as CommandDef<any>;
      for (const [flag, def] of Object.entries((command.args ?? {}) as Record<string, { type?: string }>)) {
        const documented = def.type === 'positional' ? [`| \`<${flag}>\``, `| \`[${flag}]\``] : [`| \`--${flag}`];
        expect(documented.some((row) => section?.includes(row)), `skilldex ${name} ${flag}`).toBe(true);
      }
    }
  });
});
