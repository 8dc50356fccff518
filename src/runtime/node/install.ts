import { createHash, randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { declaredIdentity } from '../../core/parse/declared-identity.ts';
import { isWindowsDeviceName, WINDOWS_DEVICE_NAMES } from '../../core/paths.ts';
import { RegistryConfig } from '../../core/schemas/config.ts';
import type { SkillManifest } from '../../core/schemas/manifest.ts';
import { RegistryError } from '../../core/errors/registry-error.ts';
import { MAX_SKILL_FILES, verifySkillFiles } from '../verify.ts';
import { containedPath } from './contained-path.ts';
import { makeFolder } from '../../core-node/make-folder.ts';

/**
 * Project-level skill folders, by agent, exactly as the `skills` CLI (1.7.4, `npx skills add`)
 * installs them, so `--to <agent>` puts a skill where that agent looks. Several agents share
 * `.agents/skills`. test/runtime/agent-folders.test.ts reads the table out of the installed
 * `skills` package and fails when the two drift apart.
 */
export const AGENT_SKILL_FOLDERS = {
  'aider-desk': '.aider-desk/skills',
  amp: '.agents/skills',
  antigravity: '.agents/skills',
  'antigravity-cli': '.agents/skills',
  astrbot: 'data/skills',
  'autohand-code': '.autohand/skills',
  augment: '.augment/skills',
  bob: '.bob/skills',
  'claude-code': '.claude/skills',
  openclaw: 'skills',
  cline: '.agents/skills',
  'codearts-agent': '.codeartsdoer/skills',
  codebuddy: '.codebuddy/skills',
  codemaker: '.codemaker/skills',
  codestudio: '.codestudio/skills',
  codex: '.agents/skills',
  'command-code': '.commandcode/skills',
  continue: '.continue/skills',
  cortex: '.cortex/skills',
  crush: '.crush/skills',
  cursor: '.agents/skills',
  deepagents: '.agents/skills',
  devin: '.devin/skills',
  dexto: '.agents/skills',
  droid: '.agents/skills',
  eve: 'agent/skills',
  firebender: '.agents/skills',
  forgecode: '.forge/skills',
  fx: '.agents/skills',
  'gemini-cli': '.agents/skills',
  'github-copilot': '.agents/skills',
  goose: '.goose/skills',
  grok: '.grok/skills',
  'hermes-agent': '.hermes/skills',
  'inference-sh': '.inferencesh/skills',
  jazz: '.jazz/skills',
  junie: '.junie/skills',
  'iflow-cli': '.iflow/skills',
  kilo: '.agents/skills',
  kimchi: '.kimchi/skills',
  'kimi-code-cli': '.agents/skills',
  'kiro-cli': '.kiro/skills',
  kode: '.kode/skills',
  lingma: '.lingma/skills',
  loaf: '.agents/skills',
  mcpjam: '.mcpjam/skills',
  'minimax-code': '.minimax/skills',
  'mistral-vibe': '.vibe/skills',
  moxby: '.moxby/skills',
  mux: '.mux/skills',
  opencode: '.agents/skills',
  openhands: '.openhands/skills',
  ona: '.ona/skills',
  pi: '.agents/skills',
  'posit-assistant': '.posit/assistant/skills',
  qoder: '.qoder/skills',
  'qoder-cn': '.qoder/skills',
  'qwen-code': '.qwen/skills',
  replit: '.agents/skills',
  reasonix: '.reasonix/skills',
  rovodev: '.rovodev/skills',
  roo: '.roo/skills',
  'sarvam-code': '.agents/skills',
  'tabnine-cli': '.tabnine/agent/skills',
  terramind: '.terramind/skills',
  tinycloud: '.tinycloud/skills',
  trae: '.trae/skills',
  'trae-cn': '.trae/skills',
  warp: '.agents/skills',
  windsurf: '.windsurf/skills',
  zed: '.agents/skills',
  zcode: '.zcode/skills',
  zencoder: '.zencoder/skills',
  zenflow: '.zencoder/skills',
  neovate: '.neovate/skills',
  pochi: '.pochi/skills',
  promptscript: '.agents/skills',
  adal: '.adal/skills',
  universal: '.agents/skills',
} as const;
export type AgentTarget = keyof typeof AGENT_SKILL_FOLDERS;

/** Short names `--to` also accepts: `claude` (Claude Code), `agents` (the shared `.agents/skills`), and `copilot` or `vscode` (GitHub Copilot, VS Code's agent). */
export const AGENT_ALIASES: Readonly<Record<string, AgentTarget>> = { claude: 'claude-code', agents: 'universal', copilot: 'github-copilot', vscode: 'github-copilot' };

/** The skills folder for a `--to` value: an agent id, an alias, or one of the folders itself. */
export function agentSkillFolder(to: string): string | undefined {
  const key = to.toLowerCase();
  const agent = (AGENT_ALIASES[key] ?? key) as AgentTarget;
  if (Object.hasOwn(AGENT_SKILL_FOLDERS, agent)) return AGENT_SKILL_FOLDERS[agent];
  const folder = to.replace(/\/+$/, '');
  return Object.values(AGENT_SKILL_FOLDERS).find((f) => f === folder);
}

/**
 * Where `install` puts a skill: `<dir>/<agent folder>/<folder>` with a `to` target (an agent id
 * from {@link AGENT_SKILL_FOLDERS}, an alias, or the folder itself, e.g. `.claude/skills`), else
 * `<dir>/<folder>`. The result is proven to sit inside that base. A folder named after a Windows
 * device (`con`, `NUL`) is refused on every system: Windows cannot create it, and a project that
 * held it could no longer be checked out there. A registry built by skilldex never publishes such
 * a name (`name/windows-device`), so one that does is hostile or broken.
 *
 * @example
 * installDestination('/project', 'pdf', 'claude');  // '/project/.claude/skills/pdf'
 * installDestination('/project', 'pdf', 'cursor');  // '/project/.agents/skills/pdf'
 * installDestination('/project', 'con');            // throws INSTALL_FAILED
 */
export function installDestination(dir: string, folderName: string, to?: string): string {
  if (isWindowsDeviceName(folderName)) {
    throw new RegistryError('INSTALL_FAILED', `'${folderName}' cannot be installed: its folder would be named after a Windows device (${WINDOWS_DEVICE_NAMES}), which Windows cannot create; nothing was changed`, {
      hint: 'a registry built by skilldex never publishes such a name (rule name/windows-device); report it to the registry maintainers',
    });
  }
  if (to === undefined || to === '') return containedPath(dir, folderName);
  const folder = agentSkillFolder(to);
  if (!folder) {
    throw new RegistryError('INSTALL_FAILED', `unknown install target '${to}'`, {
      hint: "name an agent as the `skills` CLI spells it (claude-code, cursor, codex, …), claude, agents, or an agent's folder such as .claude/skills; without a target the skill goes into the folder itself",
    });
  }
  return containedPath(resolve(dir, folder), folderName);
}

/** A declaration larger than this is not a skill this client installed (the build's limit is 64 KiB of frontmatter). */
const MAX_DECLARATION_BYTES = 1024 * 1024;
/**
 * Entries looked at in a folder before deciding it is not an install, bounded for a large project
 * folder: room for a skill's files (at most MAX_SKILL_FILES, and one generated), as many folders,
 * and as much again for tool litter and deep paths. At 10,000, an install of a skill of 10,000
 * files (and its references/ folder) was refused as "not an installed copy" on its next update.
 */
const MAX_ENTRIES_SEEN = 4 * MAX_SKILL_FILES;

/**
 * What one version of a skill puts in its install folder: the files it publishes, and the ones
 * install writes beside them (the SKILL.md of a skill.json function), by path.
 */
export interface InstallLayout {
  version: string;
  files: SkillManifest['files'];
  generated: ReadonlyMap<string, Uint8Array>;
}

/**
 * Litter that tools leave in any folder and that holds nothing of the user's: Finder's view
 * settings, Windows' thumbnail caches, and Python's bytecode (a skill's helper modules, imported
 * by an agent running its scripts in place, leave `__pycache__/*.pyc` beside them).
 */
const isToolLitter = (path: string): boolean => {
  const segments = path.split('/');
  const file = segments.at(-1) ?? '';
  if (['.DS_Store', 'Thumbs.db', 'desktop.ini'].includes(file)) return true;
  return segments.at(-2) === '__pycache__' && /\.py[co]$/.test(file);
};

/**
 * The regular files under `dir` by `/`-separated relative path, with their sizes; undefined as
 * soon as it holds anything an install never writes there: a symbolic link, a FIFO or device, a
 * file `allowed` rejects, or more than {@link MAX_ENTRIES_SEEN} entries. Links are not followed.
 */
async function installLikeTree(dir: string, allowed: (path: string) => boolean): Promise<Map<string, number> | undefined> {
  const files = new Map<string, number>();
  let seen = 0;
  const walk = async (current: string): Promise<boolean> => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      if (++seen > MAX_ENTRIES_SEEN) return false;
      const abs = join(current, entry.name);
      const rel = relative(dir, abs).split(sep).join('/');
      if (entry.isDirectory()) {
        if (!(await walk(abs))) return false;
      } else if (entry.isFile() && allowed(rel)) {
        files.set(rel, (await lstat(abs)).size);
      } else return false;
    }
    return true;
  };
  return (await walk(dir).catch(() => false)) ? files : undefined;
}

