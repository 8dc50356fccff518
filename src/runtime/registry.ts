import { renderSkillLoad, toPrompt, type PromptStyle } from '../core/prompt.ts';
import type { SkillManifest } from '../core/schemas/manifest.ts';
import type { IndexEntry, RegistryIndex } from '../core/schemas/registry-index.ts';
import { createSearchIndex, type SearchIndex, searchIndex } from '../core/search.ts';
import { nameKey, toKebab } from '../core/names.ts';
import { closest } from '../core/suggest.ts';
import { visibleControls } from '../core/control-chars.ts';
import { parseToolId } from './tool-id.ts';
import { fillName } from '../core/url-template.ts';
import { type MatchOptions, matchTriggers, type TriggerMatch } from '../core/trigger-match.ts';
import { sha256Hex } from '../core/digest.ts';
import { functionSignature } from '../core/signature.ts';
import { checkAssetPath, isAssetPath } from './asset-path.ts';
import { parseJsonDocument } from './json-document.ts';
import { type ShapeCheck, structuralShapeCheck } from './shape-check.ts';
import type { SkillVersion, SkillVersions } from '../core/schemas/versions.ts';
import { parseSkillSpec } from './skill-spec.ts';
import { versionKey } from '../core/changelog.ts';
import { RegistryError } from '../core/errors/registry-error.ts';
import { checkRegistryPath, oncePastCache, type RegistryTransport, type TransportReadOptions } from './transport.ts';
import { checkDeclaredSize, checkFileCount, verificationFailure, verifyFile, verifySkillFiles } from './verify.ts';

export interface SearchOptions {
  /** At most this many results (default 10). */
  limit?: number;
  /** Only skills carrying every one of these tags (case-insensitive). */
  tags?: readonly string[];
  category?: string;
  format?: IndexEntry['format'];
  mode?: IndexEntry['mode'];
}

/** One ranked search result. */
export interface SearchResult {
  skill: IndexEntry;
  score: number;
}

/** The skills index's `skill search` output. */
export interface MatchedSkills {
  matched_skills: { name: string; description: string }[];
}

/** What {@link Registry.load} returns: everything an agent needs to follow or call a skill. */
export interface LoadedSkill {
  name: string;
  format: IndexEntry['format'];
  mode: IndexEntry['mode'];
  manifest: SkillManifest;
  /** The complete SKILL.md (frontmatter and body), verified against its digest, when the skill has one. */
  skillMd?: string;
  /** The llm-mode system prompt (`prompt.md`). */
  prompt?: string;
  /** The Markdown an agent follows: the SKILL.md body, or for skill.json the signature plus the prompt. */
  body: string;
  /** The skills index's `skill load` rendering: `# Skill: <name>` + blank line + body. */
  text: string;
}

export interface ToPromptOptions {
  style?: PromptStyle;
}

const decoder = new TextDecoder();
const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/;

/** The SKILL.md body: everything after a frontmatter block closed by `---` on its own line. */
export const skillMdBody = (text: string): string => text.replace(FRONTMATTER, '').replace(/^(\r?\n)+/, '');

/** The Markdown shown for a skill.json skill: what it does, its signature, its prompt. */
function functionBody(manifest: SkillManifest, prompt: string | undefined): string {
  const lines = [manifest.description, '', '## Signature', '', '```ts', functionSignature(manifest.name, manifest.inputSchema, manifest.outputSchema), '```'];
  lines.push('', '## Input schema', '', '```json', JSON.stringify(manifest.inputSchema ?? {}, null, 2), '```');
  lines.push('', '## Output schema', '', '```json', JSON.stringify(manifest.outputSchema ?? {}, null, 2), '```');
  if (manifest.calls.length > 0) lines.push('', '## Calls', '', ...manifest.calls.map((call) => `- ${call}`));
  if (prompt) lines.push('', '## Prompt', '', prompt.trimEnd());
  return `${lines.join('\n')}\n`;
}

/**
 * Parses and checks an `index.json`: the major version first (a new major is an incompatible
 * shape, so it is refused before anything else is read), then the schema.
 */
/**
 * The index.json major version this client reads. It mirrors INDEX_FORMAT_VERSION in
 * core/schemas/registry-index.ts (a test keeps them equal); importing that module would pull zod
 * into the browser bundle.
 */
