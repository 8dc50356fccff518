import { basename, dirname, resolve } from 'node:path';
import { RegistryConfig } from '../core/schemas/config.ts';
import type { ValidatorDiagnostic } from '../core/schemas/diagnostic.ts';
import type { BuildCache } from './cache.ts';
import { loadConfig } from './config.ts';
import { discoverSkillFolder, discoverSkills, type FoundSkill } from './discover.ts';
import { DiagnosticSink, sortDiagnostics } from './diagnostics.ts';
import { checkRegistry } from './rules/check-registry.ts';
import { blockedMembers, gateScans, partition, type RejectedSkill, type ValidatedSkill } from './phases/decide.ts';
import { cacheHits, readSkills, type ReadSkill } from './phases/read.ts';
import { Scanner } from './phases/scan.ts';

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
  const found = await discoverSkills(root, config.skillsDir, sink);
  return validateFound(root, config, sink, found, options);
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
  const { cache, onProgress } = options;
  const scanning = options.scan !== false;
  const hits = cacheHits(root, found, cache);
  const scanner = scanning ? new Scanner(config, cache, hits.filter((h) => !h).length) : undefined;
  const members: ValidatedSkill[] = [];
  let read: ReadSkill[];
  try {
    read = await readSkills(root, found, config, {
      ...(cache ? { cache } : {}),
      hits,
      onProgress: (done, total) => onProgress?.({ phase: 'validating', done, total }),
      onParsed: (skill) => {
        sink.diagnostics.push(...skill.diagnostics);
        if (!skill.draft) return;
        const member: ValidatedSkill = { draft: skill.draft, file: skill.file, locate: skill.locate, source: skill.source, scan: { verdict: 'pass', rulesVersion: '', findings: [] }, ...(skill.references ? { references: skill.references } : {}) };
        members.push(member);
        if (!skill.cached) scanner?.start({ name: member.draft.name, digest: member.draft.digest, source: member.source });
      },
    });
    if (scanner) {
      const targets = members.map((m) => ({ name: m.draft.name, digest: m.draft.digest, source: m.source }));
      const results = await scanner.scanAll(targets, (done, total) => onProgress?.({ phase: 'scanning', done, total }));
      gateScans(members, results, config, sink);
    }
  } finally {
    await scanner?.close();
  }
  const sources = read.map((r) => r.source);
  const registryRejects = checkRegistry(members, sink, blockedMembers(members, sink.diagnostics, new Set(sources.map((s) => s.dir))));
  const diagnostics = sortDiagnostics(sink.diagnostics);
  return { config, ...partition(sources, members, diagnostics, registryRejects), diagnostics };
}
