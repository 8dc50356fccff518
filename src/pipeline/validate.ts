import { basename, dirname, resolve } from 'node:path';
import { RegistryConfig } from '../core/schemas/config.ts';
import type { ValidatorDiagnostic } from '../core/schemas/diagnostic.ts';
import type { BuildCache } from './cache.ts';
import { loadConfig } from './config.ts';
import { discoverSkillFolder, discoverSkills, type FoundSkill } from './discover.ts';
import { DiagnosticSink, sortDiagnostics } from './diagnostics.ts';
import { checkRegistry, registryFolder } from './rules/check-registry.ts';
import type { RegistryFolder } from './rules/rule.ts';
import { blockedMembers, gateScans, partition, skillDirOf, type RejectedSkill, type ValidatedSkill } from './phases/decide.ts';
import { POOL_MIN_SKILLS, readSkills, startReadPool, type ReadOptions, type ReadPool } from './phases/read.ts';
import { buildScanOptions, scanAll } from './phases/scan.ts';

export { skillDirOf, type RejectedSkill, type ValidatedSkill } from './phases/decide.ts';

export interface ValidationResult {
  config: RegistryConfig;
  /** Skills with no errors, sorted by name. */
  accepted: ValidatedSkill[];
  rejected: RejectedSkill[];
  /** Every diagnostic, sorted by file and position. */
  diagnostics: ValidatorDiagnostic[];
}

export interface ValidateOptions {
  config?: RegistryConfig;
  /** Run the security scanner (default true). */
  scan?: boolean;
  /**
   * Reuse the results for skill folders whose files are unchanged since the build that filled
   * the cache (src/pipeline/cache.ts), and record the rest. The caller saves it.
   */
  cache?: BuildCache;
  /** Called as skills are checked and scanned, for a progress display; never for the result. */
  onProgress?: (progress: ValidationProgress) => void;
  /**
   * Worker threads that read, check and scan the skills: a number, or false for none (everything
   * on the calling thread). Default: one per core, at most four, when there are enough skills to
   * repay starting them. The result is the same either way.
   */
  workers?: ReadOptions['workers'];
  /** The calling thread has work of its own meanwhile (see {@link ReadOptions.callerBusy}). */
  callerBusy?: boolean;
  /** Workers already started for this validation (validateRegistry starts them during discovery). */
  pool?: ReadPool;
  /**
   * Keep every skill's file bytes and pack its archives while it is read, for a build that
   * writes them next (buildRegistry sets it). Without it, bytes are read again only if asked for.
   */
  emit?: boolean;
  /**
   * The caller only reports diagnostics and which skills pass (`skilldex validate`): drafts come
   * without their instructions (the SKILL.md body) and without the tool ids and links a build's
   * "Used by" needs, so worker threads neither collect them nor post every body back. Every
   * rule runs and every diagnostic is the same. A build (`emit`) and the build cache ignore it.
   */
  reportOnly?: boolean;
  /**
   * Folders (relative to the root, `/`-separated) the caller reports on, as `skilldex validate
   * <folder>` inside a registry does: every skill is read and checked (registry-wide rules need
   * them all), but only the skills in or around these folders, the skills they call and the
   * skills that call them, directly or not, are scanned. Their diagnostics are exactly those of a
   * whole run; other skills' scans are skipped, so what the result says of them is incomplete.
   */
  only?: readonly string[];
  /** Called with each skill as soon as it is read, in discovery order (see {@link ReadOptions.onRead}). */
  onRead?: ReadOptions['onRead'];
}

export interface ValidationProgress {
  phase: 'validating' | 'scanning';
  done: number;
  total: number;
}

/**
 * Validates every skill under the registry root in one pass and reports every problem.
 * Nothing a skill contains is executed: files are read as bytes and parsed as data.
 */
