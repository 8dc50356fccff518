import { basename } from 'node:path';

/**
 * The bubblewrap command line for one run, as a pure function of the run's layout, so the mount
 * plan can be read and tested without starting anything.
 *
 * What the process sees (everything else of the host is absent, not merely unreadable):
 * - `/skill`  the verified copy of the skill, read-only;
 * - `/work`   its working directory and HOME: a fresh folder, writable unless the policy says
 *             `filesystem: none | read-only` or `requires_filesystem: false`;
 * - `/tmp`    a fresh folder under the same rule;
 * - `/skilldex/node`, `/skilldex/module-harness.ts`  the Node binary and the module harness, for
 *             Node entries (and the binary for the egress bridge);
 * - `/skilldex/egress.sock`, `/skilldex/egress-bridge.ts`  with a network allowlist only: the
 *             filtering proxy's socket and the bridge that offers it on 127.0.0.1:3128;
 * - the system folders interpreters load from (`/usr`, `/bin`, `/lib*`), read-only, and from
 *   `/etc` only the dynamic linker's cache, time zone and alternatives, plus CA certificates
 *   with a network allowlist;
 * - a fresh `/proc` of its own PID namespace (no other process is visible) and a minimal `/dev`.
 * Namespaces: user (with further user namespaces disabled), PID, IPC, UTS, cgroup and network,
 * always: a declared allowlist is reached through the egress proxy, never directly. The process
 * dies with the runner (`--die-with-parent`).
 */

export const SKILL_MOUNT = '/skill';
export const WORK_MOUNT = '/work';
export const TMP_MOUNT = '/tmp';
export const NODE_MOUNT = '/skilldex/node';
export const EGRESS_SOCKET_MOUNT = '/skilldex/egress.sock';
/**
 * Where a file of Skilldex's own (the module harness, the egress bridge) appears: under
 * `/skilldex/` by its file name, which keeps its extension (.ts in a checkout, .js installed).
 */
export const skilldexMount = (hostPath: string): string => `/skilldex/${basename(hostPath)}`;
/** Where the egress bridge listens inside the sandbox; HTTP(S)_PROXY point here. */
export const EGRESS_PORT = 3128;
/** An unprivileged identity inside the sandbox (nobody); the user namespace maps it to the runner's own. */
const SANDBOX_UID = '65534';

/** A top-level system entry to recreate: a folder bound read-only, or a symlink (usr-merged systems). */
export type SystemEntry = { path: string; symlink?: string };

export interface SandboxLayout {
  /** Host folders. */
  skillDir: string;
  workDir: string;
  tmpDir: string;
  writable: boolean;
  /** `/usr`, `/bin`, `/lib*` … as they exist on the host. */
  system: readonly SystemEntry[];
  /** Host `/etc` files and folders to show read-only (missing ones are skipped by bwrap). */
  etc: readonly string[];
  /** Interpreter prefixes outside the system folders (a pyenv or venv Python), bound at the same path. */
  extraReadOnly: readonly string[];
  /** Host paths of the Node binary and the module harness, for Node entries and the egress bridge. */
  node?: { binary: string; harness: string };
  /** Host paths of the egress proxy's socket and the bridge script, when an allowlist is declared. */
  egress?: { socket: string; bridge: string };
  /** The complete environment of the process. */
  env: Record<string, string>;
}

/** `/etc` entries every run gets: the dynamic linker needs its cache; the rest is harmless. */
export const ETC_ALWAYS = ['/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/localtime', '/etc/alternatives'];
/** … and the CA certificates HTTPS needs, only with a network allowlist (names are resolved by the egress proxy, outside). */
export const ETC_TLS = ['/etc/ssl', '/etc/ca-certificates', '/etc/pki'];

/**
 * @example
 * spawn('bwrap', [...bwrapArgs(layout), '--', 'python3', '/skill/scripts/run.py'])
 */
export function bwrapArgs(layout: SandboxLayout): string[] {
  const args = ['--unshare-all', '--unshare-user', '--disable-userns', '--uid', SANDBOX_UID, '--gid', SANDBOX_UID, '--hostname', 'skilldex', '--die-with-parent', '--new-session'];
  for (const entry of layout.system) {
    if (entry.symlink !== undefined) args.push('--symlink', entry.symlink, entry.path);
    else args.push('--ro-bind', entry.path, entry.path);
  }
  for (const path of layout.etc) args.push('--ro-bind-try', path, path);
  for (const path of layout.extraReadOnly) args.push('--ro-bind', path, path);
  args.push('--proc', '/proc', '--dev', '/dev');
  args.push('--ro-bind', layout.skillDir, SKILL_MOUNT);
  args.push(layout.writable ? '--bind' : '--ro-bind', layout.workDir, WORK_MOUNT);
  args.push(layout.writable ? '--bind' : '--ro-bind', layout.tmpDir, TMP_MOUNT);
  if (layout.node) args.push('--ro-bind', layout.node.binary, NODE_MOUNT, '--ro-bind', layout.node.harness, skilldexMount(layout.node.harness));
  if (layout.egress) args.push('--bind', layout.egress.socket, EGRESS_SOCKET_MOUNT, '--ro-bind', layout.egress.bridge, skilldexMount(layout.egress.bridge));
  // bwrap builds the view on a writable tmpfs, and /dev (with /dev/shm) is another one; without
  // these a skill could still write there.
  args.push('--remount-ro', '/');
  if (!layout.writable) args.push('--remount-ro', '/dev');
  args.push('--chdir', WORK_MOUNT, '--clearenv');
  for (const [key, value] of Object.entries(layout.env).sort(([a], [b]) => a.localeCompare(b))) args.push('--setenv', key, value);
  return args;
}
