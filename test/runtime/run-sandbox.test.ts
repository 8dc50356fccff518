import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeRegistry, openRegistry } from '../../src/runtime/node/index.ts';
import { createRunSandbox } from '../../src/runtime/node/run-sandbox.ts';
import { buildFixtures, buildInto, FIXTURE_ROOT, tempDir } from './_registries.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';

/**
 * The sandbox against real scripts that try to escape: a Python script, a Node script and Node
 * modules, each reading the caller's secrets, files outside their folder, a local TCP port, and
 * more memory than their policy allows. Each escape is also shown to work unconfined, so every
 * assertion here fails without the sandbox.
 */

let server: StaticServer;
let registry: NodeRegistry;
/** A TCP listener on 127.0.0.1 that counts connections: the target of every network escape. */
let listener: Server;
let port: number;
let connections = 0;
/** A file outside every skill folder, standing for the user's data. */
let privateFile: string;
let outsideDir: string;

const SECRET = 'sk-proj-sandbox-test-0123456789';
const AWS_SECRET = 'aws-secret-sandbox-test-abcdef';

beforeAll(async () => {
  server = await serveDirectory(await buildFixtures());
  registry = await openRegistry(server.url, { cacheDir: await tempDir('cache') });
  listener = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;
  outsideDir = await tempDir('outside');
  privateFile = join(outsideDir, 'private.txt');
  await writeFile(privateFile, 'private data of the user');
});
afterAll(async () => {
  await server.close();
  await new Promise((resolve) => listener.close(resolve));
});

interface Report {
  env: Record<string, string>;
  cwd: string;
  environs: Record<string, string>;
  pids: string[];
  read: Record<string, string>;
  write: Record<string, string>;
  connect?: string;
  alloc?: string;
}

async function attempt(skill: string, params: Record<string, unknown>, options: { unsandboxed?: boolean } = {}): Promise<Report> {
  const outcome = await registry.run(skill, params, { action: 'attempt', ...options });
  expect(outcome.error).toBeUndefined();
  return outcome.output as Report;
}

/** Sets secrets in the runner's own environment for the duration of `work`. */
async function withSecrets<T>(work: () => Promise<T>): Promise<T> {
  process.env.OPENAI_API_KEY = SECRET;
  process.env.AWS_SECRET_ACCESS_KEY = AWS_SECRET;
  try {
    return await work();
  } finally {
    delete process.env.OPENAI_API_KEY;
    delete process.env.AWS_SECRET_ACCESS_KEY;
  }
}

describe('a Python script under a strict declared policy', () => {
  // The /proc secret theft itself is tested through the CLI (run-cli-sandbox.test.ts): /proc shows
  // a process's environment as it started, so the secret must be there from the runner's start.
  it('sees no other process: its own PID namespace and /proc', async () => {
    const report = await attempt('escape-artist', {});
    // The sandbox's init and the script, nothing of the host.
    expect(report.pids.length).toBeLessThanOrEqual(3);
    expect(report.pids).not.toContain(String(process.pid));
    expect(Object.values(report.environs).join('\n')).not.toContain(String(process.env.PATH));
    const unconfined = await attempt('escape-artist', {}, { unsandboxed: true });
    expect(unconfined.pids).toContain(String(process.pid));
  });

  it('gets exactly the declared environment variables', async () => {
    const report = await withSecrets(() => attempt('escape-artist', {}));
    expect(report.env.GREETING).toBe('hello from the policy');
    expect(report.env.OPENAI_API_KEY).toBeUndefined();
    expect(report.env.HOME).toBe('/work');
  });

  it('cannot read or write outside its folder, and under filesystem: none cannot write at all', async () => {
    const target = join(outsideDir, 'escaped-python.txt');
    const report = await attempt('escape-artist', { read: [privateFile, '/etc/passwd', '/root/.bashrc'], write: [target, '/work/x', '/tmp/x', '/skill/x', '/x', '/dev/shm/x'] });
    for (const path of [privateFile, '/etc/passwd', '/root/.bashrc']) expect(report.read[path]).toMatch(/^error: FileNotFoundError/);
    for (const path of [target, '/work/x', '/tmp/x', '/skill/x', '/x', '/dev/shm/x']) expect(report.write[path]).toMatch(/^error: (OSError|PermissionError|FileNotFoundError)/);
    expect(existsSync(target)).toBe(false);
    const unconfined = await attempt('escape-artist', { read: [privateFile], write: [target] }, { unsandboxed: true });
    expect(unconfined.read[privateFile]).toBe('private data of the user');
    expect(existsSync(target)).toBe(true);
  });

  it('cannot connect to a local port under network: none', async () => {
    const before = connections;
    const report = await attempt('escape-artist', { connect: port });
    expect(report.connect).toMatch(/^error: /);
    expect(connections).toBe(before);
    expect((await attempt('escape-artist', { connect: port }, { unsandboxed: true })).connect).toBe('ok');
  });

  it('cannot allocate 512 MB under memory_mb: 64', async () => {
    const report = await attempt('escape-artist', { alloc_mb: 512 });
    expect(report.alloc).toMatch(/^error: MemoryError/);
    expect((await attempt('escape-artist', { alloc_mb: 512 }, { unsandboxed: true })).alloc).toBe(`ok: ${512 * 1024 * 1024} bytes`);
  });
});