export async function validateRegistry(root: string, options: ValidateOptions = {}): Promise<ValidationResult> {
  const config = options.config ?? (await loadConfig(root));
  const sink = new DiagnosticSink(config.rules);
  // Without a build cache every folder is read: the worker threads start as soon as discovery has
  // met enough skills to repay them, and load their modules while it walks the rest.
  let pool: ReadPool | undefined;
  const early = options.cache || options.workers === false ? undefined : (count: number) => {
    if (count === POOL_MIN_SKILLS) pool = startReadPool(options.workers, options.callerBusy);
  };
  let found: FoundSkill[];
  try {
    found = await discoverSkills(root, config.skillsDir, sink, { ...(options.cache ? { cache: options.cache } : {}), ...(early ? { onDeclaration: early } : {}) });
  } catch (error) {
    await (pool as ReadPool | undefined)?.pool?.close();
    throw error;
  }
  return validateFound(root, config, sink, found, { ...options, ...(pool ? { pool } : {}) });
}

/**
 * Validates one skill folder on its own, wherever it lies on disk: every rule runs, the
 * registry-wide ones over just this skill, and the folder-name rule uses the folder's own name.
 * With no `config`, the default rules apply. Diagnostics name files relative to the folder's
 * parent (`my-skill/SKILL.md`).
 *
 * @example
 * const { diagnostics } = await validateSkillFolder('/home/me/drafts/pdf-tools');
 */
export async function validateSkillFolder(dir: string, options: ValidateOptions = {}): Promise<ValidationResult> {
  const abs = resolve(dir);
  const config = options.config ?? RegistryConfig.parse({});
  const sink = new DiagnosticSink(config.rules);
  const found = await discoverSkillFolder(dirname(abs), basename(abs), sink);
  return validateFound(dirname(abs), config, sink, found, options);
}

/** `inner` is `outer` or lies inside it (`/`-separated paths relative to one root; '' is the root). */
export const within = (inner: string, outer: string): boolean => outer === '' || inner === outer || inner.startsWith(`${outer}/`);

/**
 * The skills a report on `paths` depends on for its diagnostics: those in or around the paths,
 * every skill they call, directly or not (a caller is rejected with its callee, and a call
 * cycle through a reported skill runs only through skills it calls), and every skill that calls
 * them or a reported folder whose declaration gave no skill, directly or not: the report shows the callers a reported skill breaks (see
 * {@link causedBy}), and whether such a caller is told so depends on its own scan. By name, as
 * the registry rules resolve calls by name.
 */
function reportedAndCalled(members: readonly ValidatedSkill[], paths: readonly string[], folders: readonly RegistryFolder[]): Set<ValidatedSkill> {
  const byName = new Map<string, ValidatedSkill[]>();
  const callersOf = new Map<string, ValidatedSkill[]>();
  for (const m of members) {
    byName.set(m.draft.name, [...(byName.get(m.draft.name) ?? []), m]);
    for (const callee of new Set(m.draft.calls)) if (callee !== undefined) callersOf.set(callee, [...(callersOf.get(callee) ?? []), m]);
  }
  const near = (dir: string) => paths.some((p) => within(dir, p) || within(p, dir));
  const reported = members.filter((m) => near(m.source.dir));
  // A reported folder whose declaration gave no skill still breaks the skills that call it, by any name a call may give it.
  const callingHeldBack = folders.filter((f) => !f.member && near(f.dir)).flatMap((f) => (f.names ?? []).flatMap((n) => callersOf.get(n) ?? []));
  /** `start` and every skill `next` leads to from them, directly or not. */
  const reach = (start: readonly ValidatedSkill[], next: (m: ValidatedSkill) => readonly ValidatedSkill[]): Set<ValidatedSkill> => {
    const seen = new Set(start);
    const queue = [...seen];
    for (let m = queue.pop(); m; m = queue.pop()) {
      for (const c of next(m)) {
        if (!seen.has(c)) {
          seen.add(c);
          queue.push(c);
        }
      }
    }
    return seen;
  };
  const called = reach(reported, (m) => m.draft.calls.flatMap((callee) => (callee === undefined ? [] : (byName.get(callee) ?? []))));
  const callers = reach([...reported, ...callingHeldBack], (m) => callersOf.get(m.draft.name) ?? []);
  return new Set([...called, ...callers]);
}