export const SUPPORTED_INDEX_MAJOR = '2';

/**
 * The most bytes a client reads for index.json, and for one manifest. A generated registry's
 * index takes about 1 KB a skill (10 MB at 10,000 skills); a manifest, which lists the files,
 * about 5 KB. Everything else a registry serves is capped by the sizes its manifest declares.
 */
export const DEFAULT_MAX_INDEX_BYTES = 64 * 1024 * 1024;

/** A format version as registries write it: semver, `2.0.0`. */
const FORMAT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

export function parseRegistryIndex(bytes: Uint8Array, where: string, shapes: ShapeCheck = structuralShapeCheck): RegistryIndex {
  const raw = parseJsonDocument(bytes, `${where}: index.json`, 'INDEX_INVALID', 'is this the registry root?');
  const version = (raw as { version?: unknown } | null)?.version;
  if (typeof version !== 'string' || !FORMAT_VERSION.test(version)) {
    // Not a version to compare at all (a number, `2.x`): saying "2; this client reads 2.x" helped nobody.
    const shown = typeof version === 'string' ? JSON.stringify(visibleControls(version.slice(0, 40))) : typeof version === 'number' ? String(version) : version === undefined ? 'missing' : `a ${version === null ? 'null' : typeof version}`;
    throw new RegistryError('INDEX_INVALID', `${where}: index.json's "version" must be a format version such as "${SUPPORTED_INDEX_MAJOR}.0.0"; it is ${shown}`, {
      hint: 'nothing was read from this registry; is this a Skilldex registry root? (see docs/registry-format.md#format-versions)',
    });
  }
  const major = version.split('.')[0];
  if (major !== SUPPORTED_INDEX_MAJOR) {
    // 1.x listed every file in the index; this client reads file lists from the manifests only.
    const older = Number(major) < Number(SUPPORTED_INDEX_MAJOR);
    throw new RegistryError('INDEX_VERSION_UNSUPPORTED', `${where}: index.json has format version ${JSON.stringify(version)}; this client reads ${SUPPORTED_INDEX_MAJOR}.x`, {
      hint: older
        ? "the registry was built by an older skilldex: rebuild it with this one ('skilldex build'), or read it with the release that built it (see docs/registry-format.md#format-versions)"
        : 'upgrade skilldex, or point --registry at a registry built for this version (see docs/registry-format.md#format-versions)',
    });
  }
  const parsed = shapes.index(raw);
  if (!parsed.ok) {
    throw new RegistryError('INDEX_INVALID', `${where}: index.json does not match the RegistryIndex schema (${parsed.issues.slice(0, 3).join('; ')})`, {
      details: parsed.issues,
      hint: 'nothing was read from this registry; if it is yours, rebuild it with this version of skilldex, else report it to its maintainers',
    });
  }
  return parsed.value;
}

/**
 * A published registry, read through a transport. Browser-safe: every method uses only the
 * transport (fetch) and WebCrypto, and every file it returns has been checked against its digest.
 * Create one with `openRegistry`.
 */
export class Registry {
  readonly index: RegistryIndex;
  readonly transport: RegistryTransport;
  #byName: Map<string, IndexEntry>;
  #byKebab: Map<string, IndexEntry[]>;
  #search: SearchIndex<IndexEntry> | undefined;
  /** Manifests by `name` (the current version) or `name@range` as asked for. */
  #manifests = new Map<string, Promise<SkillManifest>>();
  #versions = new Map<string, Promise<SkillVersions>>();
  #shapes: ShapeCheck;

  /** The most bytes read for index.json or one manifest (see {@link DEFAULT_MAX_INDEX_BYTES}). */
  readonly maxDocumentBytes: number;
  /**
   * The id of the pinned key that signed this index, or undefined when the index was read
   * without a pinned key (its files still match its digests, but nothing ties it to its maintainers).
   */
  readonly verifiedBy: string | undefined;

