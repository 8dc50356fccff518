import { execFile } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planMigration, securityFromPermissions } from '../../src/publish/migrate.ts';
import { MigrationError } from '../../src/publish/migration-error.ts';
import { CLI, runSkilldex, runSkilldexUnprivileged } from '../helpers/cli.ts';

/**
 * What `skilldex migrate` must never do to a user's files: write through a symbolic link, leave a
 * skill half migrated when its output is cut off, or give up on every skill because one is broken.
 */

const temps: string[] = [];
afterEach(async () => {
  for (const t of temps.splice(0)) await rm(t, { recursive: true, force: true });
});

const CODE_SKILL = (name: string) =>
  `---\nname: ${name}\ndescription: Legacy ${name}. Use it when testing.\n---\n# ${name}\n\n\`\`\`typescript\nexport async function execute(p: any) { return { output: {}, status: "success" }; }\n\`\`\`\n`;

/** A registry root in a fresh temp folder, with a victim file outside its skills folder. */
async function registry(skills: Record<string, string>): Promise<{ root: string; victim: string }> {
  const root = await mkdtemp(join(tmpdir(), 'skilldex-migrate-safety-'));
  temps.push(root);
  for (const [path, content] of Object.entries(skills)) {
    await mkdir(join(root, 'skills', path, '..'), { recursive: true });
    await writeFile(join(root, 'skills', path), content);
  }
  const victim = join(root, 'victim.txt');
  await writeFile(victim, 'VICTIM\n');
  return { root, victim };
}

const list = async (dir: string) => (await readdir(dir, { recursive: true })).sort();

