/**
 * A config that turns off or downgrades the rule reporting a problem that leaves nothing to publish
 * (frontmatter that cannot be parsed, a name that cannot be published) must not make the skill
 * vanish in silence: it is held back with `internal/held-back`, an error naming those rules, so
 * `validate` and a build that is not lenient fail, and the other skills are unaffected.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, validateRegistry } from '../../src/pipeline/index.ts';
import { runSkilldex } from '../helpers/cli.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'skilldex-held-back-'));
  await mkdir(join(root, 'skills', 'good'), { recursive: true });
  await mkdir(join(root, 'skills', 'tabs'), { recursive: true });
  await writeFile(join(root, 'skills', 'good', 'SKILL.md'), '---\nname: good\ndescription: Says hello. Use it when someone asks for a greeting.\n---\n\nSay hello.\n');
  // A tab where YAML wants spaces: the frontmatter cannot be parsed, so there is no name to publish.
  await writeFile(join(root, 'skills', 'tabs', 'SKILL.md'), '---\nname: tabs\n\tdescription: Tab skill.\n---\n\nBody.\n');
});
afterEach(() => rm(root, { recursive: true, force: true }));

const validateWith = async (rules: Record<string, string>) => {
  await writeFile(join(root, 'skilldex.config.json'), JSON.stringify({ rules }));
  return validateRegistry(root, { config: await loadConfig(root), workers: false });
};

describe('a skill kept out by a problem whose rule the config silenced', () => {
  it.each(['off', 'warning'])('is held back with an error naming the rule when frontmatter/yaml is %s', async (severity) => {
    const result = await validateWith({ 'frontmatter/yaml': severity });
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toEqual([
      expect.objectContaining({ rule: 'internal/held-back', file: 'skills/tabs/SKILL.md', line: 1, message: expect.stringContaining("'frontmatter/yaml'") }),
    ]);
    expect(result.accepted.map((s) => s.draft.name)).toEqual(['good']);
    expect(result.rejected).toEqual([expect.objectContaining({ dir: 'skills/tabs', errors: [expect.objectContaining({ rule: 'internal/held-back' })] })]);
  });

  it('names a downgraded name rule when the name cannot be published', async () => {
    await writeFile(join(root, 'skills', 'tabs', 'SKILL.md'), '---\nname: Tabs Skill\ndescription: Says hello. Use it when someone asks for a greeting.\n---\n\nBody.\n');
    const result = await validateWith({ 'name/charset': 'off', 'name/folder-mismatch': 'off' });
    expect(result.diagnostics).toEqual([expect.objectContaining({ rule: 'internal/held-back', severity: 'error', message: expect.stringContaining("'name/charset'") })]);
  });

  it('adds nothing where an error already says why', async () => {
    const result = await validateWith({});
    expect(result.diagnostics.map((d) => d.rule)).toEqual(['frontmatter/yaml']);
  });

  it('fails a build that is not lenient and publishes the good skill under --lenient', async () => {
    await writeFile(join(root, 'skilldex.config.json'), '{"rules":{"frontmatter/yaml":"off"}}');
    const strict = await runSkilldex(root, ['build', '--out', join(root, 'out')]);
    expect(strict.status).toBe(1);
    expect(strict.stdout + strict.stderr).toMatch(/skills\/tabs\/SKILL\.md:1:1 +internal\/held-back +error/);
    const lenient = await runSkilldex(root, ['build', '--out', join(root, 'lenient'), '--lenient']);
    expect(lenient.status).toBe(0);
    expect(lenient.stderr).toContain('rejected skills/tabs: internal/held-back');
  });

  it('cannot be overridden itself', async () => {
    await writeFile(join(root, 'skilldex.config.json'), '{\n  "rules": { "internal/held-back": "off" }\n}\n');
    const error = await loadConfig(root).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(/^skilldex\.config\.json:2:\d+ rules: the severity of 'internal\/held-back' cannot be changed/);
  });

  it('cannot turn internal/check-failed off either', async () => {
    await writeFile(join(root, 'skilldex.config.json'), '{ "rules": { "internal/check-failed": "warning" } }');
    expect(await loadConfig(root).catch((e: unknown) => e)).toBeInstanceOf(ConfigError);
  });
});

/** A folder kept out by discovery or a registry-wide rule, each set up beside skills/good. */
const EXCLUSIONS: [rule: string, setup: (skills: string) => Promise<void>][] = [
  ['files/symlink', async (skills) => {
    await mkdir(join(skills, 'linked'));
    await symlink(join(skills, 'good', 'SKILL.md'), join(skills, 'linked', 'SKILL.md'));
  }],
  ['files/special', async (skills) => {
    await mkdir(join(skills, 'piped'));
    execFileSync('mkfifo', [join(skills, 'piped', 'SKILL.md')]);
  }],
  ['discovery/misnamed-declaration', async (skills) => {
    await mkdir(join(skills, 'lower'));
    await writeFile(join(skills, 'lower', 'skill.md'), '---\nname: lower\ndescription: Says hello. Use it when someone asks for a greeting.\n---\n\nBody.\n');
  }],
  ['discovery/too-deep', async (skills) => {
    await mkdir(join(skills, 'a', 'b', 'deep'), { recursive: true });
    await writeFile(join(skills, 'a', 'b', 'deep', 'SKILL.md'), '---\nname: deep\ndescription: Says hello. Use it when someone asks for a greeting.\n---\n\nBody.\n');
  }],
  ['discovery/ambiguous', async (skills) => {
    await mkdir(join(skills, 'both'));
    await writeFile(join(skills, 'both', 'SKILL.md'), '---\nname: both\ndescription: Says hello. Use it when someone asks for a greeting.\n---\n\nBody.\n');
    await writeFile(join(skills, 'both', 'skill.json'), '{}');
  }],
  ['registry/duplicate-name', async (skills) => {
    await mkdir(join(skills, 'x', 'good'), { recursive: true });
    await writeFile(join(skills, 'x', 'good', 'SKILL.md'), '---\nname: good\ndescription: Says hello. Use it when someone asks for a greeting.\n---\n\nBody.\n');
  }],
];

describe('a folder that discovery or a registry-wide rule keeps out, with that rule turned off', () => {
  it.each(EXCLUSIONS)('is held back with an error naming %s', async (rule, setup) => {
    await rm(join(root, 'skills', 'tabs'), { recursive: true });
    await setup(join(root, 'skills'));
    const result = await validateWith({ [rule]: 'off' });
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) expect(e).toMatchObject({ rule: 'internal/held-back', message: expect.stringContaining(`('${rule}', which skilldex.config.json turns off`) });
  });
});