  constructor(index: RegistryIndex, transport: RegistryTransport, shapes: ShapeCheck = structuralShapeCheck, maxDocumentBytes = DEFAULT_MAX_INDEX_BYTES, verifiedBy?: string) {
    this.index = index;
    this.verifiedBy = verifiedBy;
    this.transport = transport;
    this.#shapes = shapes;
    this.maxDocumentBytes = maxDocumentBytes;
    this.#byName = new Map();
    for (const skill of index.skills) {
      // The build never publishes two names that differ only in case; a registry that does would
      // have `install okskill` fetch `OKSKILL`. Refused as a whole, like any other forged index.
      const key = nameKey(skill.name);
      const other = this.#byName.get(key);
      if (other) {
        const listed = other.name === skill.name ? `'${skill.name}' twice` : `both '${other.name}' and '${skill.name}', which differ only in case`;
        throw new RegistryError('INDEX_INVALID', `${transport.root}: index.json lists ${listed}`, {
          hint: 'nothing was read from this registry; report it to its maintainers',
        });
      }
      this.#byName.set(key, skill);
    }
    this.#byKebab = new Map();
    for (const skill of index.skills) {
      const key = toKebab(skill.name.toLowerCase());
      this.#byKebab.set(key, [...(this.#byKebab.get(key) ?? []), skill]);
    }
  }

  /** The registry root (URL ending in `/`, or a folder). */
  get root(): string {
    return this.transport.root;
  }

  /**
   * Every skill in the index, in index order.
   *
   * @example
   * registry.list().map((skill) => skill.name);
   */
  list(): IndexEntry[] {
    return [...this.index.skills];
  }

  /**
   * The index entry for `name` (case-insensitive), or undefined. A skill.json function is also
   * found by its kebab-case form (`code-review` for `code_review`), the name Agent Skills clients
   * and the installed folder use, unless that spelling is ambiguous. A tool id from the index's
   * `tools` (`skill:<name>:<script>`) finds its skill.
   */
  find(name: string): IndexEntry | undefined {
    const tool = parseToolId(name);
    const key = nameKey(tool?.name ?? name);
    const spelled = this.#byKebab.get(toKebab(key));
    const found = this.#byName.get(key) ?? (spelled?.length === 1 ? spelled[0] : undefined);
    // A tool id finds its skill only when the skill has that tool: `skill:pdf:../../x` or a
    // script the skill does not publish must not stand for the skill itself.
    return tool?.script === undefined || (found && hasTool(found, tool.script)) ? found : undefined;
  }

  /**
   * The index entry for `name`; throws `SKILL_NOT_FOUND` with close matches as the hint, or
   * `ASSET_NOT_FOUND` with the skill's tools for a tool id naming a tool its skill does not have.
   */
  entry(name: string): IndexEntry {
    const found = this.find(name);
    if (found) return found;
    const tool = parseToolId(name);
    const owner = tool?.script === undefined ? undefined : this.find(tool.name);
    if (owner) {
      throw new RegistryError('ASSET_NOT_FOUND', `${owner.name} has no tool '${name}'`, { hint: owner.tools.length > 0 ? `its tools are ${owner.tools.join(', ')}` : `${owner.name} publishes no scripts; name the skill alone` });
    }
    throw new RegistryError('SKILL_NOT_FOUND', `no skill named '${name}' in ${this.root}`, { hint: this.notFoundHint(name) });
  }

  /**
   * What to say when no skill is called `name`: the names it may have meant (a misspelling of one,
   * then the best search matches), or how to list them all.
   */
  notFoundHint(name: string): string {
    const typo = closest(name, this.index.skills.map((s) => s.name));
    const close = [...new Set([...(typo ? [typo] : []), ...this.search(name, { limit: 3 }).map((hit) => hit.skill.name)])].slice(0, 3);
    // The library serves the CLI and the MCP server alike: name both ways of listing.
    return close.length > 0 ? `did you mean ${close.map((c) => `'${c}'`).join(', ')}?` : 'list the skills: `skilldex list` on the command line, the list_skills tool over MCP';
  }