describe('skilldex migrate and symbolic links', () => {
  it('refuses a skill whose scripts/execute.ts is a link, writes nothing for it and migrates the others', async () => {
    const { root, victim } = await registry({ 'demo/SKILL.md': CODE_SKILL('demo'), 'other/SKILL.md': CODE_SKILL('other') });
    await mkdir(join(root, 'skills/demo/scripts'));
    await symlink(victim, join(root, 'skills/demo/scripts/execute.ts'));

    const result = await runSkilldex(root, ['migrate']);
    expect(await readFile(victim, 'utf8')).toBe('VICTIM\n');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('error skills/demo/scripts/execute.ts is a symbolic link');
    expect(result.stderr).toMatch(/\nhint: replace the link with a real file/);
    expect(result.stdout).not.toContain('skills/demo');
    expect(await list(join(root, 'skills/demo'))).toEqual(['SKILL.md', 'scripts', 'scripts/execute.ts']);
    expect(await readFile(join(root, 'skills/demo/SKILL.md'), 'utf8')).toBe(CODE_SKILL('demo'));
    expect(await list(join(root, 'skills/other'))).toContain('SKILL.md.legacy');
  });

  it('refuses a link at references/.gitkeep, which the listing of a skill does not show', async () => {
    const { root, victim } = await registry({ 'demo/SKILL.md': CODE_SKILL('demo') });
    await mkdir(join(root, 'skills/demo/references'));
    await symlink(victim, join(root, 'skills/demo/references/.gitkeep'));

    const dry = await runSkilldex(root, ['migrate', '--dry-run']);
    expect(dry.status).toBe(1);
    expect(dry.stderr).toContain('error skills/demo/references/.gitkeep is a symbolic link');
    const result = await runSkilldex(root, ['migrate']);
    expect(result.status).toBe(1);
    expect(await readFile(victim, 'utf8')).toBe('VICTIM\n');
    expect(await list(join(root, 'skills/demo'))).toEqual(['SKILL.md', 'references', 'references/.gitkeep']);
  });

  it('refuses a linked SKILL.md beside METADATA.yml, and a linked scripts folder', async () => {
    const { root, victim } = await registry({ 'meta/METADATA.yml': 'name: meta\ndescription: Meta. Use it when testing.\n', 'dir/SKILL.md': CODE_SKILL('dir') });
    await symlink(victim, join(root, 'skills/meta/SKILL.md'));
    const outside = join(root, 'outside');
    await mkdir(outside);
    await symlink(outside, join(root, 'skills/dir/scripts'));

    const result = await runSkilldex(root, ['migrate']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('error skills/meta/SKILL.md is a symbolic link');
    expect(result.stderr).toContain('error skills/dir/scripts is a symbolic link');
    expect(await readFile(victim, 'utf8')).toBe('VICTIM\n');
    expect(await readdir(outside)).toEqual([]);
    expect(await list(join(root, 'skills/meta'))).toEqual(['METADATA.yml', 'SKILL.md']);
  });

  it('never overwrites a backup or a file a move would land on', async () => {
    const { root } = await registry({ 'demo/SKILL.md': CODE_SKILL('demo'), 'demo/SKILL.md.legacy': 'an older backup\n' });
    const result = await runSkilldex(root, ['migrate']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('error skills/demo/SKILL.md.legacy already exists');
    expect(await readFile(join(root, 'skills/demo/SKILL.md.legacy'), 'utf8')).toBe('an older backup\n');
    expect(await readFile(join(root, 'skills/demo/SKILL.md'), 'utf8')).toBe(CODE_SKILL('demo'));
  });
});

describe('skilldex migrate with its output cut off', () => {
  it('finishes every skill it started when stdout is a pipe closed after one line', async () => {
    const { root } = await registry({ 'aaa/SKILL.md': CODE_SKILL('aaa'), 'bbb/SKILL.md': CODE_SKILL('bbb'), 'good/SKILL.md': '---\nname: good\ndescription: Good. Use it when testing.\n---\nbody\n' });
    const first = await new Promise<string>((resolve) => {
      execFile('sh', ['-c', `"${process.execPath}" "${CLI}" migrate | head -1`], { cwd: root, env: { ...process.env, NO_COLOR: '1' } }, (_error, stdout) => resolve(stdout));
    });
    expect(first.split('\n').filter(Boolean)).toHaveLength(1);
    // `head` has gone; give the CLI the time it took to be cut off in the middle before.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const name of ['aaa', 'bbb']) {
      expect(await list(join(root, 'skills', name))).toEqual(['SKILL.md', 'SKILL.md.legacy', 'assets', 'assets/.gitkeep', 'references', 'references/.gitkeep', 'scripts', 'scripts/execute.ts']);
      expect(await readFile(join(root, 'skills', name, 'SKILL.md'), 'utf8')).toContain('entry: ./scripts/execute.ts');
    }
    expect((await runSkilldex(root, ['validate'])).status).toBe(0);
  });
});

describe('skilldex migrate and a broken METADATA.yml', () => {
  it('reports the file, line and column with a hint, and still migrates the other skills', async () => {
    const { root } = await registry({
      'ok-legacy/METADATA.yml': 'name: ok-legacy\ndescription: Fine. Use it when testing.\n',
      'ok-legacy/scripts/main.ts': 'export async function execute(){return {output:{},status:"success"}}\n',
      'broken/METADATA.yml': 'name: broken\ndescription: [oops\n',
    });
    const dry = await runSkilldex(root, ['migrate', '--dry-run']);
    expect(dry.status).toBe(1);
    expect(dry.stderr).toMatch(/^error skills\/broken\/METADATA\.yml:2:14 METADATA\.yml is not valid YAML: .+\nhint: .+/m);
    expect(dry.stderr).not.toContain('internal error');
    expect(dry.stdout).toContain('migrate skills/ok-legacy (dry run)');

    const real = await runSkilldex(root, ['migrate']);
    expect(real.status).toBe(1);
    expect((await lstat(join(root, 'skills/ok-legacy/SKILL.md'))).isFile()).toBe(true);
    expect(await list(join(root, 'skills/broken'))).toEqual(['METADATA.yml']);
  });

  it('throws a MigrationError with the position for YAML that does not parse or has duplicate keys', () => {
    const plan = (yaml: string) => () => planMigration({ folderName: 'x', paths: ['METADATA.yml'], read: () => yaml });
    expect(plan('name: x\ndescription: [oops\n')).toThrow(MigrationError);
    try {
      plan('name: x\nname: y\n')();
    } catch (error) {
      expect(error).toBeInstanceOf(MigrationError);
      expect((error as MigrationError).file).toBe('METADATA.yml');
      expect((error as MigrationError).position).toEqual({ line: 2, column: 1 });
      expect((error as MigrationError).hint).toBeTruthy();
    }
    expect.assertions(5);
  });

  it('points at the alias that expands a METADATA.yml too far', () => {
    const bomb = ['name: x', 'a: &a [x, x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]', ''].join('\n');
    expect(() => planMigration({ folderName: 'x', paths: ['METADATA.yml'], read: () => bomb })).toThrow(expect.objectContaining({ file: 'METADATA.yml', position: { line: 4, column: 40 } }));
  });

  it('says a METADATA.yml nested deep enough to exhaust the parser is too deep, at the same place every time', () => {
    const plan = () => planMigration({ folderName: 'x', paths: ['METADATA.yml'], read: () => `name: x\ndescription: It's deep.\ntags: ${'['.repeat(20_000)}\n` });
    const failures = [0, 1].map(() => {
      try {
        plan();
      } catch (error) {
        return error as MigrationError;
      }
      return undefined;
    });
    expect(failures[0]).toBeInstanceOf(MigrationError);
    expect(failures[0]?.message).toBe('METADATA.yml nests deeper than 32 levels');
    expect(failures[0]?.position).toEqual({ line: 3, column: 39 });
    expect(failures[1]?.position).toEqual(failures[0]?.position);
  });
});

describe('legacy permissions.timeout', () => {
  it('becomes security.timeout_ms, read as milliseconds, with a note saying so', () => {
    const notes: string[] = [];
    expect(securityFromPermissions({ timeout: 5000 }, notes)).toEqual({ timeout_ms: 5000 });
    expect(notes.join('\n')).toContain('permissions.timeout 5000 → security.timeout_ms 5000');
    expect(notes.join('\n')).not.toContain('dropped');
  });

  it('reads an explicit unit, and flags a number so small it may have meant seconds', () => {
    const notes: string[] = [];
    expect(securityFromPermissions({ timeout: '30s' }, notes)).toEqual({ timeout_ms: 30000 });
    expect(securityFromPermissions({ timeout: 30 }, notes)).toEqual({ timeout_ms: 30 });
    expect(notes[1]).toContain('if it meant seconds, set security.timeout_ms to 30000');
    expect(securityFromPermissions({ timeout: 'soon' }, notes)).toEqual({});
    expect(notes[2]).toContain("permissions.timeout 'soon' is not a duration");
  });

  it('reaches the migrated SKILL.md', () => {
    const md = '---\nname: x\ndescription: d\npermissions:\n  timeout: 5000\n---\n\n```typescript\nfunction execute() { return 1 }\n```\n';
    const plan = planMigration({ folderName: 'x', paths: ['SKILL.md'], read: () => md });
    const skillMd = plan.ops.find((o) => o.kind === 'write' && o.path === 'SKILL.md');
    expect(skillMd && 'content' in skillMd ? skillMd.content : '').toMatch(/security:\n {2}timeout_ms: 5000\n/);
  });
});

describe('skilldex migrate when a step fails half way', () => {
  it('undoes the steps before it, so the skill is left as it was', async () => {
    const { root } = await registry({
      'meta/METADATA.yml': 'name: meta\ndescription: Migrates. Use it when testing.\n',
      'meta/scripts/main.ts': 'export async function execute() { return { output: {}, status: "success" }; }\n',
      'meta/helper.ts': 'export const x = 1;\n',
    });
    const skill = join(root, 'skills', 'meta');
    const before = await list(skill);
    const { chmod } = await import('node:fs/promises');
    // Moving helper.ts into scripts/ is refused: the files written before it must go again.
    await chmod(join(skill, 'scripts'), 0o555);
    const result = await runSkilldexUnprivileged(root, ['migrate']);
    await chmod(join(skill, 'scripts'), 0o755);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/permission denied/);
    expect(await list(skill)).toEqual(before);
    expect(await readFile(join(skill, 'METADATA.yml'), 'utf8')).toBe('name: meta\ndescription: Migrates. Use it when testing.\n');
  });
});