/** Whether the file at `path` holds exactly `expected` (a published file's size and digest, or generated bytes). */
async function holdsExactly(path: string, size: number, expected: { digest: string } | { bytes: Uint8Array }): Promise<boolean> {
  const bytes = await readFile(path).catch(() => undefined);
  if (bytes?.length !== size) return false;
  if ('bytes' in expected) return sameBytes(bytes, expected.bytes);
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}` === expected.digest;
}

/**
 * Why `install` may not replace what is at `dest` without `--force`, in words for the user
 * (`is not an installed copy of 'pdf'`); undefined when it may: nothing, a symbolic link
 * (replaced itself, never followed), or an earlier install of this skill — a folder in which
 * nothing is the user's:
 *
 * - every file in it is one an install writes: one the version being installed publishes or
 *   generates, or one of the version that the folder's own SKILL.md or skill.json declares (found
 *   with `layoutOf`), tool litter aside. A single other file, a link, a FIFO or a device in it,
 *   and it is not an install; and
 * - at least one non-empty file in it is byte for byte the one that version publishes. An empty
 *   file (`__init__.py`) matches any skill that publishes one, so it proves nothing; and
 * - its declaration names the skill (an install, perhaps edited: replacing it is the update the
 *   user asked for), or else every file in it is byte for byte the published one (an install
 *   missing files), so that nothing of the user's can be lost.
 *
 * Anything else — a project folder sharing the skill's name, a hand-written skill of that name,
 * an install the user added files to, a file — is the user's and is never deleted unless they ask
 * (`--force`): neither a registry's choice of names (`src`, `utils`) nor an agent's choice of
 * target can wipe a project.
 *
 * @example
 * const layout = { version: manifest.version, files: manifest.files, generated: new Map() };
 * await replaceRefusal('/project/utils', ['utils'], layout); // "holds 'helpers.py', …" or "is not an installed copy of 'utils'" while utils/ holds a file the skill does not publish
 */
export async function replaceRefusal(dest: string, names: readonly string[], current: InstallLayout, layoutOf?: (version: string) => Promise<InstallLayout | undefined>): Promise<string | undefined> {
  const notAnInstall = `is not an installed copy of '${names[0]}'`;
  const info = await lstat(dest).catch(() => undefined);
  // A link is replaced itself, its target never touched: nothing of the user's is lost.
  if (!info || info.isSymbolicLink()) return undefined;
  if (!info.isDirectory()) return 'is a file, not an installed copy';

  const wanted = new Set(names.map((n) => n.toLowerCase()));
  let declaredVersion: string | undefined;
  for (const declaration of ['SKILL.md', 'skill.json'] as const) {
    const path = join(dest, declaration);
    const stat = await lstat(path).catch(() => undefined);
    if (!stat?.isFile() || stat.size > MAX_DECLARATION_BYTES) continue;
    const identity = declaredIdentity(declaration, await readFile(path), RegistryConfig.parse({}).limits);
    if (identity.name !== undefined && wanted.has(identity.name.toLowerCase())) {
      declaredVersion = identity.version;
      break;
    }
  }

  // An update from another version may hold files that version published and this one does not;
  // what it wrote is looked up only if the folder is not an install of this version.
  const otherVersion = declaredVersion !== undefined && declaredVersion !== current.version && layoutOf !== undefined ? declaredVersion : undefined;
  const publishedNow = new Map(current.files.map((file) => [file.path, file]));
  const unknown: string[] = [];
  const tree = await installLikeTree(dest, (path) => {
    const known = otherVersion !== undefined || isToolLitter(path) || current.generated.has(path) || publishedNow.has(path);
    if (!known) unknown.push(path);
    return known;
  });
  if (!tree) {
    // An install of this very version that holds a file it does not publish: the registry rebuilt
    // the version with other files (a SKILL.md without a version is always 1.0.0), or the user added one.
    if (declaredVersion !== undefined && unknown.length > 0) {
      return `holds '${unknown[0]}', which version ${current.version} of '${names[0]}' does not publish: a file of yours, or one an earlier build of the same version had`;
    }
    return notAnInstall;
  }

  const isInstallOf = async (layout: InstallLayout): Promise<boolean> => {
    const published = new Map(layout.files.map((file) => [file.path, file]));
    let evidence = false;
    let untouched = true;
    for (const [path, size] of tree) {
      if (isToolLitter(path)) continue;
      const file = published.get(path);
      const generated = layout.generated.get(path);
      let exact: boolean;
      if (file) exact = file.size === size && (await holdsExactly(join(dest, path), size, file));
      else if (generated) exact = await holdsExactly(join(dest, path), size, { bytes: generated });
      else return false;
      if (exact && size > 0) evidence = true;
      if (!exact) untouched = false;
    }
    return evidence && (declaredVersion !== undefined || untouched);
  };
  if (await isInstallOf(current)) return undefined;
  if (otherVersion === undefined) return notAnInstall;
  const declared = await layoutOf!(otherVersion).catch(() => undefined);
  return declared !== undefined && (await isInstallOf(declared)) ? undefined : notAnInstall;
}

/** Every regular file under `dir`, by `/`-separated relative path. Symlinks count as unexpected files. */
async function readTree(dir: string): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  const walk = async (current: string): Promise<void> => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const abs = join(current, entry.name);
      const rel = relative(dir, abs).split(sep).join('/');
      if (entry.isDirectory()) await walk(abs);
      else if (entry.isFile()) files.set(rel, new Uint8Array(await readFile(abs)));
      else files.set(rel, new Uint8Array());
    }
  };
  await walk(dir);
  return files;
}

const sameBytes = (a: Uint8Array | undefined, b: Uint8Array): boolean => a !== undefined && a.length === b.length && a.every((byte, i) => byte === b[i]);

/**
 * Checks an installed copy against its manifest: exactly the published files, byte for byte, and
 * the tree digest, plus the files install generates beside them (the SKILL.md of a skill.json
 * function), each exactly as generated. Run before executing anything from disk, so a copy edited
 * after install is never run.
 *
 * @example
 * await verifyInstalled(manifest, '/project/.claude/skills/pdf'); // throws VERIFICATION_FAILED
 */
export async function verifyInstalled(manifest: SkillManifest, dir: string, generated: ReadonlyMap<string, Uint8Array> = new Map()): Promise<void> {
  const files = await readTree(dir);
  for (const [path, bytes] of generated) {
    if (!sameBytes(files.get(path), bytes)) {
      throw new RegistryError('VERIFICATION_FAILED', `${manifest.name}: ${path} in ${dir} is not the one install writes`, { hint: `reinstall it: skilldex install ${manifest.name}` });
    }
    files.delete(path);
  }
  await verifySkillFiles(manifest, files);
}

/**
 * True when `dir` is a real folder (not a link to one) holding a verified copy. A symbolic link
 * at the destination is never looked through: it is replaced, so install never reads, keeps or
 * changes anything it points to.
 */
const verifiesAt = async (manifest: SkillManifest, dir: string, generated?: ReadonlyMap<string, Uint8Array>): Promise<boolean> => {
  const info = await lstat(dir).catch(() => undefined);
  if (!info?.isDirectory()) return false;
  return verifyInstalled(manifest, dir, generated).then(() => true, () => false);
};

/** Whether anything (a folder, a file, a link, even a dangling one) occupies `path`. */
const occupied = async (path: string): Promise<boolean> => lstat(path).then(() => true, () => false);

/** Scripts keep an executable bit; like the published archive, it follows from a `#!` first line. */
const modeOf = (bytes: Uint8Array): number => (bytes[0] === 0x23 && bytes[1] === 0x21 ? 0o755 : 0o644);

