/**
 * The real CLI, spawned: validate, build and scan of many skills, and install of a large one,
 * draw one updating progress line on stderr when it is a terminal (a real pseudo-terminal here),
 * erase it before the report, and write nothing of it into a pipe.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSkilldex } from '../helpers/cli.ts';
import { runInTerminal } from './_terminal.ts';

const COUNT = 120;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skilldex-progress-'));
  for (let i = 0; i < COUNT; i++) {
    // Names far apart from each other: numbered ones would imitate each other (name/typosquat).
    const name = `task-${createHash('sha256').update(String(i)).digest('hex').slice(0, 12)}`;
    await mkdir(join(root, 'skills', name), { recursive: true });
    await writeFile(join(root, 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: Does task ${i} when the user asks for it.\n---\n# Task ${i}\n\nSteps.\n`);
  }
});
afterAll(() => rm(root, { recursive: true, force: true }));

const { NO_COLOR: _n, FORCE_COLOR: _f, ...plainEnv } = process.env;

describe('progress on a terminal (spawned)', () => {
  it('validate: "validating N/120 skills" then "scanning N/120 skills" on one line, erased before the report', async () => {
    const { status, output } = await runInTerminal(root, ['validate'], plainEnv);
    expect(status).toBe(0);
    expect(output).toContain(`\rvalidating 0/${COUNT} skills`);
    expect(output).toContain(`\rvalidating ${COUNT}/${COUNT} skills`);
    expect(output).toContain(`\rscanning ${COUNT}/${COUNT} skills`);
    // The line is never ended: each state overwrites the last, and blanks erase it at the end.
    const progress = output.slice(0, output.indexOf('0 errors'));
    expect(progress).not.toContain('\n');
    expect(progress).toMatch(/\r {10,}\r$/);
    expect(output.slice(progress.length)).toMatch(/^0 errors, 0 warnings\r?\n$/);
  });

  it('build and scan show it too', async () => {
    const build = await runInTerminal(root, ['build', '--out', join(root, '.out')], plainEnv);
    expect(build.status).toBe(0);
    expect(build.output).toContain(`\rvalidating ${COUNT}/${COUNT} skills`);
    expect(build.output).toContain(`published ${COUNT} skills`);
    const scan = await runInTerminal(root, ['scan', '--format', 'json'], plainEnv);
    expect(scan.status).toBe(0);
    expect(scan.output).toContain(`\rscanning ${COUNT}/${COUNT} skills`);
  });

  it('counts past a thousand with separators', async () => {
    const big = await mkdtemp(join(tmpdir(), 'skilldex-progress-big-'));
    try {
      for (let i = 0; i < 1001; i++) {
        await mkdir(join(big, 'skills', `s${i}`), { recursive: true });
        await writeFile(join(big, 'skills', `s${i}`, 'SKILL.md'), `---\nname: s${i}\ndescription: Does task ${i} when asked.\n---\nSteps.\n`);
      }
      const { status, output } = await runInTerminal(big, ['validate', '--no-scan'], plainEnv);
      expect(status).toBe(0);
      expect(output).toContain('\rvalidating 1,001/1,001 skills');
    } finally {
      await rm(big, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('no progress into a pipe (spawned)', () => {
  it('validate, build and scan write nothing but their report', async () => {
    const validate = await runSkilldex(root, ['validate'], plainEnv);
    expect(validate).toEqual({ status: 0, stdout: '0 errors, 0 warnings\n', stderr: '' });
    const build = await runSkilldex(root, ['build', '--out', join(root, '.out-pipe')], plainEnv);
    expect(build.status).toBe(0);
    expect(build.stderr).toBe(`published ${COUNT} skills to ${join(root, '.out-pipe')}\n`);
    const scan = await runSkilldex(root, ['scan', '--format', 'json'], plainEnv);
    expect(scan.status).toBe(0);
    expect(scan.stderr).toBe('');
    for (const r of [validate, build, scan]) expect(r.stdout + r.stderr).not.toMatch(/[\r\u001b]/);
  });
});

describe('install of a large skill', () => {
  it('shows the download on a terminal, and nothing of it into a pipe', async () => {
    const reg = await mkdtemp(join(tmpdir(), 'skilldex-progress-install-'));
    try {
      await mkdir(join(reg, 'skills', 'big-data', 'references'), { recursive: true });
      await writeFile(join(reg, 'skills', 'big-data', 'SKILL.md'), '---\nname: big-data\ndescription: Looks things up in a large table when the user asks.\n---\n# Big data\n\nRead [the table](references/table.txt).\n');
      await writeFile(join(reg, 'skills', 'big-data', 'references', 'table.txt'), Array.from({ length: 20_000 }, (_, i) => `row ${i}: ${createHash('sha256').update(String(i)).digest('hex')}`).join('\n'));
      const out = join(reg, '.out');
      expect((await runSkilldex(reg, ['build', '--out', out], plainEnv)).status).toBe(0);
      const install = (dir: string) => ['install', 'big-data', '--via', 'files', '--registry', out, '--dir', join(reg, dir)];
      const piped = await runSkilldex(reg, install('piped'), plainEnv);
      expect(piped.status).toBe(0);
      expect(piped.stdout).toContain('installed big-data');
      expect(piped.stderr).not.toContain('downloading');
      const shown = await runInTerminal(reg, install('shown'), plainEnv);
      expect(shown.status).toBe(0);
      expect(shown.output).toMatch(/\rdownloading [\d.]+ [kM]B of [\d.]+ [kM]B/);
    } finally {
      await rm(reg, { recursive: true, force: true });
    }
  }, 60_000);
});