describe('the sandbox process itself', () => {
  it('starts bwrap with none of the skill\'s variables: a declared variable applies inside only', async () => {
    // Without the default limits, whose shell would stand before the script (test/runtime/run-default-limits.test.ts).
    const sandbox = await createRunSandbox(await tempDir('skill'), { policy: { environment: { GREETING: 'hello' } }, language: 'shell', defaultMemoryMb: 0, maxProcesses: 0 });
    try {
      const plan = sandbox.plan('shell', '/skill/run.sh');
      expect(plan.env).toEqual({ PATH: '/usr/bin:/bin' });
      // bwrap's own options come through a pipe, not its command line (test/runtime/sandbox-cmdline.test.ts).
      expect(plan.args).toEqual(['--args', '4', '--', '/bin/sh', '/skill/run.sh']);
      expect(plan.argsOnFd?.fd).toBe(4);
      expect(plan.argsOnFd?.args.join(' ')).toContain('--clearenv');
      expect(plan.argsOnFd?.args.join(' ')).toContain('--setenv GREETING hello');
    } finally {
      await sandbox.dispose();
    }
  });

  it('is not set up at all for a declared LD_PRELOAD, which would load a library into the interpreter', async () => {
    const refused = createRunSandbox(await tempDir('skill'), { policy: { environment: { LD_PRELOAD: '/skill/evil.so' } }, language: 'shell' });
    await expect(refused).rejects.toMatchObject({ code: 'PERMISSION_DENIED', message: expect.stringContaining('"LD_PRELOAD"') });
  });
});

describe('a permissive declared policy', () => {
  it('gets a writable work folder and /tmp, but still nothing of the host', async () => {
    const target = join(outsideDir, 'escaped-open-door.txt');
    const report = await attempt('open-door', { read: [privateFile], write: ['/work/x', '/tmp/x', target, '/skill/x'] });
    expect(report.write['/work/x']).toBe('ok');
    expect(report.write['/tmp/x']).toBe('ok');
    expect(report.write[target]).toMatch(/^error: /);
    expect(report.write['/skill/x']).toMatch(/^error: /);
    expect(report.read[privateFile]).toMatch(/^error: FileNotFoundError/);
    expect(existsSync(target)).toBe(false);
  });
});