  /**
   * Ranks skills against a query (BM25F over name, title, description, tags and keywords; Chinese
   * and Japanese split into character bigrams). `shape: 'matched_skills'` returns the skills index's
   * `{matched_skills: [{name, description}]}`.
   *
   * @example
   * registry.search('pdf forms', { limit: 5 });
   * registry.search('代码审查', { shape: 'matched_skills' }); // { matched_skills: [...] }
   */
  search(query: string, options: SearchOptions & { shape: 'matched_skills' }): MatchedSkills;
  search(query: string, options?: SearchOptions & { shape?: 'results' }): SearchResult[];
  search(query: string, options: SearchOptions & { shape?: 'results' | 'matched_skills' } = {}): SearchResult[] | MatchedSkills {
    this.#search ??= createSearchIndex(this.index.skills);
    const tags = (options.tags ?? []).map((tag) => tag.toLowerCase());
    const category = options.category?.toLowerCase();
    const filter =
      tags.length === 0 && !category && !options.format && !options.mode
        ? undefined
        : (skill: IndexEntry) =>
            tags.every((tag) => skill.tags.some((t) => t.toLowerCase() === tag)) &&
            (!category || skill.category?.toLowerCase() === category) &&
            (!options.format || skill.format === options.format) &&
            (!options.mode || skill.mode === options.mode);
    const hits = searchIndex(this.#search, query, { limit: options.limit ?? 10, filter }).map((hit) => ({ skill: hit.doc, score: hit.score }));
    if (options.shape === 'matched_skills') return { matched_skills: hits.map((hit) => ({ name: hit.skill.name, description: hit.skill.description })) };
    return hits;
  }

  /**
   * The skills whose `triggers` fire for a user message (and, optionally, an event), best first:
   * by trigger priority, then by search score. The rules (case, word boundaries, Chinese and
   * Japanese, punctuation) are in docs/extended-package.md#trigger-matching. Reads only index.json.
   *
   * @example
   * registry.match('convert 5 miles to km');                       // [{ skill: unit-converter…, fired: { phrases: ['convert'] } }]
   * registry.match('', { event: 'meeting.ended' }).map((m) => m.skill.name);
   */
  match(message: string, options: MatchOptions = {}): TriggerMatch<IndexEntry>[] {
    this.#search ??= createSearchIndex(this.index.skills);
    return matchTriggers(this.index.skills, message, options, this.#search);
  }

  /**
   * The skill's manifest (`skills/<name>.json`), checked against its schema and against the
   * index: same name, same tree digest. `name@version` or `name@range` (`pdf@1.2.0`,
   * `pdf@^1.2`) gives the manifest of the highest published version the range admits, verified
   * through the versions document the current manifest pins; no match throws `VERSION_NOT_FOUND`
   * listing the versions there are. Every method that takes a skill name takes this form too.
   *
   * @example
   * await registry.manifest('pdf');       // the current version
   * await registry.manifest('pdf@^1.2');  // the highest 1.x from 1.2.0 on
   */
  manifest(name: string): Promise<SkillManifest> {
    let skill: string;
    let range: string | undefined;
    let entry: IndexEntry;
    try {
      ({ name: skill, range } = parseSkillSpec(name));
      entry = this.entry(skill);
    } catch (error) {
      return Promise.reject(error);
    }
    const key = range === undefined ? entry.name : `${entry.name}@${range}`;
    let pending = this.#manifests.get(key);
    if (!pending) {
      pending = range === undefined ? this.#fetchManifest(entry) : this.#versionManifest(entry, range);
      this.#manifests.set(key, pending);
      pending.catch(() => this.#manifests.delete(key));
    }
    return pending;
  }

  /**
   * Every published version of a skill, the highest first, from its versions document
   * (docs/registry-format.md#versions): verified against the digest the current manifest pins,
   * its shape checked, and refused as a whole when it names another skill, lists a version twice,
   * or describes the current version differently from the index. A registry built before
   * versions were published lists the current version only.
   *
   * @example
   * (await registry.versions('pdf')).versions.map((v) => v.version); // ['2.0.0', '1.1.0', '1.0.0']
   */
  versions(name: string): Promise<SkillVersions> {
    let entry: IndexEntry;
    try {
      entry = this.entry(parseSkillSpec(name).name);
    } catch (error) {
      return Promise.reject(error);
    }
    let pending = this.#versions.get(entry.name);
    if (!pending) {
      pending = this.manifest(entry.name).then((current) => this.#fetchVersions(current));
      this.#versions.set(entry.name, pending);
      pending.catch(() => this.#versions.delete(entry.name));
    }
    return pending;
  }

  async #fetchVersions(current: SkillManifest): Promise<SkillVersions> {
    const pin = current.versions;
    if (!pin) return { name: current.name, versions: [{ version: current.version, digest: current.digest }] };
    const where = checkRegistryPath(pin.url);
    const refuse = (problem: string, details?: unknown) =>
      new RegistryError('VERSIONS_INVALID', `${where}: ${problem}`, {
        details,
        hint: 'no version of this skill was used from it; retry, or report it to the registry maintainers',
      });
    if (pin.size > this.maxDocumentBytes) throw refuse(`the manifest pins ${pin.size} bytes, more than this client reads (${this.maxDocumentBytes})`);
    const bytes = await oncePastCache('VERIFICATION_FAILED', async (fresh) => {
      const read = await this.transport.read(where, { maxBytes: pin.size, fresh });
      const actual = `sha256:${await sha256Hex(read)}`;
      if (actual !== pin.digest) throw new RegistryError('VERIFICATION_FAILED', `${where} has digest ${actual}, but ${current.urls.manifest} pins ${pin.digest}`, { hint: 'the versions document was changed after the manifest was built; nothing of it was used. Retry, or report it to the registry maintainers' });
      return read;
    });
    const raw = parseJsonDocument(bytes, where, 'VERSIONS_INVALID');
    const parsed = (this.#shapes.versions ?? structuralShapeCheck.versions)(raw);
    if (!parsed.ok) throw refuse(`does not match the SkillVersions schema (${parsed.issues.slice(0, 3).join('; ')})`, parsed.issues);
    const problem = versionsProblem(parsed.value, current);
    if (problem) throw refuse(problem);
    return parsed.value;
  }

  /** The manifest of the version `range` selects: the current one, or an earlier one the versions document pins. */
  async #versionManifest(entry: IndexEntry, range: string): Promise<SkillManifest> {
    const current = await this.manifest(entry.name);
    // The current version by its exact name needs nothing more (also when it is not semver).
    if (range === current.version) return current;
    const document = await this.versions(entry.name);
    const { selectVersion } = await import('./version-range.ts');
    const listed = document.versions.map((v) => v.version);
    const available = listed.length > 0 ? `available: ${listed.join(', ')}` : 'no version is published';
    const selected = selectVersion(listed, range);
    if (typeof selected === 'object') {
      throw new RegistryError('VERSION_NOT_FOUND', `'${range}' is not a version or a semver range (${entry.name})`, {
        hint: `${available}; write ${entry.name}@<version> (1.2.0) or a range (^1.2, ~1.2.3, >=1 <2)`,
      });
    }
    const chosen = document.versions.find((v) => v.version === selected);
    if (!chosen) {
      throw new RegistryError('VERSION_NOT_FOUND', `no version of ${entry.name} in ${this.root} matches ${range}`, { details: listed, hint: `${available}; install one with ${entry.name}@<version>` });
    }
    // versionsProblem() checked that only the current version comes without a manifest of its own.
    if (chosen.manifest === undefined || chosen.manifestDigest === undefined) return current;
    return this.#fetchOlderManifest(entry, chosen, chosen.manifest, chosen.manifestDigest);
  }

  async #fetchOlderManifest(entry: IndexEntry, version: SkillVersion, where: string, digest: string): Promise<SkillManifest> {
    const manifest = await this.#readManifest(checkRegistryPath(where), digest, 'the versions document');
    if (manifest.name !== entry.name || manifest.version !== version.version || manifest.digest !== version.digest) {
      throw new RegistryError('VERIFICATION_FAILED', `${where} names ${manifest.name} ${manifest.version} ${manifest.digest} but the versions document lists ${entry.name} ${version.version} ${version.digest}`, {
        hint: 'the versions document and the manifest come from different builds; retry, or report it to the registry maintainers',
      });
    }
    return manifest;
  }

  /** Where the skill's manifest is, relative to the root: the index's template filled with the name. */
  manifestPath(entry: IndexEntry): string {
    return checkRegistryPath(fillName(this.index.urls.manifest, entry.name));
  }

  async #fetchManifest(entry: IndexEntry): Promise<SkillManifest> {
    const where = this.manifestPath(entry);
    // The index pins the manifest's bytes: with a signed index that is the chain index → manifest → files.
    const manifest = await this.#readManifest(where, entry.manifestDigest, 'the index');
    if (manifest.name !== entry.name || manifest.digest !== entry.digest) {
      throw new RegistryError('VERIFICATION_FAILED', `${where} names ${manifest.name} ${manifest.digest} but the index lists ${entry.name} ${entry.digest}`, {
        hint: 'the index and the manifest come from different builds; retry, or report it to the registry maintainers',
      });
    }
    return manifest;
  }

  /** Reads a manifest whose bytes `pinnedBy` pins to `digest`, and checks its shape. */
  async #readManifest(where: string, digest: string, pinnedBy: string): Promise<SkillManifest> {
    const bytes = await oncePastCache('VERIFICATION_FAILED', async (fresh) => {
      const read = await this.transport.read(where, { maxBytes: this.maxDocumentBytes, fresh });
      const actual = `sha256:${await sha256Hex(read)}`;
      if (actual !== digest) {
        throw new RegistryError('VERIFICATION_FAILED', `${where} has digest ${actual}, but ${pinnedBy} pins ${digest}`, {
          hint: `the manifest was changed after ${pinnedBy} was built; nothing of this skill was used. Retry, or report it to the registry maintainers`,
        });
      }
      return read;
    });
    const raw = parseJsonDocument(bytes, where, 'MANIFEST_INVALID');
    // Counted before the shape check, which is what a forged list of half a million files costs.
    checkFileCount(raw, this.transport.locate(where));
    const parsed = this.#shapes.manifest(raw);
    if (!parsed.ok) {
      throw new RegistryError('MANIFEST_INVALID', `${where} does not match the SkillManifest schema (${parsed.issues.slice(0, 3).join('; ')})`, {
        details: parsed.issues,
        hint: 'nothing of this skill was used; if the registry is yours, rebuild it with this version of skilldex, else report it to its maintainers',
      });
    }
    // Every read of a file stops at its declared size; here that size is bounded too.
    checkDeclaredSize(parsed.value, this.transport.locate(where));
    return parsed.value;
  }

  /**
   * One published file of a skill, verified against its digest. On a mismatch it is fetched once
   * more bypassing caches before giving up, so a stale cache can never serve altered bytes.
   */
  async file(name: string, path: string, options: TransportReadOptions = {}): Promise<Uint8Array> {
    const manifest = await this.manifest(name);
    const declared = manifest.files.find((file) => file.path === path);
    if (!declared) {
      throw new RegistryError('ASSET_NOT_FOUND', `${manifest.name} has no file '${path}'`, { hint: `files: ${manifest.files.map((f) => f.path).join(', ')}` });
    }
    return oncePastCache(
      'VERIFICATION_FAILED',
      async (fresh) => {
        const bytes = await this.#readDeclared(manifest, declared, { ...options, fresh });
        await verifyFile(manifest, path, bytes);
        return bytes;
      },
      options.fresh,
    );
  }

  /**
   * Reads one published file, stopping as soon as it passes the size the manifest declares: a
   * file larger than declared can never verify, so reading on would only let a hostile server
   * fill memory.
   */
  async #readDeclared(manifest: SkillManifest, file: SkillManifest['files'][number], options: TransportReadOptions): Promise<Uint8Array> {
    try {
      return await this.transport.read(checkRegistryPath(`${manifest.urls.files}${file.path}`), { ...options, maxBytes: file.size });
    } catch (error) {
      if (!(error instanceof RegistryError) || error.code !== 'RESPONSE_TOO_LARGE') throw error;
      throw verificationFailure(manifest.name, [{ path: file.path, problem: 'size-mismatch', expected: String(file.size), actual: `more than ${file.size}` }]);
    }
  }

