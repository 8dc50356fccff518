import { chmod, mkdir, mkdtemp, readdir, rename } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { release, tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join, relative, sep } from 'node:path';
import type { EntryLanguage } from '../../core/schemas/manifest.ts';
import { reservedEnvironmentVariable, type SecurityPolicy } from '../../core/schemas/skill-md.ts';
import { DEFAULT_MAX_PROCESSES, DEFAULT_MEMORY_MB } from '../../core/schemas/run-limits.ts';
import { siblingModule } from '../../core/module-file.ts';
import { removeTree } from './install.ts';
import { bwrapArgs, EGRESS_PORT, EGRESS_SOCKET_MOUNT, ETC_ALWAYS, ETC_TLS, NODE_MOUNT, SKILL_MOUNT, skilldexMount, TMP_MOUNT, WORK_MOUNT } from './sandbox/bwrap-args.ts';
import { type EgressProxy, startEgressProxy } from './sandbox/egress-proxy.ts';
import { requireBwrap, resolvePython, systemEntries } from './sandbox/host.ts';
import { parseAllowlist } from './sandbox/network-allowlist.ts';
import { SandboxError } from './sandbox/sandbox-error.ts';

// .ts in a checkout, .js in the npm package.
const HARNESS = fileURLToPath(siblingModule(import.meta.url, './module-harness'));
const EGRESS_BRIDGE = fileURLToPath(siblingModule(import.meta.url, './sandbox/egress-bridge'));

/**
 * Environment variables a skill process may see (children inherit everything unless given an
 * allowlist). Tokens, keys and cloud credentials in the agent's environment stay there.
 */
export const INHERITED_ENV = ['PATH', 'LANG', 'LC_ALL', 'TZ'] as const;

/**
 * V8 reserves about 1.25 GB of address space before running any JavaScript (measured with Node 24:
 * VmSize of an empty `node -e`), so a Node entry's address-space limit is its `memory_mb` plus this
 * reserve; `--max-old-space-size` bounds its JavaScript heap to `memory_mb` itself.
 */
const NODE_ADDRESS_SPACE_RESERVE_MB = 1536;

/** The descriptor bwrap reads its options from: the one after the context-service channel (fd 3). */
const BWRAP_ARGS_FD = 4;

/** How the process is started: everything `spawn` needs. */
export interface SpawnPlan {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Arguments the command reads from a file descriptor instead (see {@link BoundedProcessOptions.argsOnFd}). */
  argsOnFd?: { fd: number; args: readonly string[] };
}

export interface RunSandbox {
  /** Where the process finds the skill's verified copy. */
  skillDir: string;
  /** The module harness, as the process sees it. */
  harness: string;
  /** The command line for an interpreter running `script` (a path as the process sees it). */
  plan(language: EntryLanguage, script: string): SpawnPlan;
  /** The memory limit the process runs under (declared, or the default); only a bubblewrap run enforces it. */
  memoryLimitMb?: number;
  /** Whether {@link memoryLimitMb} is the skill's own `memory_mb` or the runner's default for a skill that declares none. */
  memoryLimitFrom?: 'declared' | 'default';
  /** Deletes the run's folders (and anything the script left there). */
  dispose(): Promise<void>;
}

export interface RunSandboxOptions {
  debug?: boolean;
  env?: Record<string, string>;
  /** The skill's declared `security` policy. */
  policy?: SecurityPolicy;
  /** The entry's language, so only the interpreter it needs is looked up and mounted. */
  language?: EntryLanguage;
  /** Run without bubblewrap. Only on an explicit request: the skill then sees the host. */
  unsandboxed?: boolean;
  /** The memory limit in MB for a skill that declares no `memory_mb` (default {@link DEFAULT_MEMORY_MB}; 0: none). */
  defaultMemoryMb?: number;
  /** The most processes and threads the run may have at once (default {@link DEFAULT_MAX_PROCESSES}; 0: no limit). */
  maxProcesses?: number;
}

/** Whether the run gets a writable work folder and /tmp, from `filesystem` and `requires_filesystem`. */
const writableFor = (policy: SecurityPolicy | undefined): boolean =>
  policy?.filesystem === undefined ? policy?.requires_filesystem !== false : policy.requires_filesystem === true;