describe('a declared network allowlist', () => {
  let web: HttpServer;
  let webPort: number;
  let otherPort: number;
  let requests: string[];
  let allowlisted: NodeRegistry;

  beforeAll(async () => {
    requests = [];
    web = createHttpServer((req, res) => {
      requests.push(`${req.headers.host} ${req.url}`);
      // An answer Node's HTTP client reads but its server will not write: a status below 100.
      if (req.url === '/status-99') return void res.socket?.end('HTTP/1.1 099 Odd\r\ncontent-length: 2\r\n\r\nhi');
      // A body cut off half-way: the connection drops after 7 of 100,000 bytes.
      if (req.url === '/cut-off') {
        res.writeHead(200, { 'content-length': '100000' }).write('partial');
        return void setTimeout(() => res.socket?.destroy(), 100);
      }
      res.end('hello through the proxy');
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    webPort = (web.address() as AddressInfo).port;
    otherPort = port;
    // A registry whose skill allowlists exactly this server's origin.
    const root = await tempDir('allowlist-repo');
    await mkdir(join(root, 'skills/allowed-fetch/scripts'), { recursive: true });
    await writeFile(
      join(root, 'skills/allowed-fetch/SKILL.md'),
      ['---', 'name: allowed-fetch', 'description: Test fixture. Fetches URLs under a network allowlist naming one local origin.', 'version: 1.0.0', 'actions:', '  - name: attempt', 'security:', '  network: allowlist', '  network_allowlist:', `    - http://127.0.0.1:${webPort}`, 'resources:', '  entry: ./scripts/attempt.py', '---', '', '# Allowed fetch', '', 'Reports what it could reach.', ''].join('\n'),
    );
    await copyFile(join(FIXTURE_ROOT, 'skills/open-door/scripts/attempt.py'), join(root, 'skills/allowed-fetch/scripts/attempt.py'));
    const served = await serveDirectory(await buildInto(root, 'allowlist'));
    allowlistServer = served;
    allowlisted = await openRegistry(served.url, { cacheDir: await tempDir('allowlist-cache') });
  });
  let allowlistServer: StaticServer | undefined;
  afterAll(async () => {
    await allowlistServer?.close();
    await new Promise((resolve) => web.close(resolve));
  });

  it('reaches the listed origin through the filtering proxy, and nothing else', async () => {
    const before = connections;
    const outcome = await allowlisted.run('allowed-fetch', { fetch: [`http://127.0.0.1:${webPort}/ok`, `http://127.0.0.1:${otherPort}/not-listed`], connect: webPort }, { action: 'attempt' });
    const report = outcome.output as Report & { fetch: Record<string, string> };
    expect(report.fetch[`http://127.0.0.1:${webPort}/ok`]).toBe('200 hello through the proxy');
    expect(report.fetch[`http://127.0.0.1:${otherPort}/not-listed`]).toMatch(/^403 skilldex: 127\.0\.0\.1:\d+ is not in this skill's network_allowlist/);
    // Raw sockets have no route at all: only HTTP(S) through the proxy leaves the sandbox.
    expect(report.connect).toMatch(/^error: /);
    expect(requests).toEqual([`127.0.0.1:${webPort} /ok`]);
    expect(connections).toBe(before);
  });

  it('answers 502 for a listed server whose answer it cannot pass on, and keeps serving', async () => {
    const outcome = await allowlisted.run('allowed-fetch', { fetch: [`http://127.0.0.1:${webPort}/status-99`, `http://127.0.0.1:${webPort}/ok`] }, { action: 'attempt' });
    const report = outcome.output as Report & { fetch: Record<string, string> };
    expect(report.fetch[`http://127.0.0.1:${webPort}/status-99`]).toMatch(/^502 skilldex: 127\.0\.0\.1:\d+ answered what the proxy cannot pass on: .*status code: 99/);
    expect(report.fetch[`http://127.0.0.1:${webPort}/ok`]).toBe('200 hello through the proxy');
  });

  it('drops the skill\'s connection when the listed server drops its own half-way through a body', async () => {
    const started = Date.now();
    const outcome = await allowlisted.run('allowed-fetch', { fetch: [`http://127.0.0.1:${webPort}/cut-off`] }, { action: 'attempt' });
    const report = outcome.output as Report & { fetch: Record<string, string> };
    // Not the fixture's own 5 s read timeout: the cut reaches the skill at once.
    expect(report.fetch[`http://127.0.0.1:${webPort}/cut-off`]).toMatch(/^error: IncompleteRead/);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('tunnels CONNECT (how HTTPS travels) to the listed origin only', async () => {
    requests.length = 0;
    const before = connections;
    const outcome = await allowlisted.run('allowed-fetch', { tunnel: [`127.0.0.1:${webPort}`, `127.0.0.1:${otherPort}`] }, { action: 'attempt' });
    const report = outcome.output as Report & { tunnel: Record<string, string> };
    expect(report.tunnel[`127.0.0.1:${webPort}`]).toBe('200 hello through the proxy');
    expect(report.tunnel[`127.0.0.1:${otherPort}`]).toMatch(/^error: OSError: Tunnel connection failed: 403/);
    expect(requests).toEqual([`127.0.0.1:${webPort} /tunnel`]);
    expect(connections).toBe(before);
  });

  it('gives open-door, which lists only port 80, no way to this test server', async () => {
    const before = connections;
    const report = (await attempt('open-door', { connect: port, fetch: [`http://127.0.0.1:${port}/`] })) as Report & { fetch: Record<string, string> };
    expect(report.connect).toMatch(/^error: /);
    expect(report.fetch[`http://127.0.0.1:${port}/`]).toMatch(/^403 /);
    expect(connections).toBe(before);
  });
});

describe('Node entries', () => {
  it('a module entry (SKILL.md package) cannot connect to a local port, which Node permissions alone allow', async () => {
    const before = connections;
    const confined = await registry.run('node-escape', { connect: port });
    expect(confined.status).toBe('success');
    expect((confined.output as { connect: string }).connect).toMatch(/^error: /);
    expect(connections).toBe(before);
    const unconfined = await registry.run('node-escape', { connect: port }, { unsandboxed: true });
    expect((unconfined.output as { connect: string }).connect).toBe('ok');
  });

  it('a module entry cannot grow its heap past memory_mb', async () => {
    // 160 MB of small arrays: far past the declared 64 MB, quick to allocate unconfined.
    const confined = await registry.run('node-escape', { alloc_mb: 160 });
    expect(confined.status).toBe('error');
    // Killed by the allocator: a crash (non-zero exit, no envelope), reported as INTERNAL_ERROR.
    expect(confined.error?.code).toBe('INTERNAL_ERROR');
    expect(confined.error?.message).toMatch(/crashed without writing an envelope \((signal SIGABRT|exit code \d+)\)/);
    const unconfined = await registry.run('node-escape', { alloc_mb: 160 }, { unsandboxed: true });
    expect(unconfined.output).toEqual({ alloc: 'ok: 160 MB' });
  }, 60_000);

  it('a skill.json code module gets no network by default', async () => {
    const confined = await registry.run('thrower', { mode: 'connect', port });
    expect(confined.output).toMatchObject({ ok: false, detail: expect.stringMatching(/ECONNREFUSED|ENETUNREACH/) });
    expect((await registry.run('thrower', { mode: 'connect', port }, { unsandboxed: true })).output).toMatchObject({ ok: true });
  });

  it('a Node script speaking the script protocol gets no network by default', async () => {
    const before = connections;
    const confined = await registry.run('node-protocol', { connect: port });
    expect((confined.output as { connect: string }).connect).toMatch(/^error: /);
    expect(connections).toBe(before);
    expect(((await registry.run('node-protocol', { connect: port }, { unsandboxed: true })).output as { connect: string }).connect).toBe('ok');
  });
});

describe('without bubblewrap', () => {
  it('refuses to run, naming what is missing and how to install it; --unsandboxed runs unconfined', async () => {
    // A PATH with the interpreters but no bwrap.
    const bin = await tempDir('no-bwrap');
    const python = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim();
    await symlink(python, join(bin, 'python3'));
    await symlink('/bin/sh', join(bin, 'sh'));
    const saved = process.env.PATH;
    process.env.PATH = bin;
    try {
      const refused = await registry.run('env-probe', {});
      expect(refused.error?.code).toBe('SANDBOX_UNAVAILABLE');
      expect(refused.error?.message).toContain('bwrap (bubblewrap) is not on PATH');
      expect((refused.error?.details as { hint: string }).hint).toMatch(/apt-get install bubblewrap.*--unsandboxed/);
      const unconfined = await registry.run('env-probe', {}, { unsandboxed: true });
      expect(unconfined.status).toBe('success');
      expect(unconfined.warnings?.join('\n')).toMatch(/ran unconfined/);
    } finally {
      process.env.PATH = saved;
    }
  });

  it('leaves no run folder behind when it refuses', async () => {
    const tmp = await tempDir('refusal-tmp');
    const saved = { PATH: process.env.PATH, TMPDIR: process.env.TMPDIR };
    await mkdir(join(tmp, 'empty-bin'));
    process.env.PATH = join(tmp, 'empty-bin');
    process.env.TMPDIR = tmp;
    try {
      expect((await registry.run('env-probe', {})).error?.code).toBe('SANDBOX_UNAVAILABLE');
      expect(await readdir(tmp)).toEqual(['empty-bin']);
    } finally {
      process.env.PATH = saved.PATH;
      if (saved.TMPDIR === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved.TMPDIR;
    }
  });
});
