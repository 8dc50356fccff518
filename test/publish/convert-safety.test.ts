import { execFile, execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, runSkilldex } from '../helpers/cli.ts';

/**
 * What `skilldex convert` must never do to a user's files: read or write through a symbolic link,
 * leave half a conversion when its output is cut off, claim a file it did not write, or drop a
 * file of the skill without saying so.
 */

const temps: string[] = [];
afterEach(async () => {
  for (const t of temps.splice(0)) await rm(t, { recursive: true, force: true });
});

const SKILL_MD = '---\nname: my-skill\ndescription: Says hello. Use it when greeting.\nlicense: MIT\n---\n\nSay hello.\n';

/** A registry root with skills/my-skill (a SKILL.md skill) and a victim file outside it. */
async function registry(): Promise<{ root: string; skill: string; victim: string }> {
  const root = await mkdtemp(join(tmpdir(), 'skilldex-convert-safety-'));
  temps.push(root);
  const skill = join(root, 'skills/my-skill');
  await mkdir(join(skill, 'references'), { recursive: true });
  await writeFile(join(skill, 'SKILL.md'), SKILL_MD);
  await writeFile(join(skill, 'references/notes.md'), 'notes\n');
  const victim = join(root, 'victim.txt');
  await writeFile(victim, 'VICTIM\n');
  return { root, skill, victim };
}

const list = async (dir: string) => (await readdir(dir, { recursive: true })).sort();

/**
 * Runs the CLI with its stdout piped into `true`, which exits without reading: the pipe is closed
 * before the CLI's first line, as `| head -2` closes it once two lines are read.
 */
const cutOff = (cwd: string, ...args: string[]) =>
  new Promise<void>((resolve) => {
    const command = [process.execPath, CLI, ...args].map((a) => `'${a}'`).join(' ');
    execFile('sh', ['-c', `${command} | true`], { cwd, env: { ...process.env, NO_COLOR: '1' } }, () => resolve());
  });
const settle = () => new Promise((resolve) => setTimeout(resolve, 1000));