/** The hosts a run may reach through the egress proxy; none unless the policy declares an allowlist. */
const allowlistFor = (policy: SecurityPolicy | undefined): readonly string[] => (policy?.network === 'allowlist' ? (policy.network_allowlist ?? []) : []);

/**
 * A fresh run folder and the confinement for one run: by default a bubblewrap sandbox built from
 * the skill's policy (see `bwrapArgs`), refused with a SandboxError when bubblewrap is missing or
 * does not work; with `unsandboxed`, a plain child process with the allowlisted environment.
 *
 * @example
 * const sandbox = await createRunSandbox('/cache/skills/pdf/0123', { policy: manifest.security, language: 'python' });
 * try { … } finally { await sandbox.dispose(); }
 */
export async function createRunSandbox(skillDir: string, options: RunSandboxOptions = {}): Promise<RunSandbox> {
  // Checked before anything is created, so a refusal leaves nothing behind.
  refuseReservedEnvironment(options.policy);
  const bwrap = options.unsandboxed ? undefined : requireBwrap(process.env.PATH);
  const python = bwrap && options.language === 'python' ? resolvePython(process.env.PATH) : undefined;
  const root = await mkdtemp(join(tmpdir(), 'skilldex-run-'));
  const host = { work: join(root, 'work'), tmp: join(root, 'tmp') };
  await Promise.all(Object.values(host).map((dir) => mkdir(dir)));

  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  // Python would otherwise write __pycache__ next to the scripts; the installed copy is read-only
  // and is re-verified before every run.
  env.PYTHONDONTWRITEBYTECODE = '1';
  env.PYTHONIOENCODING = 'utf-8';
  if (options.debug || process.env.SKILL_DEBUG === '1') env.SKILL_DEBUG = '1';
  Object.assign(env, options.policy?.environment ?? {}, options.env ?? {});
  // The context-service channel (docs/context.md#the-channel): runBoundedProcess opens it as fd 3.
  env.SKILLDEX_SERVICES_FD = '3';
  const declaredMemoryMb = options.policy?.memory_mb;
  const fallbackMemoryMb = options.defaultMemoryMb ?? DEFAULT_MEMORY_MB;
  const memoryMb = declaredMemoryMb ?? (fallbackMemoryMb > 0 ? fallbackMemoryMb : undefined);
  const processes = countsProcessesPerNamespace(release()) ? (options.maxProcesses ?? DEFAULT_MAX_PROCESSES) || undefined : undefined;
  const dispose = () => removeRunFolder(root);

  if (!bwrap) {
    // Unconfined, HOME is an empty folder of the run's own, so `~/.ssh` is not where a script looks.
    const home = join(root, 'home');
    await mkdir(home);
    Object.assign(env, { HOME: home, SKILL_DIR: skillDir, TMPDIR: host.tmp });
    return {
      skillDir,
      harness: HARNESS,
      dispose,
      plan: (language, script) => ({ ...interpreterCommand(language, script, { node: process.execPath, python: 'python3', sh: 'sh', skill: skillDir, work: host.work, harness: HARNESS }), cwd: host.work, env }),
    };
  }

  // Inside, the system's own folders come first on PATH: the host's PATH may name folders that
  // do not exist in the sandbox (~/.local/bin, a pyenv shim folder).
  Object.assign(env, { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: WORK_MOUNT, SKILL_DIR: SKILL_MOUNT, TMPDIR: TMP_MOUNT });
  const allowlist = allowlistFor(options.policy);
  let egress: EgressProxy | undefined;
  if (allowlist.length > 0) {
    try {
      egress = await startEgressProxy(join(root, 'egress.sock'), parseAllowlist(allowlist).rules);
    } catch (error) {
      await dispose();
      throw error;
    }
    const proxy = `http://127.0.0.1:${EGRESS_PORT}`;
    // Both spellings: curl and Python read the lower-case ones, many others the upper-case.
    // NODE_USE_ENV_PROXY makes Node's fetch and http honour them.
    Object.assign(env, { HTTP_PROXY: proxy, HTTPS_PROXY: proxy, http_proxy: proxy, https_proxy: proxy, NODE_USE_ENV_PROXY: '1' });
  }
  const language = options.language;
  const node = egress || language === 'javascript' || language === 'typescript' || language === undefined ? { binary: realpathSync(process.execPath), harness: HARNESS } : undefined;
  const sandboxArgs = bwrapArgs({
    skillDir,
    workDir: host.work,
    tmpDir: host.tmp,
    writable: writableFor(options.policy),
    system: systemEntries(),
    // CA certificates for HTTPS through the proxy's tunnels; name resolution happens in the proxy.
    etc: egress ? [...ETC_ALWAYS, ...ETC_TLS] : ETC_ALWAYS,
    extraReadOnly: python?.roots ?? [],
    ...(node ? { node } : {}),
    ...(egress ? { egress: { socket: egress.socketPath, bridge: EGRESS_BRIDGE } } : {}),
    env,
  });
  return {
    skillDir: SKILL_MOUNT,
    harness: skilldexMount(HARNESS),
    ...(memoryMb === undefined ? {} : { memoryLimitMb: memoryMb, memoryLimitFrom: declaredMemoryMb === undefined ? 'default' : 'declared' }),
    dispose: async () => {
      await egress?.close();
      await dispose();
    },
    plan: (lang, script) => {
      const inner = interpreterCommand(lang, script, { node: NODE_MOUNT, python: python?.executable ?? 'python3', sh: '/bin/sh', skill: SKILL_MOUNT, work: WORK_MOUNT, harness: skilldexMount(HARNESS), memoryMb });
      // The default bounds a JavaScript or TypeScript entry's heap only (--max-old-space-size): under
      // an address-space limit WebAssembly cannot reserve its memory, and Node 22 strips TypeScript
      // with a WebAssembly module, so every TypeScript skill failed there without declaring anything.
      const addressSpaceMb =
        memoryMb === undefined ? undefined
        : lang === 'python' || lang === 'shell' ? memoryMb
        : declaredMemoryMb === undefined ? undefined
        : memoryMb + NODE_ADDRESS_SPACE_RESERVE_MB;
      const limited = withLimits({ addressSpaceMb, processes }, [inner.command, ...inner.args]);
      // The bridge starts first and outside the memory limit (V8 alone would exceed a small one).
      const argv = egress ? [NODE_MOUNT, '--max-old-space-size=32', skilldexMount(EGRESS_BRIDGE), EGRESS_SOCKET_MOUNT, String(EGRESS_PORT), '--', ...limited] : limited;
      // bwrap runs on the host, so it gets none of the skill's variables: a declared LD_PRELOAD
      // would otherwise load a library of the skill's choosing outside the sandbox. The skill's
      // environment is set inside only (--clearenv, --setenv).
      // bwrap reads its own options from a pipe (--args): on its command line, which every process
      // in the sandbox reads as /proc/1/cmdline, they named the host's paths (the run folder, the
      // cache under the user's home) and the values it sets.
      return { command: bwrap, args: ['--args', String(BWRAP_ARGS_FD), '--', ...argv], argsOnFd: { fd: BWRAP_ARGS_FD, args: sandboxArgs }, cwd: root, env: { PATH: '/usr/bin:/bin' } };
    },
  };
}

