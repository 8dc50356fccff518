import pLimit from 'p-limit';
import { discoveryName, nameKey } from '../../core/names.ts';
import type { RegistryConfig } from '../../core/schemas/config.ts';
import { publishedJsonSchemas } from '../../core/schemas/json-schemas.ts';
import type { SkillManifest } from '../../core/schemas/manifest.ts';
import type { KeysDocument } from '../../core/schemas/signing.ts';
import { keyIdOf } from '../../core/signing.ts';
import { DISCOVERY_SCHEMA_URL, INDEX_FORMAT_VERSION, type DiscoveryIndexV1, type DiscoveryIndexV2, type IndexEntry, type RegistryIndex } from '../../core/schemas/registry-index.ts';
import { sha256HexSync } from '../hash.ts';
import { createArchive, packAgentForm, type ArchiveFile, type PackedSkill } from './archive.ts';
import { jsonText } from './json-text.ts';
import { OutputFolder } from './output-folder.ts';
import type { SkillOutput } from './skill-output.ts';
import { agentArchiveUrl, INDEX_FILE, INDEX_SCHEMA_FILE, INDEX_URL_TEMPLATES, KEYS_FILE, mirrorFiles, notDiscoverableReason, SIGNED_INDEX_FILE, WELL_KNOWN_V1, WELL_KNOWN_V2 } from './layout.ts';
import { signIndex, type SigningKey } from './sign.ts';

export interface PublishedSkill {
  manifest: SkillManifest;
  /** The skill's files, by path inside the skill. */
  files: readonly ArchiveFile[];
  /** Its archives, when they were packed already (on a worker thread, as the skill was read). */
  packed?: PackedSkill;
  /** Its versions document (pinned by `manifest.versions`) and each earlier version with its files. */
  versions?: { documentText: string; older: readonly { manifest: SkillManifest; files: readonly ArchiveFile[] }[] };
  /** What the skill's output is a function of (see {@link SkillOutput}); without one, its output is not returned. */
  outputKey?: string;
  /**
   * Its output as an earlier build wrote it, which the folder still holds unchanged
   * ({@link OutputFolder.keep}): nothing of the skill is read, packed or written again.
   */
  kept?: SkillOutput;
}

export interface WriteResult {
  index: RegistryIndex;
  discovery: DiscoveryIndexV2;
  /** Skills left out of the discovery indexes, with the reason. */
  notDiscoverable: { name: string; reason: string }[];
  /** Files written (relative to outDir), in order. */
  written: string[];
  /** Each skill's output, for the skills given an `outputKey`. */
  outputs: SkillOutput[];
}

/** Skills written at once. */
const WRITE_CONCURRENCY = 16;

const json = jsonText;

/**
 * Writes the static registry into `outDir`: index.json and its schema, per-skill manifests,
 * content-addressed raw files and archives, and both discovery indexes. Content-addressed files
 * that already exist are not rewritten (they cannot differ), which keeps rebuilds cheap. `into`
 * is the folder when the build wrote into it already (its content-addressed files, as it read them).
 */
export async function writeRegistry(
  outDir: string,
  skills: readonly PublishedSkill[],
  config: RegistryConfig,
  times: { generatedAt?: string; updatedAt?: string },
  signingKeys: readonly SigningKey[] = [],
  into?: OutputFolder,
): Promise<WriteResult> {
  assertDistinctDiscoveryNames(skills);
  const folder = into ?? new OutputFolder(outDir);
  const put: Put = (rel, data) => folder.put(rel, data);

  const entries: IndexEntry[] = [];
  const discovery: DiscoveryIndexV2 = { $schema: DISCOVERY_SCHEMA_URL, skills: [] };
  const legacy: DiscoveryIndexV1 = { skills: [] };
  const notDiscoverable: WriteResult['notDiscoverable'] = [];

  // Skills are written several at a time (the work is I/O) and collected back in their order.
  const limit = pLimit(WRITE_CONCURRENCY);
  const emitted = await Promise.all(skills.map((skill) => (skill.kept ? keptSkill(skill.manifest, skill.kept) : limit(() => emitSkill(skill, config, folder)))));
  const outputs: SkillOutput[] = [];
  for (const e of emitted) {
    if (e.output) outputs.push(e.output);
    entries.push(e.entry);
    if ('reason' in e) notDiscoverable.push({ name: e.entry.name, reason: e.reason });
    else {
      discovery.skills.push(e.discovery);
      legacy.skills.push(e.legacy);
    }
  }

  const discoveryText = json(discovery);
  const legacyText = json(legacy);
  const index: RegistryIndex = {
    $schema: INDEX_SCHEMA_FILE,
    version: INDEX_FORMAT_VERSION,
    registry: { title: config.title, ...(config.siteUrl ? { url: config.siteUrl } : {}) },
    urls: INDEX_URL_TEMPLATES,
    skills: entries,
    totalSkills: entries.length,
    totalTools: entries.reduce((n, e) => n + e.tools.length, 0),
    ...(times.generatedAt ? { generatedAt: times.generatedAt } : {}),
    ...(times.updatedAt ? { updatedAt: times.updatedAt } : {}),
    discovery: { [`${WELL_KNOWN_V2}/index.json`]: `sha256:${sha256HexSync(discoveryText)}`, [`${WELL_KNOWN_V1}/index.json`]: `sha256:${sha256HexSync(legacyText)}` },
  };
  const indexText = json(index);
  put(INDEX_FILE, indexText);
  const schemas = publishedJsonSchemas();
  put(INDEX_SCHEMA_FILE, json(schemas['index.schema.json']));
  for (const [name, schema] of Object.entries(schemas)) put(`schemas/${name}`, json(schema));
  put(`${WELL_KNOWN_V2}/index.json`, discoveryText);
  put(`${WELL_KNOWN_V1}/index.json`, legacyText);
  if (config.signing.keys.length > 0) put(KEYS_FILE, json(await keysDocument(config.signing.keys)));
  if (signingKeys.length > 0) put(SIGNED_INDEX_FILE, json(await signIndex(new TextEncoder().encode(indexText), signingKeys)));

  return { index, discovery, notDiscoverable, written: folder.finish(), outputs };
}

