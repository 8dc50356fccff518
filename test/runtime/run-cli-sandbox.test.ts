import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmod, chown, mkdir, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtures, REPO_ROOT, tempDir } from './_registries.ts';
import { processesWith } from './_processes.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';

/** `skilldex run` as a user starts it: the real CLI process, signals and all. */
let server: StaticServer;
let cacheDir: string;

beforeAll(async () => {
  server = await serveDirectory(await buildFixtures());
  cacheDir = await tempDir('cli-sandbox-cache');
});
afterAll(() => server.close());

interface Cli {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
  stderrSoFar(): string;
}

/**
 * The checkout as another user reaches it. A clone made inside `mktemp -d` sits below a 0700
 * folder that `nobody` cannot pass, so the CLI, its sources, its dependencies and the Node binary
 * are then hard-linked (copied across file systems) into a world-readable folder.
 */
async function checkoutFor(uid: number): Promise<{ root: string; node: string }> {
  const reachable = (path: string) => spawnSync('setpriv', [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--', 'test', '-r', path]).status === 0;
  if (reachable(join(REPO_ROOT, 'bin/skilldex.mjs')) && reachable(process.execPath)) return { root: REPO_ROOT, node: process.execPath };
  const root = await tempDir('cli-checkout');
  await chmod(root, 0o755);
  for (const part of ['bin', 'src', 'package.json', 'node_modules']) {
    try {
      execFileSync('cp', ['-al', join(REPO_ROOT, part), root]);
    } catch {
      execFileSync('cp', ['-a', join(REPO_ROOT, part), root]);
    }
  }
  const inside = relative(REPO_ROOT, process.execPath);
  return { root, node: inside.startsWith('..') ? process.execPath : join(root, inside) };
}

function skilldex(args: string[], env: Record<string, string> = {}, asUser?: number, checkout = { root: REPO_ROOT, node: process.execPath }): Cli {
  const argv = [checkout.node, join(checkout.root, 'bin/skilldex.mjs'), 'run', ...args];
  // setpriv (util-linux) drops to another uid, so the sandbox is also proven without root.
  const command = asUser === undefined ? argv : ['setpriv', `--reuid=${asUser}`, `--regid=${asUser}`, '--clear-groups', '--', ...argv];
  const child = spawn(command[0] as string, command.slice(1), {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', SKILLDEX_REGISTRY: server.url, SKILLDEX_CACHE_DIR: cacheDir, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c) => (stdout += c));
  child.stderr?.on('data', (c) => (stderr += c));
  child.stdin?.end();
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done, stderrSoFar: () => stderr };
}

async function until(condition: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('skilldex run confines the skill', () => {
  it("keeps the caller's secrets out of reach of /proc/<ppid>/environ", async () => {
    const secrets = { OPENAI_API_KEY: 'sk-proj-cli-sandbox-0123456789', AWS_SECRET_ACCESS_KEY: 'aws-cli-sandbox-secret-abcdef' };
    const confined = await skilldex(['escape-artist', '--action', 'attempt'], secrets).done;
    expect(confined.code).toBe(0);
    expect(JSON.parse(confined.stdout).status).toBe('success');
    expect(confined.stdout).not.toContain(secrets.OPENAI_API_KEY);
    expect(confined.stdout).not.toContain(secrets.AWS_SECRET_ACCESS_KEY);
    // Control: unconfined, the script reads them from its parent's /proc entry.
    const unconfined = await skilldex(['escape-artist', '--action', 'attempt', '--unsandboxed'], secrets).done;
    expect(unconfined.stdout).toContain(secrets.OPENAI_API_KEY);
    expect(unconfined.stdout).toContain(secrets.AWS_SECRET_ACCESS_KEY);
  });

  for (const [signal, exitCode] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    it(`${signal} ends the skill and every process it started, and removes its run folder`, async () => {
      const tmp = await tempDir(`cli-${signal}`);
      const tag = `${Date.now()}${exitCode}`;
      const cli = skilldex(['sleeper', '--input', JSON.stringify({ tag }), '--timeout', '60000'], { TMPDIR: tmp });
      await until(() => cli.stderrSoFar().includes('started'), 'the sleeper to start');
      // The background sleep, the setsid one and the foreground one.
      await until(() => processesWith(`60.${tag}`).length === 3, 'all three sleeps');
      expect((await readdir(tmp)).filter((f) => f.startsWith('skilldex-run-'))).toHaveLength(1);
      cli.child.kill(signal);
      const result = await cli.done;
      expect(result.code).toBe(exitCode);
      expect(JSON.parse(result.stdout).error.code).toBe('CANCELLED');
      await until(() => processesWith(`60.${tag}`).length === 0, 'the sleeps to end', 2_000);
      expect((await readdir(tmp)).filter((f) => f.startsWith('skilldex-run-'))).toEqual([]);
    });
  }

  it('confines the skill the same way for an unprivileged user', async () => {
    // As root, the run drops to nobody; as anyone else, the test already is unprivileged.
    const uid = process.getuid?.() === 0 ? 65534 : undefined;
    const home = await tempDir('cli-unprivileged');
    for (const dir of ['cache', 'tmp']) {
      await mkdir(join(home, dir));
      if (uid !== undefined) await chown(join(home, dir), uid, uid);
    }
    if (uid !== undefined) await chown(home, uid, uid);
    // The system python3: a pyenv install under /root is not readable by nobody.
    const env = { PATH: '/usr/bin:/bin', HOME: home, TMPDIR: join(home, 'tmp'), SKILLDEX_CACHE_DIR: join(home, 'cache'), OPENAI_API_KEY: 'sk-proj-unprivileged-0123456789' };
    const checkout = uid === undefined ? undefined : await checkoutFor(uid);
    const result = await skilldex(['escape-artist', '--action', 'attempt', '--input', '{"alloc_mb": 512, "connect": 9}'], env, uid, checkout).done;
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout).output as { uid: number; pids: string[]; connect: string; alloc: string };
    expect(report.uid).toBe(65534);
    expect(report.pids.length).toBeLessThanOrEqual(3);
    expect(report.connect).toMatch(/^error: /);
    expect(report.alloc).toMatch(/^error: MemoryError/);
    expect(result.stdout).not.toContain(env.OPENAI_API_KEY);
  });

  it('refuses without bubblewrap, saying how to install it; --unsandboxed runs unconfined', async () => {
    const bin = await tempDir('cli-no-bwrap');
    await mkdir(join(bin, 'bin'));
    const refused = await skilldex(['sleeper', '--input', '{"tag": "1"}'], { PATH: join(bin, 'bin') }).done;
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error.code).toBe('SANDBOX_UNAVAILABLE');
    expect(refused.stderr).toContain('bwrap (bubblewrap) is not on PATH');
    expect(refused.stderr).toContain('hint: install bubblewrap (Debian/Ubuntu: sudo apt-get install bubblewrap');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
  });

  it('rejects a --timeout beyond ten minutes as a usage error', async () => {
    const result = await skilldex(['sleeper', '--timeout', '3600000']).done;
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--timeout must be a whole number of milliseconds from 1 to 600000');
  });
});
