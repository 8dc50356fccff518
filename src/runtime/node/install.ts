import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { SkillManifest } from '../../core/schemas/manifest.ts';
import { SkilldexError } from '../skilldex-error.ts';
import { verifySkillFiles } from '../verify.ts';

/** Agent folders `--to` understands, relative to a project (or home) folder. */
export const AGENT_SKILL_FOLDERS = {
  claude: '.claude/skills',
  agents: '.agents/skills',
} as const;
export type AgentTarget = keyof typeof AGENT_SKILL_FOLDERS;

/**
 * Where `install` puts a skill: `<dir>/<agent folder>/<name>` with a `to` target (a key of
 * {@link AGENT_SKILL_FOLDERS} or the folder itself, e.g. `.claude/skills`), else `<dir>/<name>`.
 *
 * @example
 * installDestination('/project', 'pdf', 'claude'); // '/project/.claude/skills/pdf'
 */
export function installDestination(dir: string, name: string, to?: string): string {
  if (to === undefined || to === '') return resolve(dir, name);
  const folder = (AGENT_SKILL_FOLDERS as Record<string, string>)[to] ?? Object.values(AGENT_SKILL_FOLDERS).find((f) => f === to.replace(/\/+$/, ''));
  if (!folder) {
    throw new SkilldexError('INSTALL_FAILED', `unknown install target '${to}'`, {
      hint: `use one of ${Object.keys(AGENT_SKILL_FOLDERS).join(', ')} (${Object.values(AGENT_SKILL_FOLDERS).join(', ')}), or --dir for any folder`,
    });
  }
  return resolve(dir, folder, name);
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

/**
 * Checks an installed copy against its manifest: exactly the published files, byte for byte, and
 * the tree digest. Run before executing anything from disk, so a copy edited after install is
 * never run.
 *
 * @example
 * await verifyInstalled(manifest, '/project/.claude/skills/pdf'); // throws VERIFICATION_FAILED
 */
export async function verifyInstalled(manifest: SkillManifest, dir: string): Promise<void> {
  await verifySkillFiles(manifest, await readTree(dir));
}

const verifiesAt = (manifest: SkillManifest, dir: string): Promise<boolean> => verifyInstalled(manifest, dir).then(() => true, () => false);

const exists = async (path: string): Promise<boolean> => stat(path).then(() => true, () => false);

/** Scripts keep an executable bit; like the published archive, it follows from a `#!` first line. */
const modeOf = (bytes: Uint8Array): number => (bytes[0] === 0x23 && bytes[1] === 0x21 ? 0o755 : 0o644);

export interface WriteSkillResult {
  dir: string;
  /** False when an identical, verified copy was already there. */
  changed: boolean;
}

/**
 * Writes verified files into `dest` atomically: everything goes into a temporary sibling folder,
 * which replaces `dest` by rename only once complete. A reader sees the old copy or the new one,
 * never a mix, and a failure leaves `dest` as it was. `files` must already be verified.
 */
export async function writeSkillDir(manifest: SkillManifest, files: ReadonlyMap<string, Uint8Array>, dest: string, options: { readOnly?: boolean } = {}): Promise<WriteSkillResult> {
  if (await verifiesAt(manifest, dest)) return { dir: dest, changed: false };
  const parent = dirname(dest);
  await mkdir(parent, { recursive: true });
  const suffix = randomBytes(6).toString('hex');
  const temp = join(parent, `.${manifest.name}.${suffix}.tmp`);
  const old = join(parent, `.${manifest.name}.${suffix}.old`);
  try {
    for (const [path, bytes] of files) {
      const target = resolve(temp, path);
      if (!target.startsWith(temp + sep)) throw new SkilldexError('VERIFICATION_FAILED', `${manifest.name}: file path '${path}' leaves the skill folder`);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, bytes, { mode: modeOf(bytes) });
    }
    if (options.readOnly) await makeReadOnly(temp);
    // Another process (a parallel run of the same skill) may have put an identical copy in place
    // meanwhile; keep it rather than swapping a folder someone may be executing from.
    if (await verifiesAt(manifest, dest)) {
      await removeTree(temp);
      return { dir: dest, changed: false };
    }
    const hadOld = await exists(dest);
    if (hadOld) await rename(dest, old);
    try {
      await rename(temp, dest);
    } catch (error) {
      if (!(await verifiesAt(manifest, dest))) throw error;
      await removeTree(temp);
    }
    if (hadOld) await removeTree(old);
  } catch (error) {
    await removeTree(temp);
    throw error;
  }
  return { dir: dest, changed: true };
}

/** Read-only copies keep a running skill from editing itself (it must write to its own cwd). */
async function makeReadOnly(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const abs = join(entry.parentPath, entry.name);
    if (entry.isFile()) await chmod(abs, (await stat(abs)).mode & 0o555);
  }
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isDirectory()) await chmod(join(entry.parentPath, entry.name), 0o555);
  }
  await chmod(dir, 0o555);
}

/** rm -rf that also works on folders made read-only by {@link makeReadOnly}. */
export async function removeTree(dir: string): Promise<void> {
  if (!(await exists(dir))) return;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isDirectory()) await chmod(join(entry.parentPath, entry.name), 0o755).catch(() => {});
  }
  await chmod(dir, 0o755).catch(() => {});
  await rm(dir, { recursive: true, force: true });
}
