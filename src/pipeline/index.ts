/**
 * The registry build: discover → parse → validate → emit. Every export here is public API of
 * the build side (used by the CLI, the site build and the benchmarks).
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { RegistryConfig } from '../core/schemas/config.ts';
import type { ValidatorDiagnostic } from '../core/schemas/diagnostic.ts';
import type { SkillManifest } from '../core/schemas/manifest.ts';
import type { RegistryIndex } from '../core/schemas/registry-index.ts';
import { BuildCache } from './cache.ts';
import { defaultCacheFile } from './cache-file.ts';
import { loadConfig } from './config.ts';
import { sha256HexSync } from './hash.ts';
import { agentArchiveUrl, INDEX_FILE, mirrorFiles, notDiscoverableReason, SIGNED_INDEX_FILE, WELL_KNOWN_V1, WELL_KNOWN_V2 } from './emit/layout.ts';
import type { WriteResult } from './emit/write-registry.ts';
import { OutputFolder, REGISTRY_RECORD } from './emit/output-folder.ts';
import { OutputPlaceError } from './emit/output-place.ts';
import { outputPlaceProblem } from './emit/output-place-problem.ts';
import type { ReadSkill } from './phases/read.ts';
import { checkSigningKeys, signingKeysFromEnv, type SigningKey } from './emit/sign.ts';
import { gitCommitTimes, headCommitTime, lastCommitTime } from './git-times.ts';
import { versionKey } from '../core/changelog.ts';
import { withoutWithdrawn } from './history/withdrawn.ts';
import { sortDiagnostics } from './diagnostics.ts';
import { planVersions } from './emit/versions.ts';
import { checkOldVersions, readOldFiles } from './history/old-versions.ts';
import { readSkillHistories } from './history/read-history.ts';
import { usersOf } from './references.ts';
import { versionsHistoryIncomplete } from './rules/versions.ts';
import { checkedSourceDateEpoch, parseSourceDateEpoch } from './source-date-epoch.ts';
import { skillDirOf, validateRegistry, type RejectedSkill, type ValidateOptions } from './validate.ts';

export { validateRegistry, validateSkillFolder, type ValidationResult, type ValidationProgress, type RejectedSkill } from './validate.ts';
export { loadConfig } from './config.ts';
export { CONFIG_FILE } from './config-file.ts';
export { ConfigError } from './config-error.ts';
export { foreignOutputProblem, OutputPlaceError } from './emit/output-place.ts';
export { outputPlaceProblem } from './emit/output-place-problem.ts';
export { generateSigningKey, parseSigningKeys, type SigningKey } from './emit/sign.ts';

export interface BuildOptions {
  /** Registry repository root: holds skills/ and optionally skilldex.config.json. */
  root: string;
  /** Where the static registry is written: not the root, nor the skills folder or a folder in it ({@link OutputPlaceError}). */
  outDir: string;
  config?: RegistryConfig;
  /**
   * Import mode: publish every valid skill and list the rejected ones, instead of refusing to
   * write anything while any error remains.
   */
  lenient?: boolean;
  /**
   * Seconds since the epoch for skills git knows nothing about; defaults to $SOURCE_DATE_EPOCH (a
   * malformed one stops the build with a SourceDateEpochError), else such a time is left out.
   */
  sourceDateEpoch?: number;
  /** Run the security scanner (default true). */
  scan?: boolean;
  /**
   * Keys that sign `index.json` into `index.jws.json`. Default: from SKILLDEX_SIGNING_KEY or
   * SKILLDEX_SIGNING_KEY_FILE; none when neither is set. Each must be an active key of `signing.keys`.
   */
  signingKeys?: readonly SigningKey[];
  /**
   * The build cache file (src/pipeline/cache.ts), or false for none. Default:
   * `<root>/.cache/skilldex/build-cache.json`. Unchanged skills are not read, parsed or scanned
   * again, and an output folder that already holds this exact build is not rewritten.
   */
  cache?: string | false;
  /** Progress of validation and scanning, for a progress display. */
  onProgress?: ValidateOptions['onProgress'];
  /** Worker threads that read, check, scan and pack the skills (see {@link ValidateOptions.workers}); the output is the same either way. */
  workers?: ValidateOptions['workers'];
  /** The calling thread has work of its own meanwhile, as the site build's Vite (see {@link ValidateOptions.callerBusy}). */
  callerBusy?: boolean;
  /**
   * Called once every skill has been read and checked, when the build goes on to write: the
   * worker threads are done, and this thread alone writes the registry from then on, so the other
   * cores are free for the caller's own work (`skilldex build` walks the skills folder for its record then).
   */
  onSkillsRead?: () => void;
}