type Put = (rel: string, data: string | Uint8Array, immutable?: boolean) => void;
/** Writes a 0.1.0 mirror file, as a hard link to `sameAs` (relative to the output) when given. */
type Mirror = (rel: string, bytes: Uint8Array, sameAs?: string) => void;
type Emitted = ({ entry: IndexEntry; reason: string } | { entry: IndexEntry; discovery: DiscoveryIndexV2['skills'][number]; legacy: DiscoveryIndexV1['skills'][number] }) & { output?: SkillOutput };

/** The index and discovery entries of a skill whose output the folder holds already, from what was recorded of it. */
function keptSkill(m: SkillManifest, output: SkillOutput): Emitted {
  const entry = indexEntry(m, output.manifestDigest);
  // The key covers the manifest, so the reason is the one given when the skill was written.
  if (!output.discovery) return { entry, reason: notDiscoverableReason(m) ?? 'not discoverable', output };
  const { type, url, digest, files } = output.discovery;
  const name = discoveryName(m.name, m.format);
  return { entry, discovery: { name, type, description: m.description, url, digest }, legacy: { name, description: m.description, files }, output };
}

/**
 * Writes one version's content-addressed files and archive; returns the archive's bytes. An
 * archive packed already is taken as is; otherwise it is packed here. The one the last build wrote
 * under the same name is not read instead: whoever could write the folder since could have put
 * another there, and the archive's digest in the discovery index is taken from these bytes.
 */
async function emitContent(m: SkillManifest, files: readonly ArchiveFile[], put: Put, packed?: Uint8Array): Promise<Uint8Array> {
  for (const f of files) put(`${m.urls.files}${f.path}`, f.bytes, true);
  const archive = packed ?? (await createArchive(files));
  put(m.urls.archive, archive, true);
  return archive;
}

/** Writes one skill's files, archive and manifest, its earlier versions and versions document, and its discovery artifacts. */
async function emitSkill(skill: PublishedSkill, config: RegistryConfig, folder: OutputFolder): Promise<Emitted> {
  const mine: string[] = [];
  const put: Put = (rel, data, immutable) => {
    mine.push(rel);
    folder.put(rel, data, immutable);
  };
  const mirror: Mirror = (rel, bytes, sameAs) => {
    mine.push(rel);
    folder.mirror(rel, bytes, sameAs);
  };
  const written = await writeSkill(skill, config, { put, mirror });
  const files = mine.map((rel) => folder.writtenFile(rel));
  if (skill.outputKey === undefined || !files.every((f) => f !== undefined)) return written;
  const output: SkillOutput = {
    key: skill.outputKey,
    name: skill.manifest.name,
    files,
    manifestDigest: written.entry.manifestDigest,
    ...('discovery' in written ? { discovery: { type: written.discovery.type, url: written.discovery.url, digest: written.discovery.digest, files: written.legacy.files } } : {}),
  };
  return { ...written, output };
}

/**
 * Whether the folder still holds `last`, a skill's output as an earlier build wrote it, for this
 * skill and key: every file of it is the skill's own (its manifest, versions, content-addressed
 * files and archives, and its discovery files), its manifest and archive are among them, and each
 * is there as written ({@link OutputFolder.keep}, which then counts them as written by this build).
 */
