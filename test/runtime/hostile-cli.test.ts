import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endless, forgeRegistry, type ForgedServer, type ForgedSkill, type Handler, mount, serveForged } from './_forged-registry.ts';
import { buildFixtures, REPO_ROOT, tempDir } from './_registries.ts';
import { openRegistry as openBrowserRegistry, SkilldexError } from '../../src/runtime/index.ts';

/**
 * The real `skilldex` CLI in a child process against hand-written registries on 127.0.0.1. Each
 * registry is internally consistent — every file, tree and archive digest is right — so each test
 * shows the client refusing the attack itself: names used as paths, smuggled URLs, redirects to
 * other hosts, endless bodies, links in the install folder, deep JSON and terminal escapes.
 */

let server: ForgedServer;
/** A second origin, standing in for another host (a cloud metadata address, a service on localhost). */
let other: ForgedServer;
let cacheDir: string;

beforeAll(async () => {
  server = await serveForged();
  other = await serveForged();
  cacheDir = await tempDir('hostile-cli-cache');
});
afterAll(async () => {
  await server.close();
  await other.close();
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs bin/skilldex.mjs; a run that hangs is killed after `timeoutMs` and reported as such. */
function skilldex(args: string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/skilldex.mjs'), ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', SKILLDEX_CACHE_DIR: cacheDir, ...options.env },
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 30_000);
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.stdin.end();
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/** These registries are unsigned on purpose: the one-time "not verified" note is expected. */
const withoutUnverifiedNote = (stderr: string) => stderr.replace(/^note: .* is not verified: .*\n/m, '');

let prefixCount = 0;
/** Mounts a forged registry under a fresh prefix of the main server and returns its URL. */
async function registry(skills: ForgedSkill[], extra: { url?: string } = {}): Promise<{ url: string; prefix: string; files: Map<string, Uint8Array> }> {
  const files = await forgeRegistry(skills, extra);
  const prefix = `/r${++prefixCount}/`;
  return { url: mount(server, files, prefix), prefix, files };
}

const SKILL = (name: string, body = '# Steps\n\nDo the thing.\n'): ForgedSkill => ({ name, files: { 'SKILL.md': `---\nname: ${name}\ndescription: A skill.\n---\n\n${body}` } });

/** A refusal the user can act on: exit 1, a code, a hint, and no stack trace. */
function expectRefusal(run: Run, code: string): void {
  expect(run.timedOut, 'the command hung').toBe(false);
  expect(run.stderr).toContain(`[${code}]`);
  expect(run.stderr).toMatch(/^hint: /m);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.code).toBe(1);
}

describe('skill names used as paths', () => {
  it('refuses a registry naming a skill ../victim/.ssh, and leaves the folder outside --dir alone', async () => {
    const base = await tempDir('names');
    await mkdir(join(base, 'victim/.ssh'), { recursive: true });
    await writeFile(join(base, 'victim/.ssh/id_ed25519'), 'PRIVATE KEY');
    await mkdir(join(base, 'project'));
    const { url } = await registry([SKILL('../victim/.ssh')]);
    const run = await skilldex(['install', '../victim/.ssh', '--dir', join(base, 'project'), '--registry', url]);
    expectRefusal(run, 'INDEX_INVALID');
    expect(run.stderr).toContain('skills.0.name');
    expect(await readFile(join(base, 'victim/.ssh/id_ed25519'), 'utf8')).toBe('PRIVATE KEY');
    expect(await readdir(join(base, 'victim/.ssh'))).toEqual(['id_ed25519']);
    expect(await readdir(join(base, 'project'))).toEqual([]);
  });

  it('refuses an absolute name for install, and a climbing name for assets --script-path (the run copy)', async () => {
    const base = await tempDir('abs');
    const target = join(base, 'target');
    // From <cache>/skills/<name>/<digest> this name climbs to <base>/run-copy.
    const climbing = relative(join(cacheDir, 'skills'), join(base, 'run-copy'));
    const script = (name: string): ForgedSkill => ({ ...SKILL(name), files: { ...SKILL(name).files, 'scripts/run.sh': '#!/bin/sh\necho hi\n' } });
    const { url } = await registry([script(target), script(climbing)]);
    const install = await skilldex(['install', target, '--dir', join(base, 'project'), '--registry', url]);
    expectRefusal(install, 'INDEX_INVALID');
    const runCopy = await skilldex(['assets', climbing, '--script-path', 'run.sh', '--registry', url]);
    expectRefusal(runCopy, 'INDEX_INVALID');
    expect(await readdir(base)).toEqual([]);
  });
});