/**
 * A published file that cannot be written because another one already took its place in the
 * fresh folder. The manifest check refuses a path listed twice or inside another file, so this is
 * a file system that folds case (macOS, Windows), where `README.md` and `readme.md`, or a file
 * `Scripts/x` and a folder `scripts/x/`, are one name.
 */
function collision(error: unknown, skill: string, path: string): RegistryError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== 'EEXIST' && code !== 'ENOTDIR' && code !== 'EISDIR') return undefined;
  return new RegistryError('INSTALL_FAILED', `${skill}: ${path} cannot be written beside its other files: this file system takes two of its paths for one (${code}); nothing was changed`, {
    cause: error,
    hint: 'its paths differ only in letter case, which this file system does not tell apart; install it on a case-sensitive volume, or ask the registry maintainers to rename one',
  });
}

export interface WriteSkillResult {
  dir: string;
  /** False when an identical, verified copy was already there. */
  changed: boolean;
}

/**
 * Writes verified files (and `generated` ones) into `dest` atomically: everything goes into a
 * temporary sibling folder, which replaces `dest` by rename only once complete. A reader sees the
 * old copy or the new one, never a mix, and a failure leaves `dest` as it was. Whatever occupied
 * `dest` — a folder, a file, a symbolic link — is moved aside and removed without following links.
 * `files` must already be verified.
 */