export function keepOutput(folder: OutputFolder, m: SkillManifest, key: string, last: SkillOutput | undefined): last is SkillOutput {
  if (last?.key !== key || last.name !== m.name) return false;
  const wkName = discoveryName(m.name, m.format);
  const own = [`skills/${m.name}/`, `skills/${m.name}.`, `${WELL_KNOWN_V1}/${wkName}/`, `${WELL_KNOWN_V2}/${wkName}/`];
  const paths = new Set(last.files.map(([rel]) => rel));
  // Paths with a `..` segment never get here: the record's schema refuses them (core/schemas/file-stamp.ts).
  if (!paths.has(m.urls.manifest) || !paths.has(m.urls.archive) || ![...paths].every((rel) => own.some((prefix) => rel.startsWith(prefix)))) return false;
  return folder.keep(last.files);
}

async function writeSkill({ manifest: m, files, packed, versions }: PublishedSkill, config: RegistryConfig, { put, mirror }: { put: Put; mirror: Mirror }): Promise<Emitted> {
  for (const older of versions?.older ?? []) {
    await emitContent(older.manifest, older.files, put);
    put(older.manifest.urls.manifest, json(older.manifest));
  }
  if (versions && m.versions) put(m.versions.url, versions.documentText);
  const archivePath = m.urls.archive;
  const archive = await emitContent(m, files, put, packed?.archive);
  const manifestText = json(m);
  put(m.urls.manifest, manifestText);
  // The index pins each manifest by digest, so a signed index covers index → manifest → files.
  const entry = indexEntry(m, `sha256:${sha256HexSync(manifestText)}`);

  // Discovery indexes: Agent Skills clients need a valid kebab name and a SKILL.md at the root.
  const wkName = discoveryName(m.name, m.format);
  const reason = notDiscoverableReason(m);
  if (reason) return { entry, reason };
  let agentSkillMd: Uint8Array | undefined;
  let discovery: DiscoveryIndexV2['skills'][number];
  if (m.format === 'skill-json') {
    const agent = packed?.agent ?? (await packAgentForm(m, files, config.siteUrl));
    agentSkillMd = agent.skillMd;
    const url = agentArchiveUrl(m);
    put(`${WELL_KNOWN_V2}/${url}`, agent.archive);
    discovery = { name: wkName, type: 'archive', description: m.description, url, digest: `sha256:${sha256HexSync(agent.archive)}` };
  } else if (files.length === 1) {
    const only = files[0] as ArchiveFile;
    discovery = { name: wkName, type: 'skill-md', description: m.description, url: `../../${m.urls.files}SKILL.md`, digest: `sha256:${sha256HexSync(only.bytes)}` };
  } else {
    discovery = { name: wkName, type: 'archive', description: m.description, url: `../../${archivePath}`, digest: `sha256:${sha256HexSync(archive)}` };
  }
  const mirrored = mirrorFiles(m, files, agentSkillMd);
  for (const f of mirrored) mirror(f.rel, f.bytes, f.sameAs);
  return { entry, discovery, legacy: { name: wkName, description: m.description, files: mirrored.map((f) => f.path) } };
}

/**
 * The index.json entry: the skills index fields, what search and match read, and the digests that
 * pin the manifest. File lists, URLs and scan findings stay in the manifest (docs/registry-format.md#format-versions).
 */
export function indexEntry(m: SkillManifest, manifestDigest: string): IndexEntry {
  return {
    name: m.name,
    title: m.title,
    description: m.description,
    version: m.version,
    tags: m.tags,
    ...(m.author ? { author: m.author } : {}),
    tools: m.tools,
    scriptCount: m.tools.length,
    path: m.urls.files,
    hasSkillMd: m.hasSkillMd,
    ...(m.lastModified ? { lastModified: m.lastModified } : {}),
    format: m.format,
    mode: m.mode,
    ...(m.type ? { type: m.type } : {}),
    ...(m.category ? { category: m.category } : {}),
    keywords: m.keywords,
    ...(m.license ? { license: m.license } : {}),
    ...(m.triggers ? { triggers: m.triggers } : {}),
    ...(m.scan ? { verdict: m.scan.verdict } : {}),
    digest: m.digest,
    manifestDigest,
  };
}

/** keys.json: the configured keys with their ids, so people and clients can match `kid`s. */
async function keysDocument(keys: RegistryConfig['signing']['keys']): Promise<KeysDocument> {
  return { keys: await Promise.all(keys.map(async (k) => ({ kid: await keyIdOf(k.publicKey), ...k }))) };
}

/**
 * The validator rejects skills that share a published name (`registry/cross-format-collision`);
 * emitting them anyway would list one name twice and mix two skills' files in the 0.1.0 mirror.
 */
function assertDistinctDiscoveryNames(skills: readonly PublishedSkill[]): void {
  const seen = new Map<string, string>();
  for (const { manifest: m } of skills) {
    const key = nameKey(discoveryName(m.name, m.format));
    const other = seen.get(key);
    if (other !== undefined) throw new Error(`internal: '${m.name}' and '${other}' would be published under one discovery name '${key}'`);
    seen.set(key, m.name);
  }
}