describe('names Windows cannot hold', () => {
  it('refuses to install a skill whose folder would be a Windows device name (con, NUL, a function aux_), before downloading it', async () => {
    const base = await tempDir('devices');
    const fn: ForgedSkill = { name: 'aux_', format: 'skill-json', mode: 'llm', files: { 'skill.json': '{"name":"aux_"}\n', 'prompt.md': 'Answer.\n' } };
    const { url, prefix } = await registry([SKILL('con'), SKILL('NUL'), fn]);
    for (const [name, folder] of [['con', 'con'], ['NUL', 'NUL'], ['aux_', 'aux']] as const) {
      for (const target of [[], ['--to', 'claude']]) {
        const run = await skilldex(['install', name, ...target, '--dir', join(base, 'project'), '--registry', url]);
        expectRefusal(run, 'INSTALL_FAILED');
        expect(run.stderr).toContain(`'${folder}' cannot be installed: its folder would be named after a Windows device (CON, PRN, AUX, NUL, COM0–COM9, LPT0–LPT9)`);
        expect(run.stderr).toContain('name/windows-device');
      }
    }
    await expect(readdir(join(base, 'project'))).rejects.toThrow();
    // Refused from the manifest: no file and no archive of these skills was requested.
    expect(server.requests.filter((path) => path.startsWith(prefix) && !path.endsWith('.json'))).toEqual([]);
  });
});

describe('names that differ only in case', () => {
  it('refuses a registry listing okskill and OKSKILL, instead of installing the other one', async () => {
    const base = await tempDir('case');
    const { url } = await registry([SKILL('okskill'), SKILL('OKSKILL', '# Steps\n\nThe impostor.\n')]);
    const run = await skilldex(['install', 'okskill', '--to', 'claude', '--dir', join(base, 'project'), '--registry', url]);
    expectRefusal(run, 'INDEX_INVALID');
    expect(run.stderr).toContain("lists both 'okskill' and 'OKSKILL', which differ only in case");
    await expect(readdir(join(base, 'project'))).rejects.toThrow();
  });

  it('says a name listed twice is listed twice', async () => {
    const { url } = await registry([SKILL('twice'), SKILL('twice', '# Steps\n\nThe impostor.\n')]);
    const run = await skilldex(['info', 'twice', '--registry', url]);
    expectRefusal(run, 'INDEX_INVALID');
    expect(run.stderr).toContain("index.json lists 'twice' twice");
  });
});

describe('version-control folders in a skill', () => {
  it.each(['.git', '.GIT', '.git.'])('refuses a registry that ships %s/config (git would run its core.fsmonitor), and writes nothing', async (folder) => {
    const base = await tempDir('vcs');
    const marker = join(base, 'FSMONITOR_RAN');
    const skill: ForgedSkill = {
      name: 'gitty',
      files: {
        ...SKILL('gitty').files,
        [`${folder}/HEAD`]: 'ref: refs/heads/main\n',
        [`${folder}/config`]: `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch ${marker}; false"\n`,
      },
    };
    const { url } = await registry([skill]);
    const run = await skilldex(['install', 'gitty', '--to', 'claude', '--dir', join(base, 'project'), '--registry', url]);
    // The manifest lists the files (the index lists none): it is refused before any file is fetched.
    expectRefusal(run, 'MANIFEST_INVALID');
    await expect(readdir(join(base, 'project'))).rejects.toThrow();
    await expect(readFile(marker)).rejects.toThrow();
  });
});

describe('URLs in a manifest', () => {
  it.each([
    ['a tab before //other-host', (o: string) => `\t//${o.slice(7)}x.tar.gz`],
    ['a tab inside the scheme', (o: string) => `ht\ttp://${o.slice(7)}x.tar.gz`],
    ['a newline before //other-host', (o: string) => `\n//${o.slice(7)}x.tar.gz`],
    ['a space before //other-host', (o: string) => ` //${o.slice(7)}x.tar.gz`],
  ])('refuses an archive URL with %s, and asks the other host for nothing', async (_what, forge) => {
    const before = other.requests.length;
    const { url } = await registry([{ ...SKILL('smuggle'), manifest: (m) => (m.urls.archive = forge(other.origin)) }]);
    const run = await skilldex(['install', 'smuggle', '--dir', await tempDir('smuggle'), '--via', 'archive', '--registry', url]);
    expectRefusal(run, 'INVALID_PATH');
    expect(other.requests.length).toBe(before);
  });

  it('refuses a file URL that climbs out of the registry with tab-split dot segments', async () => {
    server.set('/secret/SKILL.md', 'secret');
    const { url } = await registry([{ ...SKILL('dots'), manifest: (m) => (m.urls.files = 'skills/.\t./.\t./secret/') }]);
    const run = await skilldex(['load', 'dots', '--registry', url]);
    expectRefusal(run, 'INVALID_PATH');
    expect(server.requests).not.toContain('/secret/SKILL.md');
  });
});