  /**
   * Every file of a skill, each verified, and the set verified against the tree digest.
   *
   * @example
   * const files = await registry.files('pdf'); // Map { 'SKILL.md' => Uint8Array, … }
   */
  async files(name: string, options: TransportReadOptions = {}): Promise<Map<string, Uint8Array>> {
    const manifest = await this.manifest(name);
    const files = new Map<string, Uint8Array>();
    for (const file of manifest.files) files.set(file.path, await this.#readDeclared(manifest, file, options));
    await verifySkillFiles(manifest, files);
    return files;
  }

  /**
   * Loads a skill for an agent to follow (`load_skill`, `skill load`). The
   * name is matched case-insensitively.
   *
   * @example
   * const skill = await registry.load('Data-Analysis');
   * console.log(skill.text); // "# Skill: data-analysis\n\n…"
   */
  async load(name: string): Promise<LoadedSkill> {
    const manifest = await this.manifest(name);
    let skillMd: string | undefined;
    let prompt = manifest.prompt;
    // By `name` as given: `pdf@1.0.0` reads that version's files (its manifest is cached under that spec).
    if (manifest.files.some((file) => file.path === 'SKILL.md')) skillMd = decoder.decode(await this.file(name, 'SKILL.md'));
    if (prompt === undefined && manifest.files.some((file) => file.path === 'prompt.md')) prompt = decoder.decode(await this.file(name, 'prompt.md'));
    const body = manifest.format === 'skill-json' || skillMd === undefined ? functionBody(manifest, prompt) : skillMdBody(skillMd);
    return { name: manifest.name, format: manifest.format, mode: manifest.mode, manifest, skillMd, prompt, body, text: renderSkillLoad(manifest.name, body) };
  }

  /**
   * `list_skill_assets`: the files under references/, assets/ and scripts/.
   *
   * @example
   * await registry.listAssets('file-diff'); // ['references/FORMS.md', 'scripts/compare.py']
   */
  async listAssets(name: string): Promise<string[]> {
    const manifest = await this.manifest(name);
    return manifest.files.map((file) => file.path).filter(isAssetPath);
  }

  /**
   * `load_skill_asset`: the bytes of one asset, verified. Paths outside references/,
   * assets/ and scripts/, and every traversal trick, are refused before any request is made.
   */
  async loadAssetBytes(name: string, relPath: string): Promise<Uint8Array> {
    checkAssetPath(relPath);
    return this.file(name, relPath);
  }

  /**
   * `load_skill_asset` as text (UTF-8).
   *
   * @example
   * await registry.loadAsset('pdf', 'references/FORMS.md');
   */
  async loadAsset(name: string, relPath: string): Promise<string> {
    return decoder.decode(await this.loadAssetBytes(name, relPath));
  }

  /** Where an agent reads a skill's instructions: the published SKILL.md, or the manifest. */
  location(entry: IndexEntry): string {
    return this.transport.locate(entry.hasSkillMd ? checkRegistryPath(`${entry.path}SKILL.md`) : this.manifestPath(entry));
  }

  /**
   * The skills list for a system prompt: Agent Skills `<available_skills>` (default) or the skills index's
   * `<available-skills>`. With no names, every skill in the registry.
   *
   * @example
   * registry.toPrompt(['pdf', 'json-toolkit'], { style: 'available-skills' });
   */
  toPrompt(names?: readonly (string | IndexEntry)[], options: ToPromptOptions = {}): string {
    const entries = (names ?? this.index.skills).map((item) => (typeof item === 'string' ? this.entry(item) : item));
    return toPrompt(
      entries.map((entry) => ({ name: entry.name, description: entry.description, location: this.location(entry) })),
      options,
    );
  }
}

/**
 * What makes a versions document unusable for `current`, or undefined. Beyond its shape: it names
 * this skill, lists each version once (by semver precedence: no `v`, no build metadata), describes
 * the current version exactly as the index does (same tree digest, no manifest of its own), and
 * pins a manifest for every other version at a path inside the registry.
 */
export function versionsProblem(document: SkillVersions, current: Pick<SkillManifest, 'name' | 'version' | 'digest'>): string | undefined {
  if (document.name !== current.name) return `lists the versions of '${visibleControls(document.name)}', not of '${current.name}'`;
  const seen = new Set<string>();
  for (const v of document.versions) {
    const key = versionKey(v.version);
    if (seen.has(key)) return `lists version ${v.version} twice`;
    seen.add(key);
    if (key === versionKey(current.version)) {
      if (v.digest !== current.digest || v.manifest !== undefined) return `describes the current version ${current.version} differently from the index`;
      continue;
    }
    if (v.manifest === undefined || v.manifestDigest === undefined) return `pins no manifest for version ${v.version}`;
    try {
      checkRegistryPath(v.manifest);
    } catch {
      return `version ${v.version}'s manifest path leaves the registry root`;
    }
  }
  return undefined;
}

/**
 * Whether `script` (the part after `skill:<name>:`) names one of the entry's tools: as the index
 * lists it (`compare`), or with its file's extension (`compare.py`), as the runner also takes it.
 */
function hasTool(entry: IndexEntry, script: string): boolean {
  return entry.tools.some((id) => {
    const listed = parseToolId(id)?.script;
    return listed !== undefined && (script === listed || (script.startsWith(`${listed}.`) && /^\.[A-Za-z0-9]+$/.test(script.slice(listed.length))));
  });
}