/**
 * A path length past which a folder of the run is moved up before the run folder is removed. Far
 * below PATH_MAX (4096 on Linux), so a folder found below it and one more name still fit.
 */
const MOVE_UP_AT = 2048;

/**
 * Removes a run folder whatever the skill left in it. A skill may nest folders (by changing into
 * each one it makes) far deeper than any path the system accepts: removing such a tree by its paths
 * failed with ENAMETOOLONG, which left the folder and the skill's files on the host and turned the
 * run's result into an error. So every folder whose path grows past {@link MOVE_UP_AT} is first
 * moved to the top of the run folder, where its own path is short again; links are not followed.
 */
async function removeRunFolder(root: string): Promise<void> {
  const folders = [root];
  while (folders.length > 0) {
    const folder = folders.pop() as string;
    // Folders need write and search permission to be emptied, whatever mode the skill gave them.
    await chmod(folder, 0o755).catch(() => {});
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      let path = join(folder, entry.name);
      if (path.length > MOVE_UP_AT) {
        // A fresh empty folder to move it onto: a name the skill made there already stays clear.
        const top = await mkdtemp(join(root, '.deep-'));
        await rename(path, top);
        path = top;
      }
      folders.push(path);
    }
  }
  await removeTree(root);
}

/**
 * Refuses a declared environment that would steer the interpreter or the dynamic linker: the
 * registry publishes the manifest, so a build's validation is not something the runner can rely
 * on. Refused rather than dropped, so the run cannot quietly behave differently from what the
 * skill's author tested, and the message names the variable to remove.
 */
