/**
 * What a person gets wrong at the command line gets a message and an exit code, never a stack
 * trace, lost files or a run with half the input: an output folder over the sources, a file where
 * a folder goes, an option given twice, a reader that closes the pipe early.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runSkilldex } from '../helpers/cli.ts';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skilldex-misuse-'));
  for (let i = 0; i < 40; i++) {
    await mkdir(join(root, 'skills', `tool-${i}`), { recursive: true });
    await writeFile(join(root, 'skills', `tool-${i}`, 'SKILL.md'), `---\nname: tool-${i}\ndescription: Counts the words of a text when the user asks for a count, number ${i}.\n---\n\nCount the words.\n`);
  }
  const built = await runSkilldex(root, ['build', '--out', 'dist']);
  expect(built.status, built.stderr).toBe(0);
});
afterAll(() => rm(root, { recursive: true, force: true }));

const noStack = (text: string) => expect(text).not.toMatch(/^\s+at /m);

describe('build --out', () => {
  it.each([
    ['.', 'is the registry root'],
    ['skills', 'lies inside the skills folder'],
    ['skills/tool-1/out', 'lies inside the skills folder'],
    ['..', 'holds the registry root'],
    ['root-link', 'is the registry root'],
  ])('refuses %s (exit 2) and writes nothing there', async (out, why) => {
    await symlink('.', join(root, 'root-link')).catch(() => {});
    const before = readdirSync(join(root, 'skills')).length;
    const result = await runSkilldex(root, ['build', '--out', out]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(why);
    expect(result.stderr).toContain('hint: pass another --out');
    noStack(result.stderr);
    expect(existsSync(join(root, 'index.json'))).toBe(false);
    expect(readdirSync(join(root, 'skills')).length).toBe(before);
    expect(existsSync(join(root, 'skills', 'tool-1', 'out'))).toBe(false);
  });

  it('says a file is not a folder (exit 2), and names the path a folder cannot be made in (exit 1)', async () => {
    await writeFile(join(root, 'a-file'), 'x');
    const file = await runSkilldex(root, ['build', '--out', 'a-file']);
    expect(file.status).toBe(2);
    expect(file.stderr).toContain('error a-file is a file, not a folder');
    const under = await runSkilldex(root, ['build', '--out', 'a-file/dist']);
    expect(under.status).toBe(1);
    expect(under.stderr).toMatch(/error cannot mkdir \S*a-file\S*: a part of the path is a file, not a folder \(ENOTDIR\)/);
    expect(under.stderr).toContain('hint: check the path');
    noStack(file.stderr + under.stderr);
    const rootIsFile = await runSkilldex(root, ['build', '--root', 'a-file']);
    expect(rootIsFile.status).toBe(2);
    expect(rootIsFile.stderr).toContain('hint: pass the registry root, the folder that holds skills/, not a file');
  });

  it("refuses a folder holding someone's files (exit 2) and leaves them as they were; builds into its own output, an empty folder or a gh-pages worktree", async () => {
    const site = join(root, 'my-site');
    await mkdir(join(site, 'skills'), { recursive: true });
    await writeFile(join(site, 'index.json'), '{"my":"own data"}\n');
    await writeFile(join(site, 'skills', 'tool-1.json'), 'my notes\n');
    const refused = await runSkilldex(root, ['build', '--out', 'my-site']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("holds files no Skilldex build wrote ('index.json', 'skills')");
    expect(refused.stderr).toContain('hint: pass a new or empty folder for --out');
    noStack(refused.stderr);
    expect(await readFile(join(site, 'index.json'), 'utf8')).toBe('{"my":"own data"}\n');
    expect(await readFile(join(site, 'skills', 'tool-1.json'), 'utf8')).toBe('my notes\n');
    // Its own output again (and again without the record), an empty folder, and one holding only .git are built into.
    expect((await runSkilldex(root, ['build', '--out', 'dist'])).status).toBe(0);
    await rm(join(root, 'dist', '.skilldex-build.json'));
    expect((await runSkilldex(root, ['build', '--out', 'dist'])).status).toBe(0);
    await mkdir(join(root, 'worktree', '.git'), { recursive: true });
    const worktree = await runSkilldex(root, ['build', '--out', 'worktree']);
    expect(worktree.status, worktree.stderr).toBe(0);
    expect(existsSync(join(root, 'worktree', 'index.json'))).toBe(true);
  });

  it.runIf(existsSync('/proc/self'))('fails instead of hanging where the system cannot make the folder (/proc)', async () => {
    // Node's recursive mkdir loops for ever there: mkdir answers ENOENT below a folder that exists.
    const result = await runSkilldex(root, ['build', '--out', '/proc/skilldex-out/dist']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('error cannot mkdir /proc/skilldex-out: no such file or folder (ENOENT)\nhint: the folder above it exists, but the system lets nothing be created there');
    noStack(result.stderr);
  });
});

describe('files named by options', () => {
  it('says why a published index or a key file cannot be used, in words, without Node\'s error text', async () => {
    const index = await runSkilldex(root, ['validate', '--no-scan', '--against-index', 'no-such-index.json']);
    expect(index.status).toBe(2);
    expect(index.stderr).toContain('error cannot read the published index no-such-index.json: no such file or folder (ENOENT)');
    const key = await runSkilldex(root, ['keygen', '--out', join('no-such-folder', 'key.pem')]);
    expect(key.status).toBe(1);
    expect(key.stderr).toContain(`error cannot write ${join('no-such-folder', 'key.pem')}: no such file or folder (ENOENT)`);
    for (const r of [index, key]) {
      expect(r.stderr).not.toContain('no such file or directory');
      noStack(r.stderr);
    }
  });
});

describe('options', () => {
  it('refuses an option given twice, instead of keeping the last', async () => {
    const result = await runSkilldex(root, ['install', 'tool-1', '--registry', 'dist', '--to', 'claude', '--to', 'cursor', '--dir', join(root, 'agent')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("error option '--to' is given more than once");
    expect(existsSync(join(root, 'agent'))).toBe(false);
  });

  it('refuses a switch given a value or given twice, instead of reading --scan=no as on', async () => {
    const valued = await runSkilldex(root, ['validate', '--scan=no']);
    expect(valued.status).toBe(2);
    expect(valued.stderr).toContain("error option '--scan' takes no value");
    expect(valued.stderr).toContain("hint: write '--scan' or '--no-scan'");
    const both = await runSkilldex(root, ['validate', '--no-scan', '--scan']);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain("error options '--no-scan' and '--scan' contradict each other");
    expect((await runSkilldex(root, ['validate', '--no-scan'])).status).toBe(0);
  });

  it('refuses a folder for --summary, or a file in no folder, before checking anything', async () => {
    const result = await runSkilldex(root, ['validate', '--no-scan', '--summary', 'skills']);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('error --summary skills is a folder');
    const nowhere = await runSkilldex(root, ['validate', '--no-scan', '--summary', 'no/such/folder/summary.md']);
    expect(nowhere.status).toBe(2);
    expect(nowhere.stdout).toBe('');
    expect(nowhere.stderr).toContain('error --summary no/such/folder/summary.md is in a folder that does not exist');
    expect(nowhere.stderr).toContain('hint: create the folder first');
  });

  it('takes an empty value for an option that needs one as missing', async () => {
    const result = await runSkilldex(root, ['build', '--out', '']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("error option '--out' needs a value");
  });

  it('takes a folder without index.json for the wrong folder (exit 2), not a broken registry', async () => {
    const result = await runSkilldex(root, ['search', 'count', '--registry', 'skills']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('holds no index.json, so it is not a built registry');
    expect(result.stderr).toContain('hint: give the folder `skilldex build` wrote');
  });

  it('refuses --input with --input-file', async () => {
    await writeFile(join(root, 'in.json'), '{"text": "from the file"}');
    const result = await runSkilldex(root, ['run', 'tool-1', '--registry', 'dist', '--input', '{"text": "inline"}', '--input-file', 'in.json']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('error --input and --input-file cannot be combined');
  });
});

describe('output', () => {
  it('ends quietly when the reader closes the pipe early (`skilldex list | head -1`)', async () => {
    const child = spawn(process.execPath, [CLI, 'list', '--registry', 'dist'], { cwd: root, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    // Read one chunk, as `head -1` does, then close the pipe: the CLI's next write meets EPIPE.
    child.stdout.once('data', () => child.stdout.destroy());
    const status = await new Promise<number | null>((done) => child.on('close', done));
    expect(stderr).not.toContain('EPIPE');
    noStack(stderr);
    expect(status).toBe(0);
  });

  it('shows the control characters of a registry file it cannot parse, instead of sending them to the terminal', async () => {
    const forged = join(root, 'forged');
    await mkdir(forged, { recursive: true });
    await writeFile(join(forged, 'index.json'), '\u001b]0;PWNED\u0007\u001b[2J');
    const result = await runSkilldex(root, ['list', '--registry', forged]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('error ');
    expect(result.stderr).not.toContain('\u001b');
    expect(result.stderr).not.toContain('\u0007');
    expect(result.stderr).toContain('␛]0;PWNED');
  });
});

describe('scan', () => {
  it('refuses a --site-url that is no site URL, as build does, before scanning anything', async () => {
    for (const command of [['scan'], ['build', '--out', join(root, 'never')]]) {
      const result = await runSkilldex(root, [...command, '--site-url', 'notaurl']);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('error notaurl is not a usable site URL');
      expect(result.stdout).toBe('');
    }
  });

  it('finds what validate finds from the same folder: the registry root, the skills folder, one skill', async () => {
    const count = async (cwd: string) => JSON.parse((await runSkilldex(cwd, ['scan', '--format', 'json'])).stdout).skills.length;
    expect(await count(root)).toBe(40);
    expect(await count(join(root, 'skills'))).toBe(40);
    expect(await count(join(root, 'skills', 'tool-3'))).toBe(1);
  });

  it('names the files it could not read (a 3 GB file, a pipe), exits 1, and still scans the rest', async () => {
    const dir = join(root, 'odd', 'huge-skill');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'SKILL.md'), '---\nname: huge-skill\ndescription: Holds a very large file and a pipe, to test the scanner.\n---\n\nRead big.txt.\n');
    await writeFile(join(dir, 'big.txt'), '');
    await truncate(join(dir, 'big.txt'), 3 * 1024 ** 3); // sparse: costs no disk
    execFileSync('mkfifo', [join(dir, 'pipe.md')]);
    const result = await runSkilldex(root, ['scan', 'odd/huge-skill', '--format', 'json']);
    expect(result.status).toBe(1);
    noStack(result.stderr);
    expect(result.stderr).toContain('not scanned odd/huge-skill/big.txt: 3221225472 bytes, over the 5242880-byte limit for one file (files/too-large)');
    expect(result.stderr).toContain('not scanned odd/huge-skill/pipe.md: not a regular file (a pipe, socket or device)');
    expect(JSON.parse(result.stdout).skills.map((s: { name: string }) => s.name)).toEqual(['huge-skill']);
  });
});
