import { resolve } from 'node:path';
import { agentSkillMarkdown } from '../../core/agent-skill-md.ts';
import { digestPrefix } from '../../core/digest.ts';
import { discoveryName } from '../../core/names.ts';
import type { SkillManifest } from '../../core/schemas/manifest.ts';
import type { RegistryIndex } from '../../core/schemas/registry-index.ts';
import type { SkillExecutionOutcome } from '../../core/schemas/outcome.ts';
import { Registry } from '../registry.ts';
import { RegistryError } from '../../core/errors/registry-error.ts';
import { parseToolId, scriptFile } from '../tool-id.ts';
import { checkRegistryPath, oncePastCache, type RegistryTransport, type TransportReadOptions } from '../transport.ts';
import { verifySkillFiles } from '../verify.ts';
import { archiveSizeBound, readSkillArchive } from './archive.ts';
import { containedPath } from './contained-path.ts';
import { fsError } from './fs-error.ts';
import { type InstallLayout, installDestination, replaceRefusal, verifyInstalled, writeSkillDir } from './install.ts';
import { type RunOptions, runSkill } from './run.ts';
import { type AbpCallOptions, type AbpToolResult, callAbpTool } from './abp-tool.ts';
import { zodShapeCheck } from './zod-shape-check.ts';

export interface InstallOptions {
  /** An agent under `dir`: an id from `AGENT_SKILL_FOLDERS` (`claude-code`, `cursor`, …), `claude`, `agents`, or the folder. */
  to?: string;
  /** Download the `.tar.gz` (one request, default) or each file. Both are verified the same way. */
  via?: 'archive' | 'files';
  /** Download progress in bytes. */
  onProgress?: TransportReadOptions['onProgress'];
  /** Replace what is at the destination even when it is not an earlier install of this skill. */
  force?: boolean;
}

export interface InstallResult {
  name: string;
  /** The version installed. */
  version: string;
  dir: string;
  digest: string;
  files: number;
  /** False when an identical verified copy was already installed. */
  changed: boolean;
}

const decoder = new TextDecoder();

/**
 * A registry with the Node-only operations: install to disk, resolve script paths, run skills.
 * Everything written or executed has passed digest verification first. Create it with the Node
 * `openRegistry`.
 */
export class NodeRegistry extends Registry {
  /** Holds the HTTP cache (`http/`) and the verified copies skills run from (`skills/`). */
  readonly cacheDir: string;
  readonly #preparing = new Map<string, Promise<string>>();

  constructor(index: RegistryIndex, transport: RegistryTransport, cacheDir: string, maxDocumentBytes?: number, verifiedBy?: string) {
    super(index, transport, zodShapeCheck, maxDocumentBytes, verifiedBy);
    this.cacheDir = cacheDir;
  }

  /**
   * All files of a skill, verified file by file and against the tree digest, in memory.
   * Falls back to per-file downloads when the archive cannot be fetched.
   */
  async verifiedFiles(name: string, options: InstallOptions = {}): Promise<Map<string, Uint8Array>> {
    // Reading the manifest refused one that lists too many files or declares too many bytes (checkFileCount, checkDeclaredSize).
    const manifest = await this.manifest(name);
    if (options.via !== 'files') {
      const bound = archiveSizeBound(manifest);
      const read = (fresh: boolean) => this.transport.read(checkRegistryPath(manifest.urls.archive), { onProgress: options.onProgress, maxBytes: bound.gzip, fresh });
      let archive: Uint8Array | undefined;
      try {
        archive = await read(false);
      } catch (error) {
        if (options.via === 'archive' || !(error instanceof RegistryError) || error.code !== 'FETCH_FAILED') throw error;
      }
      if (archive) {
        const first = archive;
        return oncePastCache('VERIFICATION_FAILED', async (fresh) => {
          const files = await readSkillArchive(fresh ? await read(true) : first, `${manifest.name} ${manifest.urls.archive}`, bound.tar);
          await verifySkillFiles(manifest, files);
          return files;
        });
      }
    }
    return this.files(name, { onProgress: options.onProgress });
  }

  /**
   * Installs a skill into `dir/<name>` (or `dir/.claude/skills/<name>` with `to: 'claude'`, and so
   * on for every agent in `AGENT_SKILL_FOLDERS`). The download is verified completely — every
   * file's sha256, no extra or missing file, the tree digest — before anything is written, and the
   * folder is replaced atomically. A skill.json function goes into its kebab-case folder with a
   * generated SKILL.md beside its files, so Agent Skills clients (Claude Code, …) discover it.
   * `name@version` or `name@range` installs an earlier version, verified through the versions
   * document (see `manifest`), into the same folder.
   *
   * @example
   * await registry.install('pdf', process.cwd(), { to: 'claude' });
   * // { name: 'pdf', version: '2.0.0', dir: '/project/.claude/skills/pdf', files: 3, changed: true, … }
   * await registry.install('pdf@^1', process.cwd(), { to: 'claude' }); // the highest 1.x
   */
  async install(name: string, dir: string = process.cwd(), options: InstallOptions = {}): Promise<InstallResult> {
    const manifest = await this.manifest(name);
    const folder = discoveryName(manifest.name, manifest.format);
    const dest = installDestination(dir, folder, options.to);
    const refusal = options.force ? undefined : await replaceRefusal(dest, [manifest.name, folder], this.#layout(manifest), (version) => this.#layoutOfVersion(manifest, version));
    if (refusal) {
      throw new RegistryError('INSTALL_FAILED', `'${dest}' already exists and ${refusal}; nothing was changed`, {
        hint: 'move it away or install into another folder (--dir); --force replaces it, deleting what is there',
      });
    }
    const files = await this.verifiedFiles(name, options);
    const generated = this.#generatedFiles(manifest);
    const { changed } = await writeSkillDir(manifest, files, dest, { generated }).catch((error: unknown) => {
      throw fsError(error, dest);
    });
    return { name: manifest.name, version: manifest.version, dir: dest, digest: manifest.digest, files: files.size + generated.size, changed };
  }

  /** What an install of `manifest` writes into its folder. */
  #layout(manifest: SkillManifest): InstallLayout {
    return { version: manifest.version, files: manifest.files, generated: this.#generatedFiles(manifest) };
  }

  /**
   * What an install of another `version` of the skill wrote, read through the versions document,
   * for a folder that declares that version: an update may drop files the other version published.
   * Undefined when the registry does not publish that version (then the folder must match the one
   * being installed).
   */
  async #layoutOfVersion(current: SkillManifest, version: string): Promise<InstallLayout | undefined> {
    const listed = (await this.versions(current.name)).versions.some((v) => v.version === version);
    if (!listed) return undefined;
    const manifest = await this.manifest(`${current.name}@${version}`);
    return manifest.version === version ? this.#layout(manifest) : undefined;
  }

