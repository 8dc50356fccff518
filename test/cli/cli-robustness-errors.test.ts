/**
 * What reaches the user when the environment, the output or the command line is wrong: one
 * error line naming what is wrong, a hint, the usage exit code where the invocation is at fault,
 * and never a stack trace.
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runSkilldex, type CliResult } from '../helpers/cli.ts';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skilldex-robustness-'));
  await mkdir(join(root, 'skills', 'word-count'), { recursive: true });
  await writeFile(join(root, 'skills', 'word-count', 'SKILL.md'), '---\nname: word-count\ndescription: Counts the words of a text when the user asks for a count.\n---\n\nCount the words.\n');
});
afterAll(() => rm(root, { recursive: true, force: true }));

const noStack = (text: string) => expect(text).not.toMatch(/^\s+at /m);

/** Runs the CLI through `sh -c`, for what only a shell sets up: a redirection, a deleted current folder. */
function inShell(cwd: string, script: string): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', script], { cwd, env: { ...process.env, NO_COLOR: '1', SKILLDEX: `${process.execPath} ${CLI}` }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ status: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

describe('SOURCE_DATE_EPOCH', () => {
  it.each([
    ['99999999999999999', '99999999999999999, a time after the year 9999'],
    ['-9999999999999', '-9999999999999, a time before 1970'],
    ['abc', "'abc', not a whole number of seconds"],
    ['1.5', "'1.5', not a whole number of seconds"],
  ])('refuses %s as bad usage (exit 2), before writing anything', async (value, why) => {
    const result = await runSkilldex(root, ['build', '--out', 'dist-epoch'], { ...process.env, NO_COLOR: '1', SOURCE_DATE_EPOCH: value });
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain(`error SOURCE_DATE_EPOCH is ${why}`);
    expect(result.stderr).toContain('hint: set it to the seconds since 1970 (UTC) of the last change, as `git log -1 --format=%ct` prints');
    expect(result.stderr).not.toContain('internal error');
    noStack(result.stderr);
    expect(existsSync(join(root, 'dist-epoch', 'index.json'))).toBe(false);
  });

  it('dates the index with a well-formed value, and takes an empty one as unset', async () => {
    const set = await runSkilldex(root, ['build', '--out', 'dist-set'], { ...process.env, NO_COLOR: '1', SOURCE_DATE_EPOCH: '1700000000' });
    expect(set.status, set.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(root, 'dist-set', 'index.json'), 'utf8')).generatedAt).toBe('2023-11-14T22:13:20.000Z');
    const empty = await runSkilldex(root, ['build', '--out', 'dist-empty'], { ...process.env, NO_COLOR: '1', SOURCE_DATE_EPOCH: '' });
    expect(empty.status, empty.stderr).toBe(0);
  });
});

describe('a current folder that was deleted', () => {
  it.each([['validate'], ['new x'], ['build'], ['search word'], ['--help']])('skilldex %s says so in one line with a hint', async (command) => {
    const result = await inShell(root, `mkdir gone-${command.length} && cd gone-${command.length} && rmdir ../gone-${command.length} && $SKILLDEX ${command}`);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('error the current folder no longer exists\nhint: cd to an existing folder and run the command again\n');
  });
});

describe('output that cannot be written', () => {
  it.runIf(existsSync('/dev/full'))('says why on stderr (exit 1) when stdout is a full device', async () => {
    const result = await inShell(root, '$SKILLDEX validate --no-scan > /dev/full');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('error cannot write to standard output: no space left on the device (ENOSPC)');
    expect(result.stderr).toContain('hint: ');
    noStack(result.stderr);
  });

  it('stays quiet when the reader closes the pipe', async () => {
    const result = await inShell(root, '$SKILLDEX validate --no-scan --format json | head -c 1 > /dev/null');
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
  });
});

describe('keygen --out', () => {
  it.each(['new-keys/', 'skills'])('refuses %s, a folder, instead of writing a file named like it (exit 2)', async (out) => {
    const result = await runSkilldex(root, ['keygen', '--out', out]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`error --out ${out} names a folder; it takes the key's file name`);
    expect(result.stderr).toContain(`hint: name the file, e.g. --out ${join(out, 'skilldex-signing-key.pem')}`);
    expect(existsSync(join(root, 'new-keys'))).toBe(false);
    expect(statSync(join(root, 'skills')).isDirectory()).toBe(true);
  });

  it('shows the control characters of the file name instead of sending them to the terminal', async () => {
    const result = await runSkilldex(root, ['keygen', '--out', 'k\u001b[31m.pem']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('\u001b');
    expect(result.stdout).toContain('private key: k\u241b[31m.pem');
    expect(existsSync(join(root, 'k\u001b[31m.pem'))).toBe(true);
  });
});

describe('options', () => {
  it('names both spellings of a switch given both ways', async () => {
    const result = await runSkilldex(root, ['validate', '--scan', '--no-scan']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("error options '--scan' and '--no-scan' contradict each other\nhint: give one of them: '--scan' turns it on, '--no-scan' off");
    const twice = await runSkilldex(root, ['validate', '--no-scan', '--no-scan']);
    expect(twice.status).toBe(2);
    expect(twice.stderr).toContain("error option '--no-scan' is given more than once");
  });

  it('takes -h where a value should be as a missing value, not a request for help', async () => {
    const result = await runSkilldex(root, ['validate', '--changed-since', '-h']);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain("error option '--changed-since' needs a value\nhint: write '--changed-since <value>' (a value that starts with '-' as '--changed-since=<value>')");
    const help = await runSkilldex(root, ['validate', '--no-scan', '-h']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--changed-since');
  });

  it('takes the argument after an option that needs a value as its value, even when it starts with a dash', async () => {
    const result = await runSkilldex(root, ['new', 'dash-note', '--description', '- starts with a dash. Use it when testing.']);
    expect(result.status, result.stderr).toBe(0);
    expect(await readFile(join(root, 'skills', 'dash-note', 'SKILL.md'), 'utf8')).toContain('description: "- starts with a dash. Use it when testing."');
  });
});

describe('validate --summary', () => {
  it('speaks of the skills checked, not of changed ones, without --changed-since', async () => {
    await mkdir(join(root, 'summary-reg', 'skills', 'broken'), { recursive: true });
    await writeFile(join(root, 'summary-reg', 'skills', 'broken', 'SKILL.md'), '---\nname: Broken Name\ndescription: x\n---\n');
    // One skill accepted and one rejected: the headline counts both.
    await mkdir(join(root, 'summary-reg', 'skills', 'fine'), { recursive: true });
    await writeFile(join(root, 'summary-reg', 'skills', 'fine', 'SKILL.md'), '---\nname: fine\ndescription: Does fine things when the user asks for them.\n---\n# fine\n\nSteps.\n');
    const result = await runSkilldex(join(root, 'summary-reg'), ['validate', '--no-scan', '--summary', 'summary.md']);
    expect(result.status).toBe(1);
    const summary = await readFile(join(root, 'summary-reg', 'summary.md'), 'utf8');
    expect(summary).toMatch(/❌ \*\*\d+ errors?\*\*, \d+ warnings? in 2 skills\./);
    expect(summary).not.toContain('changed');
  });
});