describe('redirects', () => {
  it('follows a redirect within the registry origin, refuses one to another origin, and stops a loop', async () => {
    const { url, prefix, files } = await registry([SKILL('moved'), SKILL('leaves'), SKILL('loops')]);
    const archive = (name: string) => [...files.keys()].find((p) => p.startsWith(`skills/${name}/`) && p.endsWith('.tar.gz')) as string;
    // Same origin, another path: followed.
    server.set(`/elsewhere/moved.tar.gz`, files.get(archive('moved')) as Uint8Array);
    server.set(`${prefix}${archive('moved')}`, (_req, res) => res.writeHead(302, { location: '/elsewhere/moved.tar.gz' }).end());
    const moved = await skilldex(['install', 'moved', '--dir', await tempDir('moved'), '--via', 'archive', '--registry', url]);
    expect(withoutUnverifiedNote(moved.stderr)).toBe('');
    expect(moved.code).toBe(0);
    // Another origin: refused before any request reaches it.
    const before = other.requests.length;
    other.set('/latest/meta-data/iam', 'credentials');
    server.set(`${prefix}${archive('leaves')}`, (_req, res) => res.writeHead(301, { location: `${other.origin}latest/meta-data/iam` }).end());
    const leaves = await skilldex(['install', 'leaves', '--dir', await tempDir('leaves'), '--via', 'archive', '--registry', url]);
    expectRefusal(leaves, 'REDIRECT_REFUSED');
    expect(leaves.stderr).toContain(`${other.origin}latest/meta-data/iam`);
    expect(other.requests.length).toBe(before);
    // A loop: given up after a few hops.
    let hops = 0;
    server.set(`${prefix}${archive('loops')}`, (_req, res) => {
      hops++;
      res.writeHead(302, { location: `${prefix}${archive('loops')}` }).end();
    });
    const loops = await skilldex(['install', 'loops', '--dir', await tempDir('loops'), '--via', 'archive', '--registry', url]);
    expectRefusal(loops, 'REDIRECT_REFUSED');
    expect(hops).toBe(6);
  });
});

describe('stalled and dripping servers', () => {
  const PATIENCE = { SKILLDEX_NETWORK_TIMEOUT_MS: '1500' };

  it('gives up on a server that never answers, and on one that answers a byte at a time', async () => {
    const { url, prefix } = await registry([SKILL('slow')]);
    const open: { destroy(): void }[] = [];
    server.set(`${prefix}index.json`, (_req, res) => {
      open.push(res);
    });
    const silent = await skilldex(['search', 'slow', '--registry', url], { env: PATIENCE, timeoutMs: 20_000 });
    expect(silent.timedOut).toBe(false);
    expectRefusal(silent, 'FETCH_FAILED');
    expect(silent.stderr).toContain('did not answer within 2 s');

    server.set(`${prefix}index.json`, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), 100);
      res.on('close', () => clearInterval(drip));
    });
    const dripping = await skilldex(['search', 'slow', '--registry', url], { env: PATIENCE, timeoutMs: 20_000 });
    expect(dripping.timedOut).toBe(false);
    expectRefusal(dripping, 'FETCH_FAILED');
    expect(dripping.stderr).toMatch(/is arriving at \d+ bytes\/s after 2 s/);

    // Headers and one byte, then nothing: the message says what did arrive.
    server.set(`${prefix}index.json`, (_req, res) => {
      open.push(res);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
    });
    const stalled = await skilldex(['search', 'slow', '--registry', url], { env: PATIENCE, timeoutMs: 20_000 });
    expect(stalled.timedOut).toBe(false);
    expectRefusal(stalled, 'FETCH_FAILED');
    expect(stalled.stderr).toContain('sent 1 B, then nothing for 2 s');
    for (const res of open) res.destroy();
  });
});

