/**
 * The real CLI, spawned: usage mistakes exit 2 with a suggestion, `help <command>` and `-V` work,
 * and escape codes reach only a terminal (and never when NO_COLOR or FORCE_COLOR=0 say no).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runSkilldex } from '../helpers/cli.ts';
import { runInTerminal } from './_terminal.ts';

const MISTAKES = join(REPO, 'test', 'fixtures', 'rules', 'cli-mistakes');
const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
const ESC = '\u001b';

/** The environment without any colour preference, plus `extra`. */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { NO_COLOR: _n, FORCE_COLOR: _f, ...rest } = process.env;
  return { ...rest, TERM: 'xterm', ...extra };
}
const skilldex = (args: string[], extra: Record<string, string> = {}) => runSkilldex(REPO, args, env(extra));

describe('usage errors (spawned)', () => {
  it('refuses a malformed SKILLDEX_MAX_INDEX_BYTES or SKILLDEX_NETWORK_TIMEOUT_MS as usage, exit 2', async () => {
    for (const [name, value] of [['SKILLDEX_MAX_INDEX_BYTES', '64MB'], ['SKILLDEX_NETWORK_TIMEOUT_MS', '-1'], ['SKILLDEX_MAX_INDEX_BYTES', '0']] as const) {
      const result = await skilldex(['list', '--registry', 'https://127.0.0.1:1/'], { [name]: value });
      expect(result.status, `${name}=${value}`).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(new RegExp(`^error ${name} must be a positive number of [a-z]+, not "${value}"\\nhint: e\\.g\\. ${name}=`));
    }
  });

  it('refuses a Node older than package.json allows, as every usage error reads, and exits 2', () => {
    // An older Node, as the launcher sees it: this Node with an older version number.
    const older = spawnSync(process.execPath, ['--import', 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.9.0"})', join(REPO, 'bin', 'skilldex.mjs'), '--version'], { encoding: 'utf8' });
    expect(older.status).toBe(2);
    expect(older.stdout).toBe('');
    expect(older.stderr).toMatch(/^error skilldex needs Node >= 22\.18\.0 \(this is v20\.9\.0\)\.\nhint: run it through npm /);
  });

  it('suggests the command meant by a typo, and exits 2', async () => {
    const result = await skilldex(['serach', 'pdf']);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe("error unknown command 'serach'\nhint: did you mean 'search'? (see 'skilldex --help')\n");
    const far = await skilldex(['zzz']);
    expect(far.status).toBe(2);
    expect(far.stderr).toContain('hint: one of build, validate, scan,');
  });

  it('suggests the option meant by a typo, and exits 2 without running the command', async () => {
    const result = await skilldex(['validate', '--root', MISTAKES, '--formt', 'json']);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe("error unknown option '--formt' for 'skilldex validate'\nhint: did you mean '--format'? (see 'skilldex help validate')\n");
    const negated = await skilldex(['validate', '--root', MISTAKES, '--no-sacn']);
    expect(negated.stderr).toContain("did you mean '--no-scan'?");
  });

  it('rejects an argument a command has no place for, instead of ignoring it', async () => {
    const build = await skilldex(['build', 'skills']);
    expect(build.status).toBe(2);
    expect(build.stderr).toBe("error unexpected argument 'skills' for 'skilldex build'\nhint: 'skilldex build' takes options only; see 'skilldex help build'\n");
    const search = await skilldex(['search', 'pdf', 'tools', '--registry', MISTAKES]);
    expect(search.status).toBe(2);
    expect(search.stderr).toContain("unexpected argument 'tools' for 'skilldex search'");
    expect(search.stderr).toContain('hint: quote an argument that contains spaces');
  });

  it('an option before the command, a missing value and a bad enum value are usage errors too', async () => {
    const before = await skilldex(['--root', '.', 'validate']);
    expect(before.status).toBe(2);
    expect(before.stderr).toContain("unknown option '--root'");
    for (const args of [['validate', '--root'], ['validate', '--root', '--no-scan'], ['build', '--out=']]) {
      const missing = await skilldex(args);
      expect(missing.status, args.join(' ')).toBe(2);
      expect(missing.stderr).toMatch(/^error option '--(root|out)' needs a value\nhint: write '--(root|out) <value>'/);
    }
    const format = await skilldex(['validate', '--root', MISTAKES, '--format', 'xml']);
    expect(format.status).toBe(2);
    expect(format.stderr).toMatch(/^error Invalid value for argument: --format \(xml\)/);
    expect(format.stderr).not.toContain(ESC);
  });

  it('a mistyped install target is a usage error found before any request, with the target meant', async () => {
    // Port 9 (discard) on 127.0.0.1: nothing answers, so reaching the network would fail differently.
    const result = await skilldex(['install', 'semver-tool', '--to', 'claud', '--registry', 'http://127.0.0.1:9/']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^error unknown install target 'claud'\nhint: did you mean 'claude'\? /);
    expect(result.stderr.length).toBeLessThan(400);
  });

  it('a --format or --mode filter no skill can have, a bad --limit, --via or --style, is a usage error with a hint, found before any request', async () => {
    const registry = ['--registry', 'http://127.0.0.1:9/'];
    const limitHint = 'hint: give the most results to show as a whole number, e.g. --limit 20';
    for (const [args, message] of [
      [['list', '--format', 'bogus'], "error --format must be one of skill-md, package, skill-json, not 'bogus'\nhint: write --format skill-md, for example"],
      [['list', '--format', 'skilmd'], "error --format must be one of skill-md, package, skill-json, not 'skilmd'\nhint: did you mean 'skill-md'?"],
      [['search', 'pdf', '--mode', 'bogus'], "error --mode must be one of instructions, code, llm, composite, not 'bogus'\nhint: write --mode instructions, for example"],
      [['list', '--limit', 'abc'], `error --limit must be a positive integer, not 'abc'\n${limitHint}`],
      [['prompt', '--query', 'pdf', '--limit', '-3'], `error --limit must be a positive integer, not '-3'\n${limitHint}`],
      [['match', 'hello', '--limit', '0'], `error --limit must be a positive integer, not '0'\n${limitHint}`],
      [['install', 'pdf', '--via', 'file'], "error --via must be archive or files, not 'file'\nhint: did you mean 'files'?"],
      [['prompt', '--style', 'xml'], "error --style must be agent-skills or available-skills, not 'xml'\nhint: write --style agent-skills, for example"],
    ] as const) {
      const result = await skilldex([...args, ...registry]);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toBe(`${message}\n`);
    }
  });

  it('names the missing registry as a usage error (exit 2) when neither --registry nor SKILLDEX_REGISTRY gives one', async () => {
    const { SKILLDEX_REGISTRY: _r, ...rest } = env();
    for (const command of [['list'], ['search', 'pdf'], ['install', 'pdf', '--dir', 'nowhere']]) {
      const result = await runSkilldex(REPO, command, rest);
      expect(result.status, command.join(' ')).toBe(2);
      expect(result.stderr, command.join(' ')).toContain('no registry given');
      expect(result.stderr, command.join(' ')).toContain('SKILLDEX_REGISTRY');
    }
  });

  it('echoes a hostile argument with its control characters shown, not interpreted', async () => {
    const result = await skilldex(['\u001b]0;owned\u0007\u001b[2J']);
    expect(result.status).toBe(2);
    expect(result.stderr).not.toContain(ESC);
    expect(result.stderr).toContain("unknown command '␛]0;owned␇␛[2J'");
  });
});

describe('help and version (spawned)', () => {
  it('`skilldex help <command>` prints that command\'s options, like `<command> --help`', async () => {
    const help = await skilldex(['help', 'validate']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('USAGE skilldex validate [OPTIONS]');
    expect(help.stdout).toContain('--changed-since');
    expect(help.stdout).toBe((await skilldex(['validate', '--help'])).stdout);
    const all = await skilldex(['help']);
    expect(all.status).toBe(0);
    expect(all.stdout).toContain('COMMANDS');
    const typo = await skilldex(['help', 'valdiate']);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain("did you mean 'validate'?");
  });

  it('-V and --version print the version of package.json', async () => {
    for (const flag of ['-V', '--version']) {
      const result = await skilldex([flag]);
      expect(result).toEqual({ status: 0, stdout: `${VERSION}\n`, stderr: '' });
    }
  });
});

describe('colour (spawned, with a pipe and with a real terminal)', () => {
  it('prints no escape codes into a pipe: usage text and diagnostics are plain', async () => {
    const help = await skilldex(['--help']);
    expect(help.stdout).toContain('USAGE skilldex');
    expect(help.stdout).not.toContain(ESC);
    expect(help.stdout).not.toMatch(/ +$/m);
    const report = await skilldex(['validate', '--root', MISTAKES, '--no-scan']);
    expect(report.status).toBe(1);
    expect(report.stdout).toContain('name/folder-mismatch  error');
    expect(report.stdout + report.stderr).not.toContain(ESC);
  });

  it('FORCE_COLOR turns colour on in a pipe; FORCE_COLOR=0 keeps it off', async () => {
    const forced = await skilldex(['validate', '--root', MISTAKES, '--no-scan'], { FORCE_COLOR: '1' });
    expect(forced.stdout).toContain(`${ESC}[31merror${ESC}[39m`);
    const off = await skilldex(['validate', '--root', MISTAKES, '--no-scan'], { FORCE_COLOR: '0' });
    expect(off.stdout).not.toContain(ESC);
  });

  it('colours a terminal, unless NO_COLOR is set', async () => {
    const coloured = await runInTerminal(REPO, ['validate', '--root', MISTAKES, '--no-scan'], env());
    expect(coloured.status).toBe(1);
    expect(coloured.output).toContain(`${ESC}[31merror${ESC}[39m`);
    const plain = await runInTerminal(REPO, ['validate', '--root', MISTAKES, '--no-scan'], env({ NO_COLOR: '1' }));
    expect(plain.status).toBe(1);
    expect(plain.output).toContain('name/folder-mismatch  error');
    expect(plain.output).not.toContain(ESC);
    const help = await runInTerminal(REPO, ['--help'], env({ NO_COLOR: '1' }));
    expect(help.output).toContain('USAGE skilldex');
    expect(help.output).not.toContain(ESC);
  });
});
