import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSkillFolder } from '../../src/pipeline/index.ts';
import { splitAllowedTools } from '../../src/pipeline/normalize.ts';

describe('allowed-tools', () => {
  it('splits on spaces outside a tool pattern only', () => {
    expect(splitAllowedTools('Bash(git diff:*) Bash(git log:*) Bash(git tag:*) Read')).toEqual(['Bash(git diff:*)', 'Bash(git log:*)', 'Bash(git tag:*)', 'Read']);
    expect(splitAllowedTools('  Read\tGrep\n Write ')).toEqual(['Read', 'Grep', 'Write']);
    // An unbalanced pattern keeps the rest together rather than inventing tools.
    expect(splitAllowedTools('Bash(npm run test Read')).toEqual(['Bash(npm run test Read']);
    expect(splitAllowedTools('Read) Write')).toEqual(['Read)', 'Write']);
    expect(splitAllowedTools('')).toEqual([]);
  });

  it("keeps conventional-commits' four tools in its manifest", async () => {
    const result = await validateSkillFolder(join(import.meta.dirname, '../../skills/dev/conventional-commits'));
    expect(result.accepted[0]?.draft.allowedTools).toEqual(['Bash(git diff:*)', 'Bash(git log:*)', 'Bash(python3:*)', 'Read']);
  });
});