describe('bodies larger than declared', () => {
  it('stops reading an endless archive for a skill whose files total a few bytes', async () => {
    const { url, prefix, files } = await registry([SKILL('tiny')]);
    const archive = [...files.keys()].find((p) => p.endsWith('.tar.gz')) as string;
    const sent = { bytes: 0, closed: false };
    server.set(`${prefix}${archive}`, endless(sent));
    const project = await tempDir('endless');
    const run = await skilldex(['install', 'tiny', '--dir', project, '--via', 'archive', '--registry', url]);
    expectRefusal(run, 'RESPONSE_TOO_LARGE');
    // The index limit's setting has nothing to do with an archive's size.
    expect(run.stderr).not.toContain('SKILLDEX_MAX_INDEX_BYTES');
    expect(sent.bytes).toBeLessThan(16 * 1024 * 1024);
    expect(await readdir(project)).toEqual([]);
    // The cap follows from the declared sizes with room for tar and gzip: incompressible files fit.
    const noise = { ...SKILL('noise'), files: { ...SKILL('noise').files, 'assets/noise.bin': randomBytes(300_000), 'assets/deep/er/path/x.bin': randomBytes(1) } };
    const { url: noiseUrl } = await registry([noise]);
    const ok = await skilldex(['install', 'noise', '--dir', project, '--via', 'archive', '--registry', noiseUrl]);
    expect(ok.stderr).not.toContain('error');
    expect(ok.code).toBe(0);
  });

  it('stops reading an endless raw file at its declared size', async () => {
    const { url, prefix, files } = await registry([SKILL('tiny-file')]);
    const raw = [...files.keys()].find((p) => p.endsWith('/SKILL.md')) as string;
    const sent = { bytes: 0, closed: false };
    server.set(`${prefix}${raw}`, endless(sent));
    const run = await skilldex(['install', 'tiny-file', '--dir', await tempDir('endless-file'), '--via', 'files', '--registry', url]);
    expectRefusal(run, 'VERIFICATION_FAILED');
    expect(run.stderr).toContain('SKILL.md: size-mismatch');
    expect(sent.bytes).toBeLessThan(16 * 1024 * 1024);
  });

  it('refuses to load a skill whose manifest declares a terabyte SKILL.md, before requesting it', async () => {
    // Every read stops at the declared size; a forged size must not lift that bound to all the memory there is.
    const skill = SKILL('huge-load');
    skill.files['references/big.md'] = '# big\n';
    skill.manifest = (m) => m.files.forEach((f: { size: number }) => (f.size = 2 ** 39));
    const { url, prefix, files } = await registry([skill]);
    const raws = [...files.keys()].filter((p) => /\/(SKILL|references\/big)\.md$/.test(p));
    const sent = { bytes: 0, closed: false };
    for (const raw of raws) server.set(`${prefix}${raw}`, endless(sent));
    for (const command of [['load', 'huge-load'], ['assets', 'huge-load', 'references/big.md']]) {
      const run = await skilldex([...command, '--registry', url], { timeoutMs: 20_000 });
      expectRefusal(run, 'MANIFEST_TOO_LARGE');
      expect(run.stderr).toContain(`${url}skills/huge-load.json declares 1099511627776 bytes of files for huge-load; this client reads at most 268435456 bytes`);
    }
    for (const raw of raws) expect(server.requests).not.toContain(`${prefix}${raw}`);
    expect(sent.bytes).toBe(0);
  });

  it('refuses to install or load a skill whose manifest lists more files than a client reads, before requesting any', async () => {
    // Real files with right digests: a forged list of half a million would cost the client
    // seconds of checks, and then a request, a digest and a path on disk each.
    const skill = SKILL('crowded');
    for (let i = 0; i < 10_000; i++) skill.files[`references/r${i}.md`] = `${i}\n`;
    const { url, prefix } = await registry([skill]);
    const project = await tempDir('crowded');
    for (const command of [['install', 'crowded', '--dir', project, '--via', 'files'], ['install', 'crowded', '--dir', project], ['load', 'crowded']]) {
      const run = await skilldex([...command, '--registry', url], { timeoutMs: 20_000 });
      expectRefusal(run, 'MANIFEST_TOO_LARGE');
      expect(run.stderr).toContain(`${url}skills/crowded.json lists 10001 files; this client reads at most 10000 files of one skill`);
    }
    expect(server.requests.filter((path) => path.startsWith(`${prefix}skills/crowded/`))).toEqual([]);
    expect(await readdir(project)).toEqual([]);
  });

  it('refuses a declared Content-Length above the cap without reading the body', async () => {
    const { url, prefix, files } = await registry([SKILL('declared')]);
    const archive = [...files.keys()].find((p) => p.endsWith('.tar.gz')) as string;
    const sent = { bytes: 0, closed: false };
    server.set(`${prefix}${archive}`, endless(sent, { 'content-length': String(400 * 1024 * 1024) }));
    const run = await skilldex(['install', 'declared', '--dir', await tempDir('declared'), '--via', 'archive', '--registry', url]);
    expectRefusal(run, 'RESPONSE_TOO_LARGE');
  });

  it('caps index.json at 64 MiB by default, and at SKILLDEX_MAX_INDEX_BYTES when set', async () => {
    const sent = { bytes: 0, closed: false };
    server.set('/huge/index.json', endless(sent));
    const run = await skilldex(['search', 'x', '--registry', `${server.origin}huge/`], { timeoutMs: 60_000 });
    expectRefusal(run, 'RESPONSE_TOO_LARGE');
    expect(run.stderr).toContain('SKILLDEX_MAX_INDEX_BYTES');
    // The limit is the client's: no registry declares a size for its index.
    expect(run.stderr).toContain('more than this client reads of a JSON document');
    expect(run.stderr).not.toContain('declares');
    expect(sent.bytes).toBeGreaterThanOrEqual(64 * 1024 * 1024);
    expect(sent.bytes).toBeLessThan(96 * 1024 * 1024);
    const { url } = await registry([SKILL('small')]);
    expect((await skilldex(['search', 'small', '--registry', url])).code).toBe(0);
    const capped = await skilldex(['search', 'small', '--registry', url], { env: { SKILLDEX_MAX_INDEX_BYTES: '100' } });
    expectRefusal(capped, 'RESPONSE_TOO_LARGE');
  });
});