function refuseReservedEnvironment(policy: SecurityPolicy | undefined): void {
  for (const name of Object.keys(policy?.environment ?? {})) {
    const reason = reservedEnvironmentVariable(name);
    if (reason !== undefined) {
      throw new SandboxError('PERMISSION_DENIED', `security.environment declares ${JSON.stringify(name)}, which ${reason}; the runner refuses to start it`, 'remove the variable from the skill\'s security.environment (docs/security.md#everywhere)');
    }
  }
}

/** The path of `hostPath` inside the skill folder as the process sees it. */
export function skillPath(sandbox: RunSandbox, hostSkillDir: string, hostPath: string): string {
  return [sandbox.skillDir, ...relative(hostSkillDir, hostPath).split(sep)].join('/');
}

/**
 * Whether the kernel counts RLIMIT_NPROC per user namespace (Linux 5.14 and later), so a limit
 * set in the sandbox counts the run's processes only. Before that it counted every process of
 * the user on the machine, and a desktop session's threads alone passed any sensible limit.
 *
 * @example
 * countsProcessesPerNamespace('6.8.0-45-generic'); // true
 * countsProcessesPerNamespace('5.4.0-200-generic'); // false
 */
export function countsProcessesPerNamespace(kernelRelease: string): boolean {
  const [major = 0, minor = 0] = (/^(\d+)\.(\d+)/.exec(kernelRelease) ?? []).slice(1).map(Number);
  return major > 5 || (major === 5 && minor >= 14);
}

/**
 * RLIMIT_AS through the shell's `ulimit -v` (KB) and RLIMIT_NPROC through `ulimit -u` (bash) or
 * `-p` (dash, busybox), then `exec`: the limits cover the interpreter and everything it starts.
 * `ulimit` is a shell builtin everywhere, so no extra tool is needed. The process limit counts
 * only the run's own processes: the sandbox has a user namespace of its own, and the kernel
 * counts RLIMIT_NPROC per user namespace (Linux 5.14 and later).
 */
function withLimits(limits: { addressSpaceMb: number | undefined; processes: number | undefined }, argv: string[]): string[] {
  if (limits.addressSpaceMb === undefined && limits.processes === undefined) return argv;
  const script = [
    ...(limits.addressSpaceMb === undefined ? [] : [`ulimit -v ${Math.ceil(limits.addressSpaceMb * 1024)} || exit 125`]),
    ...(limits.processes === undefined ? [] : [`{ ulimit -u ${limits.processes} || ulimit -p ${limits.processes}; } 2>/dev/null || exit 125`]),
    'exec "$@"',
  ].join('; ');
  return ['/bin/sh', '-c', script, 'skilldex-limits', ...argv];
}

interface InterpreterPaths {
  node: string;
  python: string;
  sh: string;
  skill: string;
  work: string;
  harness: string;
  memoryMb?: number;
}

/**
 * The interpreter for a script, by the language the build detected. Node entries also get Node's
 * permission model (read the skill, the run folder and the harness; write the run folder; no
 * child processes or workers): in the sandbox it is a second fence, unconfined it is the only one.
 */
function interpreterCommand(language: EntryLanguage, script: string, paths: InterpreterPaths): { command: string; args: string[] } {
  switch (language) {
    case 'python':
      return { command: paths.python, args: [script] };
    case 'shell':
      return { command: paths.sh, args: [script] };
    default:
      return {
        command: paths.node,
        args: [
          '--permission',
          `--allow-fs-read=${paths.skill}`,
          `--allow-fs-read=${paths.work}`,
          `--allow-fs-read=${paths.harness}`,
          `--allow-fs-write=${paths.work}`,
          '--disable-warning=ExperimentalWarning',
          ...(paths.memoryMb === undefined ? [] : [`--max-old-space-size=${Math.max(16, Math.floor(paths.memoryMb))}`]),
          script,
        ],
      };
  }
}
