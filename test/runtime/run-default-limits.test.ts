import { spawnSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { release } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type NodeRegistry, openRegistry } from '../../src/runtime/node/index.ts';
import { countsProcessesPerNamespace, createRunSandbox } from '../../src/runtime/node/run-sandbox.ts';
import { buildInto, tempDir } from './_registries.ts';

/**
 * The limits a run gets when its skill declares none: a memory limit (overridable, and never
 * over a declared one) and a cap on processes per run. Real skills built into a real registry,
 * run in the real sandbox; each limit is also shown not to hold without it.
 */

let registry: NodeRegistry;

/** A Python script-protocol skill that maps `mb` MB of address space or forks `forks` children, and reports what happened. */
const SCRIPT = `import json, mmap, os, sys, time
request = json.load(sys.stdin)
params = request.get("params") or {}
report = {}
if "mb" in params:
    try:
        mmap.mmap(-1, params["mb"] * 1024 * 1024)
        report["map"] = "ok"
    except OSError as error:
        report["map"] = "error: " + type(error).__name__
if "forks" in params:
    children = []
    for _ in range(params["forks"]):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            time.sleep(2)
            os._exit(0)
        children.append(pid)
    report["forked"] = len(children)
    for pid in children:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
print(json.dumps({"success": True, "data": report}))
`;

const skill = async (root: string, name: string, security: string[]): Promise<void> => {
  const dir = join(root, 'skills', name);
  await mkdir(join(dir, 'scripts'), { recursive: true });
  await writeFile(
    join(dir, 'SKILL.md'),
    ['---', `name: ${name}`, `description: Test fixture. Maps address space or forks children on request and reports whether it could (${name}).`, 'version: 1.0.0', 'actions:', '  - name: probe', 'security:', '  timeout_ms: 30000', ...security, 'resources:', '  entry: ./scripts/probe.py', '---', '', `# ${name}`, '', 'Reports what it could map or fork.', ''].join('\n'),
  );
  await writeFile(join(dir, 'scripts', 'probe.py'), SCRIPT);
};

beforeAll(async () => {
  const root = await tempDir('default-limits-root');
  await skill(root, 'undeclared', ['  network: none']);
  await skill(root, 'declares-4gb', ['  memory_mb: 4096']);
  registry = await openRegistry(await buildInto(root, 'default-limits'), { cacheDir: await tempDir('default-limits-cache') });
}, 120_000);

describe('a run whose skill declares no memory_mb', () => {
  it('gets the default memory limit (2048 MB): 3 GB of address space is refused', async () => {
    const confined = await registry.run('undeclared', { mb: 3072 });
    expect(confined.output).toEqual({ map: 'error: OSError' });
    // Within the default, it maps as before.
    expect((await registry.run('undeclared', { mb: 1024 })).output).toEqual({ map: 'ok' });
  }, 60_000);

  it('maps it with the default turned off (defaultMemoryMb: 0), or raised', async () => {
    expect((await registry.run('undeclared', { mb: 3072 }, { defaultMemoryMb: 0 })).output).toEqual({ map: 'ok' });
    expect((await registry.run('undeclared', { mb: 3072 }, { defaultMemoryMb: 4096 })).output).toEqual({ map: 'ok' });
  }, 60_000);

  it('a declared memory_mb wins over the default, either way', async () => {
    expect((await registry.run('declares-4gb', { mb: 3072 })).output).toEqual({ map: 'ok' });
    expect((await registry.run('declares-4gb', { mb: 3072 }, { defaultMemoryMb: 512 })).output).toEqual({ map: 'ok' });
  }, 60_000);
});