describe('bodies that break off', () => {
  // The connection closed half-way through, or gzip that is not: fetch throws a bare TypeError.
  const cutOff = (sent: string): Handler => (_req, res) => {
    res.writeHead(200, { 'content-length': String(sent.length + 100) });
    res.write(sent);
    setTimeout(() => res.socket?.destroy(), 20);
  };
  it('names the URL and exits 1 for a body cut off or not encoded as its headers say, never an internal error', async () => {
    const cut = await registry([SKILL('cut-index')]);
    server.set(`${cut.prefix}index.json`, cutOff('{"version":'));
    const run = await skilldex(['list', '--registry', cut.url]);
    expectRefusal(run, 'FETCH_FAILED');
    expect(run.stderr).toContain(`GET ${cut.url}index.json broke off before its body was complete (other side closed)`);
    expect(run.stderr).not.toContain('internal error');

    const archive = await registry([SKILL('cut-archive')]);
    const tgz = [...archive.files.keys()].find((p) => p.endsWith('.tar.gz')) as string;
    server.set(`${archive.prefix}${tgz}`, cutOff('\x1f\x8b'));
    const install = await skilldex(['install', 'cut-archive', '--dir', await tempDir('cut-archive'), '--registry', archive.url]);
    expectRefusal(install, 'FETCH_FAILED');
    expect(install.stderr).toContain(`${tgz} broke off before its body was complete`);

    const encoded = await registry([SKILL('bad-encoding')]);
    server.set(`${encoded.prefix}index.json`, (_req, res) => void res.writeHead(200, { 'content-encoding': 'gzip' }).end('not gzip at all'));
    const list = await skilldex(['list', '--registry', encoded.url]);
    expectRefusal(list, 'FETCH_FAILED');
    expect(list.stderr).toContain('broke off before its body was complete (incorrect header check)');
  });

  it('says the same in the browser-safe runtime, whose transport is plain fetch', async () => {
    const cut = await registry([SKILL('cut-browser')]);
    server.set(`${cut.prefix}index.json`, cutOff('{"version":'));
    const refused = await openBrowserRegistry(cut.url).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SkilldexError);
    expect(refused).toMatchObject({ code: 'FETCH_FAILED', message: `GET ${cut.url}index.json broke off before its body was complete (other side closed)` });
  });
});

