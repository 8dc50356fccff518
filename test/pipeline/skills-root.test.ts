/**
 * The skills root itself is untrusted input from a pull request: a `skills` folder that is a
 * symlink, or a config `skillsDir` that leaves the repository, must not publish outside files.
 * Drives the real CLI on real folders.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO } from './rules/_harness.ts';

let work: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'skilldex-root-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

const skilldex = (...args: string[]) =>
  spawnSync(process.execPath, [join(REPO, 'bin', 'skilldex.mjs'), ...args], { cwd: work, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });

/** A skill folder outside the repository, holding something a registry must never publish. */
async function outsideSkills(): Promise<string> {
  const outside = join(work, 'outside');
  await mkdir(join(outside, 'secret-notes'), { recursive: true });
  await writeFile(join(outside, 'secret-notes', 'SKILL.md'), '---\nname: secret-notes\ndescription: Private notes that live outside the repository.\n---\n\nThe password is hunter2.\n');
  return outside;
}

describe('the skills root', () => {
  it('refuses a skills folder that is a symbolic link, and publishes nothing from where it points', async () => {
    const repo = join(work, 'repo');
    await mkdir(repo);
    await symlink(await outsideSkills(), join(repo, 'skills'));
    const validate = skilldex('validate', '--root', repo, '--no-scan');
    expect(validate.status).toBe(1);
    expect(validate.stdout).toMatch(/^skills:1:1 {2}files\/symlink {2}error {2}'skills' is a symbolic link/m);
    const out = join(work, 'out');
    const build = skilldex('build', '--root', repo, '--out', out, '--lenient');
    expect(build.stdout + build.stderr).toContain('files/symlink');
    const published = await readdir(join(out, 'skills')).catch(() => [] as string[]);
    expect(published).not.toContain('secret-notes.json');
  });

  it.each(['../outside', '/etc', 'skills/../../outside'])('refuses skillsDir %j in skilldex.config.json with the file and line', async (skillsDir) => {
    const repo = join(work, 'repo');
    await mkdir(join(repo, 'skills'), { recursive: true });
    await outsideSkills();
    await writeFile(join(repo, 'skilldex.config.json'), `{\n  "title": "x",\n  "skillsDir": ${JSON.stringify(skillsDir)}\n}\n`);
    const validate = skilldex('validate', '--root', repo, '--no-scan');
    expect(validate.status).not.toBe(0);
    expect(validate.stderr).toContain('skilldex.config.json:3:');
    expect(validate.stderr).toContain('must be a relative folder below the registry root');
    expect(validate.stdout + validate.stderr).not.toContain('secret-notes');
  });
});