describe('a JavaScript or TypeScript entry', () => {
  // An address-space limit leaves WebAssembly no room to reserve its memory, and Node 22 strips
  // TypeScript with a WebAssembly module: under the default, every TypeScript skill failed there
  // (the installed package's test on Node 22.18 runs one).
  it('gets the default as a heap limit only, and a declared memory_mb as both', async () => {
    const planned = async (policy?: { memory_mb: number }) => {
      const sandbox = await createRunSandbox(await tempDir('skill'), { language: 'typescript', ...(policy ? { policy } : {}), maxProcesses: 0 });
      try {
        const argv = sandbox.plan('typescript', '/skill/main.ts').args;
        return argv.slice(argv.indexOf('--') + 1).join(' ');
      } finally {
        await sandbox.dispose();
      }
    };
    const byDefault = await planned();
    expect(byDefault).toContain('--max-old-space-size=2048');
    expect(byDefault).not.toContain('ulimit');
    const declared = await planned({ memory_mb: 512 });
    expect(declared).toContain('--max-old-space-size=512');
    expect(declared).toContain(`ulimit -v ${(512 + 1536) * 1024}`);
  });
});

describe('processes per run', () => {
  it('are counted per user namespace only on Linux 5.14 and later, so the limit is set only there', () => {
    expect(['6.18.44-fc', '5.14.0-427.el9.x86_64', '6.8.0-45-generic'].map(countsProcessesPerNamespace)).toEqual([true, true, true]);
    expect(['5.4.0-200-generic', '4.18.0-553.el8_10.x86_64', '5.13.19', 'garbage'].map(countsProcessesPerNamespace)).toEqual([false, false, false, false]);
  });

  it.skipIf(!countsProcessesPerNamespace(release()))('are limited to 256 in every run by default, set in the sandbox before the interpreter starts', async () => {
    const sandbox = await createRunSandbox(await tempDir('skill'), { language: 'python' });
    try {
      const argv = sandbox.plan('python', '/skill/probe.py').args;
      expect(argv.slice(argv.indexOf('--') + 1)).toEqual(['/bin/sh', '-c', 'ulimit -v 2097152 || exit 125; { ulimit -u 256 || ulimit -p 256; } 2>/dev/null || exit 125; exec "$@"', 'skilldex-limits', expect.stringMatching(/python3/), '/skill/probe.py']);
    } finally {
      await sandbox.dispose();
    }
  });

  // The kernel exempts root from RLIMIT_NPROC: only a runner started as another user is held to it.
  it.skipIf(process.getuid?.() === 0)('stop at maxProcesses: a fork bomb in one run stops there', async () => {
    const limited = await registry.run('undeclared', { forks: 100 }, { maxProcesses: 20 });
    // bubblewrap's init, the shell that sets the limits (now Python) and its children: under 20 in all.
    expect((limited.output as { forked: number }).forked).toBeLessThan(20);
    expect((await registry.run('undeclared', { forks: 100 }, { maxProcesses: 0 })).output).toEqual({ forked: 100 });
  }, 60_000);

  // As root (CI runs so), the test runs what the sandbox puts before the interpreter as nobody,
  // around the same fork bomb: the shell that sets the limits, exactly as the run gets it.
  it.runIf(process.getuid?.() === 0 && countsProcessesPerNamespace(release()))('stop at maxProcesses for an ordinary user (checked as root through setpriv)', async () => {
    const sandbox = await createRunSandbox(await tempDir('skill'), { language: 'python', maxProcesses: 20 });
    try {
      const argv = sandbox.plan('python', '/skill/probe.py').args;
      const limits = argv.slice(argv.indexOf('--') + 1, argv.indexOf('skilldex-limits') + 1);
      expect(limits[0]).toBe('/bin/sh');
      const dir = await tempDir('fork-bomb');
      await chmod(dir, 0o755);
      await writeFile(join(dir, 'probe.py'), SCRIPT, { mode: 0o644 });
      // The system's Python: a user's own (pyenv under /root) is not nobody's to run.
      const forked = (prefix: string[]): number => {
        const run = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', ...prefix, '/usr/bin/python3', join(dir, 'probe.py')], { input: JSON.stringify({ params: { forks: 100 } }), encoding: 'utf8', timeout: 30_000 });
        expect(run.status, run.stderr).toBe(0);
        return (JSON.parse(run.stdout) as { data: { forked: number } }).data.forked;
      };
      expect(forked(limits)).toBeLessThan(20);
      expect(forked([])).toBe(100);
    } finally {
      await sandbox.dispose();
    }
  }, 60_000);
});