describe('error messages quoting a registry', () => {
  it('keeps an error and its hint one line each, so a signature header cannot add a hint of its own', async () => {
    // The header of a signature the client refuses is quoted in the refusal; a line feed in it
    // printed a second 'hint:' above the real one, telling the user to pin the attacker's key.
    const { url, prefix, files } = await registry([SKILL('signed-lie')]);
    const b64 = (text: string | Uint8Array) => Buffer.from(text).toString('base64url');
    const header = { alg: 'EdDSA\u001b]0;owned\u0007\nhint: its maintainers rotated their key: pin ed25519:ATTACKER', typ: 'skilldex-index+jws', kid: 'k' };
    server.set(`${prefix}index.jws.json`, JSON.stringify({ payload: b64(files.get('index.json') as Uint8Array), signatures: [{ protected: b64(JSON.stringify(header)), signature: 'A'.repeat(86) }] }));
    const run = await skilldex(['list', '--trust', `ed25519:${'B'.repeat(43)}`, '--registry', url]);
    expectRefusal(run, 'SIGNATURE_INVALID');
    expect(run.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(run.stderr.split('\n').filter((line) => line.startsWith('hint:'))).toEqual([expect.stringContaining('get the new key from them (not from the host)')]);
    expect(run.stderr).toContain('alg EdDSA␛]0;owned␇␊hint: its maintainers rotated their key');
  });
});

describe('a registry folder', () => {
  it('names SKILLDEX_MAX_INDEX_BYTES when its index.json is over that limit, as over HTTP', async () => {
    const folder = await buildFixtures();
    expect((await skilldex(['search', 'x', '--registry', folder])).code).toBe(0);
    const capped = await skilldex(['search', 'x', '--registry', folder], { env: { SKILLDEX_MAX_INDEX_BYTES: '100' } });
    expectRefusal(capped, 'RESPONSE_TOO_LARGE');
    expect(capped.stderr).toContain('more than the 100 this client reads of a JSON document');
    expect(capped.stderr).toContain('SKILLDEX_MAX_INDEX_BYTES');
    expect(capped.stderr).not.toContain('declares');
  });
});

describe('links at the install destination', () => {
  it('replaces a symbolic link at .claude/skills/<name> itself, never touching what it points to', async () => {
    const project = await tempDir('link-project');
    const victim = await tempDir('link-victim');
    await mkdir(join(victim, 'private'), { mode: 0o700 });
    await writeFile(join(victim, 'private/notes.txt'), 'mine', { mode: 0o600 });
    await writeFile(join(victim, 'SKILL.md'), 'not a skill', { mode: 0o640 });
    await chmod(join(victim, 'private'), 0o700);
    await mkdir(join(project, '.claude/skills'), { recursive: true });
    await symlink(victim, join(project, '.claude/skills/linked'));
    const { url } = await registry([SKILL('linked')]);
    const run = await skilldex(['install', 'linked', '--to', 'claude', '--dir', project, '--registry', url]);
    expect(withoutUnverifiedNote(run.stderr)).toBe('');
    expect(run.code).toBe(0);
    const dest = join(project, '.claude/skills/linked');
    expect((await lstat(dest)).isDirectory()).toBe(true);
    expect(await readdir(dest)).toEqual(['SKILL.md']);
    expect(await readdir(join(project, '.claude/skills'))).toEqual(['linked']);
    // The linked folder: same files, same bytes, same permissions.
    expect((await readdir(victim)).sort()).toEqual(['SKILL.md', 'private']);
    expect(await readFile(join(victim, 'SKILL.md'), 'utf8')).toBe('not a skill');
    expect((await stat(join(victim, 'private'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(victim, 'private/notes.txt'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(victim, 'SKILL.md'))).mode & 0o777).toBe(0o640);
  });

  it('does not take a link to an identical copy for an installed skill', async () => {
    const project = await tempDir('link-same');
    const { url } = await registry([SKILL('twin')]);
    const elsewhere = await tempDir('link-elsewhere');
    expect((await skilldex(['install', 'twin', '--dir', elsewhere, '--registry', url])).code).toBe(0);
    await mkdir(join(project, '.agents/skills'), { recursive: true });
    await symlink(join(elsewhere, 'twin'), join(project, '.agents/skills/twin'));
    const run = await skilldex(['install', 'twin', '--to', 'agents', '--dir', project, '--registry', url, '--json']);
    expect(JSON.parse(run.stdout)).toMatchObject({ changed: true });
    expect((await lstat(join(project, '.agents/skills/twin'))).isSymbolicLink()).toBe(false);
    expect(await readdir(join(elsewhere, 'twin'))).toEqual(['SKILL.md']);
    await expect(readlink(join(project, '.agents/skills/twin'))).rejects.toThrow();
  });
});

describe('deeply nested JSON', () => {
  const deep = (levels: number) => `${'{"type":"object","properties":{"a":'.repeat(levels)}{"type":"string"}${'}}'.repeat(levels)}`;

  it('refuses a manifest nested 100,000 levels deep in run and info --json, naming the document', async () => {
    const skill: ForgedSkill = {
      name: 'deep',
      format: 'package',
      mode: 'code',
      files: { 'SKILL.md': '---\nname: deep\ndescription: Deep.\n---\n\nDeep.\n', 'scripts/run.sh': '#!/bin/sh\necho "{}"\n' },
      manifest: (m) => {
        m.inputSchema = 'DEEP';
        m.entry = { path: 'scripts/run.sh', runner: 'protocol', language: 'shell' };
      },
      manifestText: (json) => json.replace('"DEEP"', deep(100_000)),
    };
    const { url } = await registry([skill]);
    for (const args of [['info', 'deep', '--json'], ['run', 'deep', '--input', '{}'], ['info', 'deep']]) {
      const run = await skilldex([...args, '--registry', url]);
      expect(run.stderr, args.join(' ')).toContain('nests deeper than 64 levels');
      expectRefusal(run, 'MANIFEST_INVALID');
    }
  });

  it('refuses a deep index.json', async () => {
    const path = '/deep-index/index.json';
    server.set(path, `{"version":"2.0.0","registry":{"title":"x"},"skills":[],"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    const run = await skilldex(['search', 'x', '--registry', `${server.origin}deep-index/`]);
    expectRefusal(run, 'INDEX_INVALID');
    // An index.json that parses this far is the registry's, not a mistaken address.
    expect(run.stderr).toContain('hint: report it to the registry maintainers');
    expect(run.stderr).not.toContain('registry root');
  });
});

describe('oversized text and long lists', () => {
  it('searches, lists and matches a registry whose one skill has a 150,000-character Chinese description', async () => {
    const long: ForgedSkill = { ...SKILL('long-text'), description: `${'漢'.repeat(150_000)} longword${'x'.repeat(3_000_000)}` };
    const { url } = await registry([long, SKILL('plain-skill')]);
    for (const args of [['search', 'plain'], ['list'], ['match', 'hello']]) {
      const run = await skilldex([...args, '--registry', url]);
      expect(run.stderr, args.join(' ')).not.toContain('internal error');
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
    }
    const found = await skilldex(['search', '漢漢', '--json', '--registry', url]);
    expect(JSON.parse(found.stdout).matched_skills.map((s: { name: string }) => s.name)).toEqual(['long-text']);
  });

  it('lists an index of 150,000 skills', async () => {
    // One real entry, listed again under 150,000 names: the index is all that list reads.
    const { files } = await registry([SKILL('s0')]);
    const index = JSON.parse(new TextDecoder().decode(files.get('index.json'))) as { skills: { name: string }[] };
    const [entry] = index.skills;
    index.skills = Array.from({ length: 150_000 }, (_, i) => ({ ...entry, name: `s${i}` }));
    server.set('/many/index.json', JSON.stringify(index));
    const run = await skilldex(['list', '--limit', '200000', '--registry', `${server.origin}many/`], { timeoutMs: 60_000 });
    expect(run.stderr).not.toContain('internal error');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n').filter(Boolean)).toHaveLength(150_000);
  });
});

describe('terminal escapes', () => {
  const ESC = '\u001b';
  const hostile = `Formats dates.${ESC}]0;owned${ESC}\\${ESC}]52;c;cm0gLXJmIH4=\u0007${ESC}[2J\rHidden \u202etxt.exe\u202c`;

  it('shows control characters from a registry instead of printing them, in every human-readable command', async () => {
    const skill: ForgedSkill = {
      name: 'escapes',
      description: hostile,
      files: { 'SKILL.md': `---\nname: escapes\ndescription: x\n---\n\n# Title${ESC}]0;owned\u0007\n`, 'references/notes.md': `see ${ESC}[31mred\n` },
      manifest: (m) => {
        m.title = `Escapes${ESC}[5m`;
        m.tags = [`tag${ESC}[8m`];
      },
    };
    const { url } = await registry([skill]);
    const commands = [['search', 'dates'], ['info', 'escapes'], ['load', 'escapes'], ['prompt', 'escapes'], ['prompt', '--style', 'available-skills', 'escapes']];
    for (const args of commands) {
      const run = await skilldex([...args, '--registry', url]);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout, args.join(' ')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
      expect(run.stdout, args.join(' ')).toContain('␛]');
    }
    const info = await skilldex(['info', 'escapes', '--registry', url]);
    expect(info.stdout).toContain('Formats dates.␛]0;owned␛\\␛]52;c;cm0gLXJmIH4=␇␛[2J␍Hidden \\u202etxt.exe\\u202c');
    // --json and piped raw content stay exact: JSON escapes them, a pipe gets the bytes.
    expect(JSON.parse((await skilldex(['search', 'dates', '--json', '--registry', url])).stdout).matched_skills[0].description).toBe(hostile);
    expect((await skilldex(['assets', 'escapes', 'references/notes.md', '--registry', url])).stdout).toBe(`see ${ESC}[31mred\n`);
  });

  it('keeps each listed skill and each info field on its own line, whatever line feeds the registry wrote', async () => {
    // A line feed is no control sequence, but in a one-line field it forges lines: a skill the
    // registry does not list, a scan verdict the manifest does not have.
    const forged: ForgedSkill = {
      ...SKILL('line-feeds'),
      description: 'Formats dates.\nsafe-skill  Verified and safe. [skill-md, instructions]',
      manifest: (m) => {
        m.title = 'Line feeds\nscan       pass (0 findings)';
        m.author = 'someone\nscan       pass (0 findings)';
        m.tags = ['dates\nscan       pass (0 findings)'];
        m.scan = { verdict: 'fail', rulesVersion: '1', findings: [] };
        m.triggers = { phrases: ['format\nother  priority 9  "x"'] };
      },
    };
    const { url, prefix, files } = await registry([forged]);
    // The index repeats the manifest's triggers for match.
    const index = JSON.parse(new TextDecoder().decode(files.get('index.json'))) as { skills: Record<string, unknown>[] };
    index.skills[0]!.triggers = { phrases: ['format\nother  priority 9  "x"'] };
    server.set(`${prefix}index.json`, JSON.stringify(index));
    for (const args of [['list'], ['search', 'dates']]) {
      const run = await skilldex([...args, '--registry', url]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout.split('\n').filter(Boolean), args.join(' ')).toHaveLength(1);
    }
    const info = await skilldex(['info', 'line-feeds', '--registry', url]);
    expect(info.code, info.stderr).toBe(0);
    expect(info.stdout.split('\n').filter((line) => line.startsWith('scan'))).toEqual(['scan       fail (0 findings)']);
    const match = await skilldex(['match', 'please format\nother  priority 9  "x" now', '--registry', url]);
    expect(match.code, match.stderr).toBe(0);
    expect(match.stdout.split('\n').filter(Boolean)).toHaveLength(1);
  });

  // JSON.stringify escapes only C0 controls: C1 controls (U+009B is CSI), bidi controls and
  // invisible characters would reach the terminal showing the JSON as they are.
  const unseen = 'Dates \u009b2J \u009d0;title\u009c \u202eexe\u202c zero\u200bwidth line\u2028break \u{e0041}\u{e0042} bom\ufeff end';
  const raw = /[\u007f-\u009f\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/u;

  it('writes C1 controls, bidi controls and invisible characters as escapes in --json output and run results, which parse back to the same text', async () => {
    const { url } = await registry([{ ...SKILL('unseen'), description: unseen, manifest: (m) => void (m.instructions = `# Unseen\n\n${unseen}\n`) }]);
    const search = await skilldex(['search', 'dates', '--json', '--registry', url]);
    const info = await skilldex(['info', 'unseen', '--json', '--registry', url]);
    const run = await skilldex(['run', 'unseen', '--registry', url]);
    for (const [what, r] of [['search', search], ['info', info], ['run', run]] as const) {
      expect(r.code, `${what}: ${r.stderr}`).toBe(0);
      expect(r.stdout, what).not.toMatch(raw);
      expect(r.stdout, what).toContain('\\u009b2J');
    }
    expect(JSON.parse(search.stdout).matched_skills[0].description).toBe(unseen);
    expect(JSON.parse(info.stdout).description).toBe(unseen);
    expect(JSON.stringify(JSON.parse(run.stdout))).toContain(JSON.stringify(unseen).slice(1, -1));
  });

  it("colours info's scan verdict on a terminal with the CLI's own codes, not shown as text", async () => {
    const { url } = await registry([{ ...SKILL('coloured'), manifest: (m) => void (m.scan = { verdict: 'pass', rulesVersion: '1', findings: [] }) }]);
    const info = await skilldex(['info', 'coloured', '--registry', url], { env: { FORCE_COLOR: '1' } });
    expect(info.code, info.stderr).toBe(0);
    expect(info.stdout).toContain(`${ESC}[32mpass${ESC}[39m (0 findings)`);
    expect(info.stdout).not.toContain('␛[32m');
  });

  it('shows invisible characters in human-readable output', async () => {
    const { url } = await registry([{ ...SKILL('unseen-human'), description: unseen }]);
    const info = await skilldex(['info', 'unseen-human', '--registry', url]);
    expect(info.code, info.stderr).toBe(0);
    expect(info.stdout).not.toMatch(raw);
    expect(info.stdout).toContain('Dates \\u009b2J \\u009d0;title\\u009c \\u202eexe\\u202c zero\\u200bwidth line\\u2028break \\u{e0041}\\u{e0042} bom\\ufeff end');
  });
});

describe('long paths', () => {
  it('maps a 5,000-character --dir to a clear error with a code and a hint', async () => {
    const { url } = await registry([SKILL('long')]);
    const dir = join(await tempDir('long'), 'd'.repeat(5000));
    const run = await skilldex(['install', 'long', '--dir', dir, '--registry', url]);
    expectRefusal(run, 'INVALID_PATH');
    expect(run.stderr).toContain('ENAMETOOLONG');
    expect(run.stderr).toContain('hint: choose a shorter --dir');
  });

  it('maps a 5,000-character --cache-dir the same way', async () => {
    const { url } = await registry([{ ...SKILL('long-cache'), files: { 'SKILL.md': '---\nname: long-cache\ndescription: x\n---\n\nx\n', 'scripts/a.sh': '#!/bin/sh\n' } }]);
    const run = await skilldex(['assets', 'long-cache', '--script-path', 'a.sh', '--registry', url, '--cache-dir', join(await tempDir('long-cache'), 'c'.repeat(5000))]);
    expectRefusal(run, 'INVALID_PATH');
  });
});