export async function writeSkillDir(
  manifest: SkillManifest,
  files: ReadonlyMap<string, Uint8Array>,
  dest: string,
  options: { readOnly?: boolean; generated?: ReadonlyMap<string, Uint8Array> } = {},
): Promise<WriteSkillResult> {
  const generated = options.generated ?? new Map<string, Uint8Array>();
  if (await verifiesAt(manifest, dest, generated)) return { dir: dest, changed: false };
  const parent = dirname(dest);
  makeFolder(parent);
  const suffix = randomBytes(6).toString('hex');
  const temp = join(parent, `.${basename(dest)}.${suffix}.tmp`);
  const old = join(parent, `.${basename(dest)}.${suffix}.old`);
  try {
    await mkdir(temp);
    for (const [path, bytes] of [...files, ...generated]) {
      const target = containedPath(temp, path);
      try {
        makeFolder(dirname(target));
        await writeFile(target, bytes, { mode: modeOf(bytes), flag: 'wx' });
      } catch (error) {
        throw collision(error, manifest.name, path) ?? error;
      }
    }
    if (options.readOnly) await makeReadOnly(temp);
    // Another process (a parallel run of the same skill) may have put an identical copy in place
    // meanwhile; keep it rather than swapping a folder someone may be executing from.
    if (await verifiesAt(manifest, dest, generated)) {
      await removeTree(temp);
      return { dir: dest, changed: false };
    }
    const hadOld = await occupied(dest);
    if (hadOld) await rename(dest, old);
    try {
      await rename(temp, dest);
    } catch (error) {
      if (!(await verifiesAt(manifest, dest, generated))) throw error;
      await removeTree(temp);
    }
    if (hadOld) await removeTree(old);
  } catch (error) {
    await removeTree(temp);
    throw error;
  }
  return { dir: dest, changed: true };
}