describe('skilldex migrate and a pipe in a skill', () => {
  it('refuses the skill, naming the pipe, instead of choosing another entry', async () => {
    const { root } = await registry({
      'meta/METADATA.yml': 'name: meta\ndescription: Migrates. Use it when testing.\n',
      'meta/scripts/helper.ts': 'export const x = 1;\n',
      'other/SKILL.md': CODE_SKILL('other'),
    });
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [join(root, 'skills', 'meta', 'scripts', 'main.ts')]);
    const result = await runSkilldex(root, ['migrate']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('skills/meta/scripts/main.ts is not a regular file');
    expect(await list(join(root, 'skills', 'meta'))).toEqual(['METADATA.yml', 'scripts', 'scripts/helper.ts', 'scripts/main.ts']);
    expect(await list(join(root, 'skills', 'other'))).toContain('scripts/execute.ts');
  });
});

describe('skilldex migrate killed with SIGKILL', () => {
  const KILLER = join(import.meta.dirname, '..', 'helpers', 'kill-mid-write.ts');
  /** Runs migrate in `root`, killed at the `at`-th change it makes below the skills folder (0: never). */
  const migrateKilledAt = (root: string, at: number, args: readonly string[], hardLinks: boolean) =>
    new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      const env = { ...process.env, NO_COLOR: '1', SKILLDEX_KILL_UNDER: join(root, 'skills'), SKILLDEX_KILL_AT: String(at), SKILLDEX_NO_HARD_LINKS: hardLinks ? '0' : '1' };
      const child = execFile(process.execPath, ['--import', KILLER, CLI, 'migrate', ...args], { cwd: root, env, timeout: 60_000 });
      child.on('exit', (code, signal) => resolve({ code, signal }));
    });

  // Each case runs the command about twenty times: two cover both ways of keeping the old file.
  it.each([
    { args: [], hardLinks: false },
    { args: ['--no-backup'], hardLinks: true },
  ])('never leaves SKILL.md missing or half written, whichever step it is killed at ($args, hard links: $hardLinks)', async ({ args, hardLinks }) => {
    const old = CODE_SKILL('demo');
    const done = await registry({ 'demo/SKILL.md': old });
    expect((await migrateKilledAt(done.root, 0, args, hardLinks)).code).toBe(0);
    const migrated = await readFile(join(done.root, 'skills/demo/SKILL.md'), 'utf8');
    const script = await readFile(join(done.root, 'skills/demo/scripts/execute.ts'), 'utf8');
    let steps = 0;
    for (let at = 1; at < 50; at++) {
      const { root } = await registry({ 'demo/SKILL.md': old });
      const run = await migrateKilledAt(root, at, args, hardLinks);
      if (run.signal !== 'SIGKILL') {
        expect(run.code).toBe(0);
        break;
      }
      steps = at;
      const skill = join(root, 'skills/demo');
      const state = await readFile(join(skill, 'SKILL.md'), 'utf8').catch(() => 'no SKILL.md');
      expect([old, migrated], `killed at step ${at}: SKILL.md is the old one or the new one, whole`).toContain(state);
      // Whatever else is in place is whole too; only hidden temporaries may be cut off.
      if (state === migrated) expect(await readFile(join(skill, 'scripts/execute.ts'), 'utf8')).toBe(script);
      const legacy = await readFile(join(skill, 'SKILL.md.legacy'), 'utf8').catch(() => undefined);
      if (legacy !== undefined) expect(legacy, `killed at step ${at}: SKILL.md.legacy`).toBe(old);
    }
    // The command was stopped at each of its steps, and there were several.
    expect(steps).toBeGreaterThan(3);
  });
});