  /**
   * Files install writes beside the published ones: for a skill.json function, the same SKILL.md
   * the discovery index offers, naming in its run command the URL this client reads the registry
   * from (or, for a local build folder, the registry's public URL).
   */
  #generatedFiles(manifest: SkillManifest): Map<string, Uint8Array> {
    if (manifest.format !== 'skill-json' || manifest.files.some((file) => file.path === 'SKILL.md')) return new Map();
    const url = /^https?:/.test(this.root) ? this.root : this.index.registry.url;
    return new Map([['SKILL.md', new TextEncoder().encode(agentSkillMarkdown(manifest, url))]]);
  }

  /**
   * A verified, read-only copy of the skill in the cache, content-addressed by its digest, for
   * running. It is re-verified on every call, so an edited copy is replaced, never executed.
   */
  async runnableDir(name: string): Promise<string> {
    const manifest = await this.manifest(name);
    const dest = containedPath(resolve(this.cacheDir, 'skills'), manifest.name, digestPrefix(manifest.digest));
    // Parallel runs of one skill in this process share one preparation: two concurrent writers
    // would swap the folder under a run that already started from it.
    const pending = this.#preparing.get(dest);
    if (pending) return pending;
    const preparing = (async () => {
      try {
        await verifyInstalled(manifest, dest);
      } catch {
        const files = await this.verifiedFiles(name);
        try {
          await writeSkillDir(manifest, files, dest, { readOnly: true });
        } catch (error) {
          throw fsError(error, dest);
        }
        await verifyInstalled(manifest, dest);
      }
      return dest;
    })().finally(() => this.#preparing.delete(dest));
    this.#preparing.set(dest, preparing);
    return preparing;
  }

  /**
   * The skills manager's `get_skill_script_path`: the absolute path of `scripts/<script>` (by default the
   * skill's entry) inside a verified installed copy — the one in `dir` if given (as `install` wrote it), else the runtime's cache.
   *
   * @example
   * await registry.scriptPath('file-diff', 'compare.py'); // '/home/me/.cache/skilldex/skills/file-diff/…/scripts/compare.py'
   * await registry.scriptPath('skill:file-diff:compare');  // the same file, by its tool id
   */
  async scriptPath(name: string, script?: string, options: { dir?: string } = {}): Promise<string> {
    const manifest = await this.manifest(name);
    // The script may be a file name, its stem (`compare`) or a tool id; `name` itself may be a tool id.
    const relPath = scriptFile(manifest, script ?? parseToolId(name)?.script);
    let base: string;
    if (options.dir) {
      base = resolve(options.dir);
      try {
        await verifyInstalled(manifest, base, this.#generatedFiles(manifest));
      } catch (error) {
        throw new RegistryError('NOT_INSTALLED', `${base} is not a verified copy of ${manifest.name} ${manifest.version}`, { cause: error, hint: `reinstall it: skilldex install ${manifest.name}` });
      }
    } else {
      base = await this.runnableDir(name);
    }
    return containedPath(base, relPath);
  }

  /** A published text file of a skill, verified. */
  async fileText(name: string, path: string): Promise<string> {
    return decoder.decode(await this.file(name, path));
  }

  /**
   * Runs a skill and returns a SkillExecutionOutcome (see `runSkill` for the order of
   * checks). Code runs only from a verified copy, in a child process with a timeout that kills
   * its whole process group, a 10 MB output cap, an allowlisted environment and a fresh cwd.
   *
   * @example
   * const outcome = await registry.run('semver-tool', { version: '1.4.0-rc.2' }, { action: 'parse' });
   * if (outcome.status === 'success') console.log(outcome.output);
   */
  run(name: string, input: unknown, options: RunOptions = {}): Promise<SkillExecutionOutcome> {
    return runSkill(this, name, input, options);
  }

  /**
   * Calls one of a skill's ABP tools (`abp.tools`): the arguments are checked against the tool's
   * declaration, the skill runs as `run` runs it, and the answer has the ABP result shape
   * `{id, tool, result | error}` (docs/extended-package.md#abp-tools).
   *
   * @example
   * const call = await registry.callTool('unit-converter', 'convert', { value: 5, from: 'mi', to: 'km' });
   * if (call.result) console.log(call.result.output);
   */
  callTool(name: string, tool: string, args: unknown, options: AbpCallOptions = {}): Promise<AbpToolResult> {
    return callAbpTool(this, name, tool, args, options);
  }
}