/**
 * Every folder and file below `dir`, parents before children, without entering symbolic links.
 * (Node's `readdir({ recursive: true })` does enter linked folders, which would let a link planted
 * in a skill folder redirect a chmod to files elsewhere.)
 */
async function listTree(dir: string): Promise<{ folders: string[]; files: string[] }> {
  const folders: string[] = [];
  const files: string[] = [];
  const walk = async (current: string): Promise<void> => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const abs = join(current, entry.name);
      if (entry.isDirectory()) {
        folders.push(abs);
        await walk(abs);
      } else if (entry.isFile()) files.push(abs);
    }
  };
  await walk(dir);
  return { folders, files };
}

/** Read-only copies keep a running skill from editing itself (it must write to its own cwd). */
async function makeReadOnly(dir: string): Promise<void> {
  const { folders, files } = await listTree(dir);
  for (const file of files) await chmod(file, (await lstat(file)).mode & 0o555);
  for (const folder of folders.reverse()) await chmod(folder, 0o555);
  await chmod(dir, 0o555);
}

/**
 * rm -rf that also works on folders made read-only by {@link makeReadOnly}. A symbolic link (at
 * the top or inside) is removed itself; nothing it points to is read, changed or removed.
 */
export async function removeTree(dir: string): Promise<void> {
  const info = await lstat(dir).catch(() => undefined);
  if (!info) return;
  if (!info.isDirectory()) {
    await unlink(dir);
    return;
  }
  // Folders need write permission to be emptied: the top first, so its children can be listed.
  await chmod(dir, 0o755).catch(() => {});
  const { folders } = await listTree(dir);
  for (const folder of folders) await chmod(folder, 0o755).catch(() => {});
  await rm(dir, { recursive: true, force: true });
}