export interface BuildResult {
  /** False when errors stopped the build (strict mode) — nothing was written then. */
  ok: boolean;
  config: RegistryConfig;
  index?: RegistryIndex;
  manifests: SkillManifest[];
  diagnostics: ValidatorDiagnostic[];
  rejected: RejectedSkill[];
  notDiscoverable: WriteResult['notDiscoverable'];
  /** Cache hits and misses, when the cache was used. */
  cache?: BuildCache['stats'];
  /**
   * False when the registry is in a git repository whose history git could not read in full (git
   * missing or refusing, objects missing, a shallow clone): the output then depends on more than
   * the registry's files, and a build where git reads it may differ.
   */
  historyRead: boolean;
}

/**
 * Builds the static registry from a skills repository.
 *
 * @example
 * const result = await buildRegistry({ root: '.', outDir: 'dist' });
 * if (!result.ok) for (const d of result.diagnostics) console.error(d.file, d.line, d.rule, d.message);
 */
export async function buildRegistry(options: BuildOptions): Promise<BuildResult> {
  const config = options.config ?? (await loadConfig(options.root));
  const misplaced = outputPlaceProblem(options.root, config.skillsDir, options.outDir);
  if (misplaced) throw new OutputPlaceError(misplaced);
  const signingKeys = options.signingKeys ?? (await signingKeysFromEnv());
  checkSigningKeys(signingKeys, config.signing.keys);
  // A malformed SOURCE_DATE_EPOCH stops the build before it reads a skill.
  const envEpoch = parseSourceDateEpoch(process.env.SOURCE_DATE_EPOCH);
  const epoch = { fallback: options.sourceDateEpoch === undefined ? envEpoch : checkedSourceDateEpoch(options.sourceDateEpoch), pinned: envEpoch !== undefined };
  const cacheFile = options.cache === false ? undefined : (options.cache ?? defaultCacheFile(options.root));
  const cache = cacheFile === undefined ? undefined : await BuildCache.forBuild(cacheFile, config, { scan: options.scan !== false });
  // Each skill's content-addressed files and archive are written as soon as it is read, while the
  // workers read the next ones, instead of all after validation; the folder takes back what ends
  // up unpublished, and everything when the build stops (./emit/output-folder.ts).
  const folder = new OutputFolder(options.outDir);
  try {
    return await build(options, config, signingKeys, cache, folder, epoch);
  } catch (error) {
    folder.undo();
    throw error;
  }
}

/**
 * The files whose stamps prove that an output folder still holds what a build wrote there: the
 * indexes, rewritten by any build that changes anything, and the folder's record.
 */
export const OUTPUT_PROOF: readonly string[] = [INDEX_FILE, `${WELL_KNOWN_V2}/index.json`, `${WELL_KNOWN_V1}/index.json`, REGISTRY_RECORD, SIGNED_INDEX_FILE];

/**
 * The facts a published manifest adds to its draft, with the draft's digest and folder: the
 * draft itself is a function of those, the config and the build code (the cache's salt), so a
 * skill's whole output is a function of these facts.
 */
const outputFacts = (m: SkillManifest) => [m.name, m.digest, m.sourcePath, m.calledBy, m.usedBy, m.lastModified, m.diagnostics, m.scan, m.versions?.digest];

/** A skill's content-addressed files and archive, and its discovery files, written as soon as it is read (when it was packed: no error of its own). */
function writeEarly(folder: OutputFolder, { draft, packed, source }: ReadSkill): void {
  if (!draft || !packed) return;
  for (const f of source.files) folder.putEarly(`${draft.urls.files}${f.path}`, f.bytes);
  folder.putEarly(draft.urls.archive, packed.archive);
  // The discovery files while the worker threads are still reading: written after the
  // registry-wide checks, they were a quarter of the build's last, single-threaded stretch.
  if (notDiscoverableReason(draft)) return;
  if (packed.agent) folder.writeEarly(`${WELL_KNOWN_V2}/${agentArchiveUrl(draft)}`, packed.agent.archive);
  for (const f of mirrorFiles(draft, source.files, packed.agent?.skillMd)) folder.writeEarly(f.rel, f.bytes, f.sameAs);
}