/**
 * The diagnostics in other skills' files that the skills in `dirs` cause, for a report on those
 * folders: a problem that names a place in them as involved (`related`: another skill that has
 * the same name, a caller they leave rejected or that calls a name they gave up), and, as such a
 * caller is rejected in turn, the problems of the skills that call it. The other skills' own
 * problems are not among them, so a publisher checking one folder learns what it breaks without
 * reading the rest of the registry's.
 *
 * @example
 * causedBy(result.diagnostics, ['skills/text/text-stats'], skillDirs) // text-report's "calls 'text_stats', which is rejected"
 */
export function causedBy(diagnostics: readonly ValidatorDiagnostic[], dirs: readonly string[], skillDirs: ReadonlySet<string>): ValidatorDiagnostic[] {
  const involved = [...dirs];
  const among = (file: string) => involved.some((dir) => within(file, dir));
  const caused = new Set<ValidatorDiagnostic>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const d of diagnostics) {
      if (caused.has(d) || among(d.file) || !d.related?.some((r) => among(r.file))) continue;
      caused.add(d);
      // The registry rejects a caller of a broken skill whatever the rule's severity.
      const caller = d.rule === 'registry/unknown-call' ? skillDirOf(d.file, skillDirs) : undefined;
      if (caller !== undefined && !among(caller)) {
        involved.push(caller);
        grew = true;
      }
    }
  }
  return diagnostics.filter((d) => caused.has(d));
}

/**
 * The phases, in the order their inputs exist: read and parse each folder (the build cache stands
 * in for both), scan what parsed, gate on the scan verdicts, run the registry-wide rules (last,
 * so a skill calling one that its own errors keep out is caught), then decide what is accepted.
 */
async function validateFound(
  root: string,
  config: RegistryConfig,
  sink: DiagnosticSink,
  found: readonly FoundSkill[],
  options: ValidateOptions,
): Promise<ValidationResult> {
  const { cache, onProgress, only } = options;
  const scanning = options.scan !== false;
  const read = await readSkills(root, found, config, {
    ...(cache ? { cache } : {}),
    // Scanned as they are read unless only some will be: which ones is known once all have parsed.
    ...(scanning && !only ? { scan: buildScanOptions(config) } : {}),
    ...(options.emit ? { emit: true } : {}),
    ...(options.reportOnly ? { reportOnly: true } : {}),
    ...(options.onRead ? { onRead: options.onRead } : {}),
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    ...(options.pool ? { pool: options.pool } : {}),
    ...(options.callerBusy ? { callerBusy: true } : {}),
    onProgress: (done, total) => onProgress?.({ phase: 'validating', done, total }),
  });
  const members: ValidatedSkill[] = [];
  const folders: RegistryFolder[] = [];
  for (const skill of read) {
    for (const d of skill.diagnostics) sink.diagnostics.push(d);
    const member: ValidatedSkill | undefined = skill.draft
      ? { draft: skill.draft, file: skill.file, locate: skill.locate, source: skill.source, scan: { verdict: 'pass', rulesVersion: '', findings: [] }, ...(skill.packed ? { packed: skill.packed } : {}), ...(skill.references ? { references: skill.references } : {}) }
      : undefined;
    if (member) members.push(member);
    folders.push(registryFolder(skill, member));
  }
  if (scanning) {
    const targets = read.flatMap((r) => (r.draft ? [{ name: r.draft.name, digest: r.draft.digest, source: r.source, ...(r.earlyScan ? { earlyScan: r.earlyScan } : {}) }] : []));
    // Typosquatting compares each scanned name with every skill's, scanned or not.
    const names = targets.map((t) => t.name);
    const scanned = only ? reportedAndCalled(members, only, folders) : undefined;
    const chosen = scanned ? members.flatMap((m, i) => (scanned.has(m) ? [i] : [])) : members.map((_, i) => i);
    const results = await scanAll(chosen.map((i) => targets[i] as (typeof targets)[number]), config, cache, (done, total) => onProgress?.({ phase: 'scanning', done, total }), names);
    gateScans(chosen.map((i) => members[i] as ValidatedSkill), results, config, sink);
  }
  const sources = read.map((r) => r.source);
  const registryRejects = checkRegistry(members, sink, blockedMembers(members, sink.diagnostics, new Set(sources.map((s) => s.dir))), folders);
  const diagnostics = sortDiagnostics(sink.diagnostics);
  return { config, ...partition(sources, members, diagnostics, registryRejects), diagnostics };
}
