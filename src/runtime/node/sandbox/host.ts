import { spawnSync } from 'node:child_process';
import { accessSync, constants, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { SystemEntry } from './bwrap-args.ts';
import { SandboxError } from './sandbox-error.ts';

/**
 * What the sandbox needs to know about the host: where bwrap is and whether it works here, which
 * system folders exist, and where the Python interpreter really lives. Answers are cached per
 * process (keyed by PATH), because they do not change while it runs and probing costs a spawn.
 */

const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** Folders already visible in every sandbox: an interpreter under them needs no extra mount. */
const VISIBLE = ['/usr/', '/bin/', '/sbin/', '/lib/', '/lib32/', '/lib64/', '/libx32/'];

/** The first executable named `name` on a PATH string. */
function findOnPath(name: string, pathEnv: string | undefined): string | undefined {
  for (const dir of (pathEnv ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (lstatSync(candidate).isDirectory()) continue;
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

let systemCache: SystemEntry[] | undefined;
/** `/usr`, `/bin`, `/lib*` as this host has them: real folders, or symlinks on usr-merged systems. */
export function systemEntries(): SystemEntry[] {
  if (systemCache) return systemCache;
  const entries: SystemEntry[] = [];
  for (const path of SYSTEM_DIRS) {
    try {
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) entries.push({ path, symlink: readlinkSync(path) });
      else if (stat.isDirectory()) entries.push({ path });
    } catch {
      // absent on this host
    }
  }
  systemCache = entries;
  return entries;
}

const INSTALL_HINT =
  'install bubblewrap (Debian/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap), ' +
  'or run without confinement on purpose with --unsandboxed (library: { unsandboxed: true }); see docs/security.md#what-the-runner-guarantees';

const probed = new Map<string, string | undefined>();

/**
 * The path of a working `bwrap`, or a SandboxError saying what is missing. "Working" is checked
 * once per binary by starting a trivial sandbox with the same namespaces a run uses: bwrap is
 * often installed where user namespaces are switched off (some containers, Ubuntu's AppArmor
 * restriction on unprivileged user namespaces), and that must be a clear refusal, not a failed run.
 */
export function requireBwrap(pathEnv: string | undefined = process.env.PATH): string {
  if (process.platform !== 'linux') {
    throw new SandboxError('SANDBOX_UNAVAILABLE', `skilldex confines skills with bubblewrap, which exists only on Linux (this is ${process.platform})`, 'run without confinement on purpose with --unsandboxed (library: { unsandboxed: true }); see docs/security.md#what-the-runner-guarantees');
  }
  const bwrap = findOnPath('bwrap', pathEnv);
  if (!bwrap) throw new SandboxError('SANDBOX_UNAVAILABLE', 'cannot confine the skill: bwrap (bubblewrap) is not on PATH', INSTALL_HINT);
  if (!probed.has(bwrap)) {
    const args = ['--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent'];
    for (const entry of systemEntries()) args.push(...(entry.symlink !== undefined ? ['--symlink', entry.symlink, entry.path] : ['--ro-bind', entry.path, entry.path]));
    args.push('--ro-bind-try', '/etc/ld.so.cache', '/etc/ld.so.cache', '--proc', '/proc', '--dev', '/dev', '--', 'true');
    const result = spawnSync(bwrap, args, { env: { PATH: '/usr/bin:/bin' }, encoding: 'utf8', timeout: 10_000 });
    probed.set(bwrap, result.status === 0 ? undefined : (result.stderr || result.error?.message || `exit ${result.status}`).trim().slice(0, 300));
  }
  const failure = probed.get(bwrap);
  if (failure !== undefined) {
    throw new SandboxError(
      'SANDBOX_UNAVAILABLE',
      `cannot confine the skill: ${bwrap} does not work here (${failure})`,
      'bubblewrap needs user namespaces: check sysctl user.max_user_namespaces (> 0) and kernel.unprivileged_userns_clone (1); on Ubuntu 24.04+ also kernel.apparmor_restrict_unprivileged_userns (0) or an AppArmor profile for bwrap; in a container, allow unshare (e.g. docker --security-opt seccomp=unconfined). Or run unconfined on purpose with --unsandboxed',
    );
  }
  return bwrap;
}

export interface PythonInstall {
  /** The real interpreter binary. */
  executable: string;
  /** Folders outside the system ones that it loads its standard library from (pyenv, venv, /opt). */
  roots: string[];
}

const pythons = new Map<string, PythonInstall>();

/**
 * Where `python3` on PATH really lives. A pyenv shim or a virtualenv's `python3` is a script or a
 * link into a prefix under the user's home, which the sandbox does not show; asking the
 * interpreter for `sys.executable` and its prefixes finds the folders to bind read-only.
 */
export function resolvePython(pathEnv: string | undefined): PythonInstall {
  const key = pathEnv ?? '';
  const cached = pythons.get(key);
  if (cached) return cached;
  const python = findOnPath('python3', pathEnv);
  const hint = 'install Python 3 (Debian/Ubuntu: sudo apt-get install python3) or put python3 on PATH';
  if (!python) throw new SandboxError('INTERPRETER_NOT_FOUND', 'python3 is not on PATH', hint);
  const result = spawnSync(python, ['-I', '-c', 'import json, sys; print(json.dumps([sys.executable, sys.prefix, sys.base_prefix]))'], {
    env: { PATH: pathEnv ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' },
    encoding: 'utf8',
    timeout: 10_000,
  });
  let found: string[];
  try {
    found = JSON.parse(result.stdout) as string[];
  } catch {
    throw new SandboxError('INTERPRETER_NOT_FOUND', `${python} did not report where it is installed: ${(result.stderr || result.error?.message || '').trim().slice(0, 200)}`, hint);
  }
  const [executable, ...prefixes] = found.map((p) => realpathSync(p));
  const roots = [...new Set([...prefixes, dirnameOf(executable as string)])].filter((p) => !VISIBLE.some((v) => `${p}/`.startsWith(v)));
  const install = { executable: executable as string, roots: minimalRoots(roots) };
  pythons.set(key, install);
  return install;
}

const dirnameOf = (path: string): string => path.slice(0, path.lastIndexOf('/')) || '/';
/** Drops folders already inside another one of the list. */
const minimalRoots = (paths: string[]): string[] => paths.filter((p) => !paths.some((q) => q !== p && p.startsWith(`${q}/`))).sort();