/**
 * `epoch.fallback`: the time of skills git knows nothing about (undefined: such a time is left
 * out, never shown as 1970); `epoch.pinned`: SOURCE_DATE_EPOCH is set, and dates the index too.
 */
async function build(options: BuildOptions, config: RegistryConfig, signingKeys: readonly SigningKey[], cache: BuildCache | undefined, folder: OutputFolder, epoch: { fallback: number | undefined; pinned: boolean }): Promise<BuildResult> {
  // git runs beside validation: two processes whose start-up the build would otherwise wait for.
  const gitTimes = gitCommitTimes(options.root, config.skillsDir);
  const gitHead = headCommitTime(options.root);
  const validation = await validateRegistry(options.root, {
    config,
    emit: true,
    ...(options.scan === false ? { scan: false } : {}),
    ...(cache ? { cache } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    ...(options.callerBusy ? { callerBusy: true } : {}),
    onRead: (skill) => writeEarly(folder, skill),
  });
  const { accepted, rejected } = validation;
  let diagnostics = validation.diagnostics;
  const stopped = () => {
    folder.undo();
    cache?.save();
    return { ok: false, config, manifests: [], diagnostics, rejected, notDiscoverable: [], ...(cache ? { cache: cache.stats } : {}), historyRead: false };
  };
  if (diagnostics.some((d) => d.severity === 'error') && !options.lenient) return stopped();
  options.onSkillsRead?.();

  // Earlier versions, from git history, checked like current skills (src/pipeline/history/).
  const histories = await readSkillHistories(
    options.root,
    config,
    accepted.map((s) => ({ dir: s.source.dir, version: s.draft.version, bytes: () => s.source.files.find((f) => f.path === s.source.declaration)?.bytes ?? new Uint8Array() })),
    cache,
  );
  const current = accepted.map((s) => ({ dir: s.source.dir, name: s.draft.name, version: s.draft.version }));
  const records = withoutWithdrawn(histories.records, current, config.withdrawn);
  const olderChecked = await checkOldVersions(options.root, config, current, records, { ...(cache ? { cache } : {}), scan: options.scan !== false });
  diagnostics = sortDiagnostics([...diagnostics, ...histories.diagnostics, ...olderChecked.diagnostics]);
  const hasErrors = diagnostics.some((d) => d.severity === 'error');
  if (hasErrors && !options.lenient) return stopped();

  const times = await gitTimes;
  const head = await gitHead;
  const historyRead = times.read && head.read && !histories.diagnostics.some((d) => d.rule === versionsHistoryIncomplete.meta.id);
  const users = usersOf(accepted.map((s) => ({ draft: s.draft, dir: s.source.dir, text: s.references ?? { toolIds: [], links: [] } })));

  const dirs = new Set(accepted.map((s) => s.source.dir));
  const diagnosticsByDir = new Map<string, ValidatorDiagnostic[]>();
  // A manifest carries its own version's warnings; what was left out of history is the build's to report.
  for (const d of validation.diagnostics) {
    const dir = skillDirOf(d.file, dirs);
    if (dir) diagnosticsByDir.set(dir, [...(diagnosticsByDir.get(dir) ?? []), d]);
  }
  const planned = accepted.map((s) => {
    const seconds = lastCommitTime(times.value, s.source.dir, s.source.files.map((f) => f.path)) ?? epoch.fallback;
    const usedBy = users.get(s.draft.name) ?? [];
    const manifest: SkillManifest = {
      ...s.draft,
      calledBy: usedBy.filter((u) => u.kinds.includes('calls')).map((u) => u.name),
      usedBy,
      ...(seconds === undefined ? {} : { lastModified: new Date(seconds * 1000).toISOString() }),
      diagnostics: diagnosticsByDir.get(s.source.dir) ?? [],
      scan: s.scan,
    };
    const currentRecord = records.get(s.source.dir)?.find((r) => versionKey(r.version) === versionKey(s.draft.version));
    return { plan: planVersions(manifest, s.source.files, olderChecked.byDir.get(s.source.dir) ?? [], currentRecord), files: s.source.files, packed: s.packed };
  });
  const published = planned.map(({ plan, files }) => ({ manifest: plan.manifest, files }));

  const fallback = epoch.fallback === undefined ? undefined : new Date(epoch.fallback * 1000).toISOString();
  const latest = published.reduce<string | undefined>((max, p) => (p.manifest.lastModified && (max === undefined || p.manifest.lastModified > max) ? p.manifest.lastModified : max), fallback);
  // generatedAt must only grow (clients that verify the signature refuse an older index as a
  // rollback). The newest skill alone would go back in time when that skill is removed, so the
  // HEAD commit counts too.
  const headIso = head.value === undefined ? undefined : new Date(head.value * 1000).toISOString();
  const later = (a: string | undefined, b: string | undefined) => (a === undefined || (b !== undefined && b > a) ? b : a);
  const generatedAt = epoch.pinned ? fallback : later(latest, headIso);
  // What writeRegistry's output depends on: when the output folder still holds what this exact
  // input produced, rewriting it changes nothing. A draft is a function of the skill's files
  // (its digest), its folder, the config and the build code (the cache's salt), so the key
  // needs only the small per-skill facts, not every manifest serialised.
  const outDir = resolve(options.outDir);
  const emitKey = cache ? sha256HexSync(JSON.stringify([generatedAt, latest, signingKeys.map((k) => k.kid).sort(), published.map(({ manifest }) => outputFacts(manifest))])) : '';
  const previous = cache?.emitted(outDir, emitKey);
  let index: RegistryIndex;
  let notDiscoverable: WriteResult['notDiscoverable'];
  if (cache && previous) {
    cache.stats.emitSkipped = true;
    index = JSON.parse(await readFile(join(outDir, INDEX_FILE), 'utf8')) as RegistryIndex;
    notDiscoverable = previous.notDiscoverable;
  } else {
    // Loaded only when something is written: a no-op rebuild skips the emitter and its archiver.
    const { keepOutput, writeRegistry } = await import('./emit/write-registry.ts');
    // A skill whose facts are those the last build in this folder wrote it from, and whose files
    // are all still there as written, is left as it is: after one skill changed, the others are
    // neither read nor packed nor written again.
    const lastOutputs = cache?.skillOutputs(outDir);
    const keyed = planned.map((p) => {
      const outputKey = cache ? sha256HexSync(JSON.stringify(outputFacts(p.plan.manifest))) : undefined;
      const last = lastOutputs?.get(p.plan.manifest.name);
      return { ...p, outputKey, ...(outputKey !== undefined && keepOutput(folder, p.plan.manifest, outputKey, last) ? { kept: last } : {}) };
    });
    const oldFiles = await readOldFiles(options.root, keyed.flatMap(({ plan, kept }) => (kept ? [] : plan.older)), config.limits.maxFileBytes);
    const withVersions = keyed.map(({ plan, files, packed, outputKey, kept }) => ({
      manifest: plan.manifest,
      files,
      ...(packed ? { packed } : {}),
      ...(outputKey === undefined ? {} : { outputKey }),
      ...(kept ? { kept } : { versions: { documentText: plan.documentText, older: plan.older.map(({ manifest }) => ({ manifest, files: oldFiles.get(manifest) ?? [] })) } }),
    }));
    const written = await writeRegistry(options.outDir, withVersions, config, { generatedAt, updatedAt: latest }, signingKeys, folder);
    index = written.index;
    notDiscoverable = written.notDiscoverable;
    const proof = signingKeys.length > 0 ? OUTPUT_PROOF : OUTPUT_PROOF.filter((f) => f !== SIGNED_INDEX_FILE);
    cache?.recordEmit(outDir, emitKey, proof, notDiscoverable);
    cache?.recordSkillOutputs(outDir, written.outputs);
  }
  cache?.save();
  return {
    ok: !hasErrors,
    config,
    index,
    manifests: published.map((p) => p.manifest),
    diagnostics,
    rejected,
    notDiscoverable,
    ...(cache ? { cache: cache.stats } : {}),
    historyRead,
  };
}