describe('skilldex convert and symbolic links', () => {
  it('refuses to write prompt.md through a link, and writes nothing', async () => {
    const { root, skill, victim } = await registry();
    await symlink(victim, join(skill, 'prompt.md'));
    const result = await runSkilldex(root, ['convert', 'skills/my-skill']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('error skills/my-skill/prompt.md is a symbolic link');
    expect(result.stderr).toContain('\nhint: replace the link with the real file');
    expect(result.stdout).not.toContain('wrote');
    expect(await readFile(victim, 'utf8')).toBe('VICTIM\n');
    expect(await list(skill)).toEqual(['SKILL.md', 'prompt.md', 'references', 'references/notes.md']);
  });

  it('refuses a SKILL.md that is a link to a file outside the skill', async () => {
    const { root, skill } = await registry();
    const outside = join(root, 'outside.md');
    await writeFile(outside, SKILL_MD);
    await rm(join(skill, 'SKILL.md'));
    await symlink(outside, join(skill, 'SKILL.md'));
    const result = await runSkilldex(root, ['convert', 'skills/my-skill']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('error skills/my-skill/SKILL.md is a symbolic link');
    expect(await list(skill)).toEqual(['SKILL.md', 'references', 'references/notes.md']);
    expect(await readFile(outside, 'utf8')).toBe(SKILL_MD);
  });

  it('never replaces a prompt.md the skill already has', async () => {
    const { root, skill } = await registry();
    await writeFile(join(skill, 'prompt.md'), 'my own notes\n');
    const result = await runSkilldex(root, ['convert', 'skills/my-skill']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('error skills/my-skill/prompt.md already exists');
    expect(result.stderr).toContain('hint: ');
    expect(await readFile(join(skill, 'prompt.md'), 'utf8')).toBe('my own notes\n');
  });
});

describe('skilldex convert with its output cut off', () => {
  it('converts in place whole when stdout is a pipe closed early', async () => {
    const { root, skill } = await registry();
    await cutOff(root, 'convert', 'skills/my-skill');
    await settle();
    expect(await list(skill)).toEqual(['prompt.md', 'references', 'references/notes.md', 'skill.json']);
    expect(JSON.parse(await readFile(join(skill, 'skill.json'), 'utf8'))).toMatchObject({ name: 'my_skill', mode: 'llm' });
    expect(await readFile(join(skill, 'prompt.md'), 'utf8')).toBe('Say hello.\n');
  });

  it('writes the whole --out folder when stdout is a pipe closed early', async () => {
    const { root } = await registry();
    await cutOff(root, 'convert', 'skills/my-skill', '--out', 's2');
    await settle();
    expect(await list(join(root, 's2'))).toEqual(['prompt.md', 'references', 'references/notes.md', 'skill.json']);
    expect(await readdir(root)).toEqual(expect.not.arrayContaining([expect.stringMatching(/^\.s2/)]));
  });
});

describe('skilldex convert --out', () => {
  it('refuses a folder that is not empty before it prints anything it would write', async () => {
    const { root } = await registry();
    await mkdir(join(root, 's2'));
    await writeFile(join(root, 's2/keep.txt'), 'mine\n');
    const result = await runSkilldex(root, ['convert', 'skills/my-skill', '--out', 's2']);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('error s2 already exists and is not empty');
    expect(await list(join(root, 's2'))).toEqual(['keep.txt']);
  });

  it('refuses an --out folder that is a link', async () => {
    const { root } = await registry();
    await mkdir(join(root, 'elsewhere'));
    await symlink(join(root, 'elsewhere'), join(root, 's2'));
    const result = await runSkilldex(root, ['convert', 'skills/my-skill', '--out', 's2']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('error s2 is a symbolic link');
    expect(await readdir(join(root, 'elsewhere'))).toEqual([]);
  });

  it('lists the links and special files of the skill it does not copy', async () => {
    const { root, skill, victim } = await registry();
    await symlink(victim, join(skill, 'references/linked.md'));
    execFileSync('mkfifo', [join(skill, 'references/pipe')]);
    const result = await runSkilldex(root, ['convert', 'skills/my-skill', '--out', 's2']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('not carried over (3):\n  - license: skill.json has no license field\n');
    expect(result.stdout).toContain('  - references/linked.md: a symbolic link; links are never followed or copied\n');
    expect(result.stdout).toContain('  - references/pipe: not a regular file or folder\n');
    expect(await list(join(root, 's2'))).toEqual(['prompt.md', 'references', 'references/notes.md', 'skill.json']);
  });
});

describe('skilldex convert usage errors', () => {
  it('says what to do for each', async () => {
    const { root } = await registry();
    const bogus = await runSkilldex(root, ['convert', 'skills/my-skill', '--to', 'bogus']);
    expect(bogus.status).toBe(2);
    expect(bogus.stderr).toBe("error --to must be skill-json or skill-md, not 'bogus'\nhint: write --to skill-json, for example\n");

    const missing = await runSkilldex(root, ['convert']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe('error missing the skill folder to convert\nhint: skilldex convert skills/my-skill (the folder that holds SKILL.md or skill.json)\n');

    const categories = await runSkilldex(root, ['convert', 'skills']);
    expect(categories.status).toBe(2);
    expect(categories.stderr).toMatch(/^error skills holds neither SKILL\.md nor skill\.json\nhint: .*skills\/my-skill/);

    const same = await runSkilldex(root, ['convert', 'skills/my-skill', '--to', 'skill-md']);
    expect(same.status).toBe(2);
    expect(same.stderr).toMatch(/^error skills\/my-skill is already a SKILL\.md skill\nhint: .*--to skill-json/);
  });
});

describe('what convert and migrate print of a skill', () => {
  it('shows control characters in field and folder names instead of sending them to the terminal', async () => {
    const { root, skill } = await registry();
    await writeFile(join(skill, 'SKILL.md'), SKILL_MD.replace('license: MIT\n', 'license: MIT\n"evil\\e[31mkey": 1\n'));
    const converted = await runSkilldex(root, ['convert', 'skills/my-skill', '--dry-run']);
    expect(converted.status).toBe(0);
    expect(converted.stdout).toContain('- evil␛[31mkey:');
    expect(converted.stdout).not.toContain('\u001b');
    const legacy = join(root, 'skills', 'bad\u001b[31mred');
    await mkdir(legacy);
    await writeFile(join(legacy, 'METADATA.yml'), 'name: badred\ndescription: Migrates. Use it when testing.\n');
    const migrated = await runSkilldex(root, ['migrate', '--dry-run']);
    expect(migrated.stdout).toContain('skills/bad␛[31mred');
    expect(migrated.stdout + migrated.stderr).not.toContain('\u001b');
  });
});

describe('a file larger than a skill may publish, or a pipe, in convert and migrate', () => {
  it('is refused by name, without reading it, and the rest goes on', async () => {
    const { root, skill } = await registry();
    const { truncate } = await import('node:fs/promises');
    const sparse = async (file: string) => (await writeFile(file, ''), truncate(file, 700 * 1024 * 1024));
    await sparse(join(skill, 'SKILL.md'));
    const converted = await runSkilldex(root, ['convert', 'skills/my-skill']);
    expect(converted.status).toBe(1);
    expect(converted.stderr).toContain('skills/my-skill/SKILL.md is larger than 5 MB');

    await mkdir(join(root, 'skills', 'huge', 'scripts'), { recursive: true });
    await writeFile(join(root, 'skills', 'huge', 'METADATA.yml'), 'name: huge\ndescription: Migrates. Use it when testing.\n');
    await sparse(join(root, 'skills', 'huge', 'scripts', 'main.ts'));
    await mkdir(join(root, 'skills', 'fine', 'scripts'), { recursive: true });
    await writeFile(join(root, 'skills', 'fine', 'METADATA.yml'), 'name: fine\ndescription: Migrates. Use it when testing.\n');
    await writeFile(join(root, 'skills', 'fine', 'scripts', 'main.ts'), 'export async function execute() { return { output: {}, status: "success" }; }\n');
    await rm(join(skill, 'SKILL.md'));
    await writeFile(join(skill, 'SKILL.md'), SKILL_MD);
    // A pipe in a skill that needs no migration: the dry run's scratch copy meets it all the same.
    execFileSync('mkfifo', [join(skill, 'pipe')]);
    const dryRun = await runSkilldex(root, ['migrate', '--dry-run', '--validate']);
    expect(dryRun.status).toBe(1);
    expect(dryRun.stderr).toContain('skills/huge/scripts/main.ts is larger than 5 MB');
    expect(dryRun.stderr).not.toContain('internal error');
    expect(dryRun.stdout).toContain('migrate skills/fine (dry run)');
  });
});
