import { basename, dirname, resolve } from 'node:path';
import pLimit from 'p-limit';
import { RegistryConfig } from '../core/schemas/config.ts';
import type { Diagnostic } from '../core/schemas/diagnostic.ts';
import type { ScanResult, ScanVerdict } from '../core/schemas/scan.ts';
import type { ScanInput } from '../scanner/scan.ts';
import { createScanPool, type ScanPool } from '../scanner/pool.ts';
import { cacheEntryOf, imitationCandidates, locateFrom, sourceFromCache, type BuildCache, type SourceStamps } from './cache.ts';
import { loadConfig } from './config.ts';
import { discoverSkillFolder, discoverSkills, readSkillSource, type SkillSource } from './discover.ts';
import { DiagnosticSink, START, sortDiagnostics } from './diagnostics.ts';
import { sha256HexSync } from './hash.ts';
import { manifestFromSkillJson, manifestFromSkillMd, type DraftManifest } from './normalize.ts';
import { checkFiles, SCANNER_RULES_OWNED_BY_VALIDATOR } from './rules/files.ts';
import { checkRegistry, type RegistryMember } from './rules/cross-skill.ts';
import { checkSkillJson } from './rules/skill-json.ts';
import { checkSkillMd } from './rules/skill-md.ts';

export interface ValidatedSkill extends RegistryMember {
  source: SkillSource;
  scan: ScanResult;
}

export interface RejectedSkill {
  dir: string;
  name?: string;
  /** The errors that keep it out. */
  errors: Diagnostic[];
}

export interface ValidationResult {
  config: RegistryConfig;
  /** Skills with no errors, sorted by name. */
  accepted: ValidatedSkill[];
  rejected: RejectedSkill[];
  /** Every diagnostic, sorted by file and position. */
  diagnostics: Diagnostic[];
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

const VERDICT_RANK: Record<ScanVerdict, number> = { pass: 0, review: 1, warn: 2, fail: 3 };
/** Skill folders read at once. */
const READ_CONCURRENCY = 16;
/** Below this many skills to scan, worker threads cost more to start than they save. */
const POOL_MIN_SCANS = 32;

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

async function validateFound(
  root: string,
  config: RegistryConfig,
  sink: DiagnosticSink,
  found: readonly { dir: string; declaration: SkillSource['declaration'] }[],
  options: ValidateOptions,
): Promise<ValidationResult> {
  const members: ValidatedSkill[] = [];
  const sources: SkillSource[] = [];
  const cache = options.cache;
  // Reading is I/O-bound: several folders are read at once, each reporting into its own sink,
  // and then checked one by one in discovery order, so results do not depend on timing.
  const limit = pLimit(READ_CONCURRENCY);
  const hits = found.map(({ dir, declaration }) => cache?.lookup(root, dir, declaration));
  const reads = found.map(({ dir, declaration }, i) =>
    hits[i]
      ? undefined
      : limit(async () => {
          const local = new DiagnosticSink(config.rules);
          const stamps: SourceStamps | undefined = cache ? { dirs: [], files: [] } : undefined;
          return { local, stamps, source: await readSkillSource(root, dir, declaration, config.limits, local, stamps) };
        }),
  );
  // A large cold build scans on worker threads while this thread reads and parses the next
  // skills; a handful of skills is scanned inline (starting workers would cost more).
  const scanning = options.scan !== false;
  const scanOptions = { rules: { ...config.scan.rules, ...SCANNER_RULES_OWNED_BY_VALIDATOR } };
  const pool = scanning && hits.filter((h) => !h).length >= POOL_MIN_SCANS ? tryCreateScanPool() : undefined;
  /** Scans started early, without the names (typosquatting is checked once every name is known). */
  const started = new Map<SkillSource, Promise<ScanResult | undefined>>();
  const scanInput = (m: ValidatedSkill, knownNames?: readonly string[]): ScanInput => ({
    name: m.draft.name,
    files: m.source.files.map((f) => ({ path: f.path, bytes: f.bytes })),
    ...(knownNames ? { knownNames } : {}),
  });
  try {
    const progress = options.onProgress;
    for (const [i, { dir, declaration }] of found.entries()) {
      progress?.({ phase: 'validating', done: i, total: found.length });
      const hit = hits[i];
      if (hit) {
        // Unchanged since the last build: its own diagnostics and draft stand; nothing is read.
        const source = sourceFromCache(root, hit);
        sources.push(source);
        sink.diagnostics.push(...hit.diagnostics);
        cache?.record(hit);
        if (hit.draft) members.push({ draft: hit.draft, file: `${dir}/${declaration}`, locate: locateFrom(hit.positions), source, scan: { verdict: 'pass', rulesVersion: '', findings: [] } });
        continue;
      }
      const { local, stamps, source } = await (reads[i] as NonNullable<(typeof reads)[number]>);
      sources.push(source);
      checkFiles(source, local, source.folderName);
      let draft: DraftManifest | undefined;
      let locate: RegistryMember['locate'] = () => START;
      if (declaration === 'SKILL.md') {
        const parsed = checkSkillMd(source, config, local);
        if (parsed) {
          draft = manifestFromSkillMd(source, parsed);
          locate = parsed.locate;
        }
      } else {
        const parsed = checkSkillJson(source, config, local);
        if (parsed) {
          draft = manifestFromSkillJson(source, parsed);
          locate = parsed.locate;
        }
      }
      sink.diagnostics.push(...local.diagnostics);
      if (draft) {
        const member: ValidatedSkill = { draft, file: `${dir}/${declaration}`, locate, source, scan: { verdict: 'pass', rulesVersion: '', findings: [] } };
        members.push(member);
        // A failed worker is not a verdict: the skill is scanned again inline below.
        if (pool) started.set(source, pool.scan(scanInput(member), scanOptions).catch(() => undefined));
      }
      if (cache && stamps) cache.record(cacheEntryOf(source, stamps, local.diagnostics, draft, locate));
    }
    progress?.({ phase: 'validating', done: found.length, total: found.length });

    if (scanning) {
      // Loaded on demand: `validate --no-scan` and the runtime never pay for the scanner.
      const { scanSkill } = await import('../scanner/index.ts');
      const { applyAllowlist } = await import('../scanner/allowlist.ts');
      const { imitatedNames } = await import('../scanner/rules/typosquat.ts');
      const { confusableSkeleton } = await import('../scanner/unicode.ts');
      // Only the names the typosquatting rule could match are passed: same verdicts and evidence,
      // without comparing every pair of skills (quadratic: minutes at 10,000 skills).
      const candidatesOf = imitationCandidates(members.map((m) => m.draft.name), confusableSkeleton);
      let scanned = 0;
      progress?.({ phase: 'scanning', done: 0, total: members.length });
      const results = await Promise.all(
        members.map(async (m): Promise<ScanResult> => {
          const knownNames = candidatesOf(m.draft.name);
          const entry = cache?.recorded(m.source.dir);
          const key = entry ? sha256HexSync(JSON.stringify([m.draft.name, m.draft.digest, knownNames])) : '';
          if (cache && entry?.scan?.key === key) {
            cache.stats.scanHits++;
            progress?.({ phase: 'scanning', done: ++scanned, total: members.length });
            return entry.scan.result;
          }
          // A scan without the names equals the full one unless the name imitates another skill.
          const early = imitatedNames(m.draft.name, knownNames).length === 0 ? await started.get(m.source) : undefined;
                    const result = early ?? (pool ? await pool.scan(scanInput(m, knownNames), scanOptions).catch(() => undefined) : undefined) ?? scanSkill(scanInput(m, knownNames), scanOptions);
          if (entry) cache?.recordScan(entry, key, result);
          progress?.({ phase: 'scanning', done: ++scanned, total: members.length });
          return result;
        }),
      );
      for (const [i, m] of members.entries()) {
        m.scan = applyAllowlist(results[i] as ScanResult, m.draft.name, new Map(m.draft.files.map((f) => [f.path, f.digest])), config.scan.allow);
        const blocked = VERDICT_RANK[m.scan.verdict] >= VERDICT_RANK[config.scan.blockOn];
        if (blocked) {
          const worst = m.scan.findings[0];
          const where = worst ? `${m.source.dir}/${worst.file}` : m.file;
          sink.report('security/blocked', where, worst ?? START, `security scan verdict '${m.scan.verdict}' blocks publication${worst ? `: ${worst.rule} — ${worst.message}` : ''}`, { hint: `run 'skilldex scan ${m.source.dir}' for every finding; see docs/security.md to appeal a false positive`, skill: m.draft.name });
        }
        // Reviewers see findings where they review: in the validator's output and the pull
        // request's annotations, not only on the published page. `info` findings stay on the page.
        for (const f of m.scan.findings.slice(blocked ? 1 : 0)) {
          if (f.severity === 'info') continue;
          sink.report('security/finding', `${m.source.dir}/${f.file}`, f, `${f.rule} (${f.severity}): ${f.message}`, { hint: `see docs/security.md#${f.rule.replace(/[^a-z0-9]+/g, '-')}; answer a false positive with a \`skilldex-scan: allow\` directive or the registry's scan.allow list`, skill: m.draft.name });
        }
      }
    }
  } finally {
    await pool?.close();
  }

  // Registry-wide rules run last, so a skill calling one that its own errors keep out is caught.
  const dirs = new Set(sources.map((s) => s.dir));
  const blockedDirs = new Set<string>();
  for (const d of sink.diagnostics) {
    const dir = d.severity === 'error' ? skillDirOf(d.file, dirs) : undefined;
    if (dir) blockedDirs.add(dir);
  }
  const registryRejects = checkRegistry(members, sink, new Set(members.filter((m) => blockedDirs.has(m.source.dir))));

  const diagnostics = sortDiagnostics(sink.diagnostics);
  // Group by skill folder once; a 10,000-skill registry must not scan the list per skill.
  const byDir = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    const dir = skillDirOf(d.file, dirs);
    if (dir) byDir.set(dir, [...(byDir.get(dir) ?? []), d]);
  }
  const memberBySource = new Map(members.map((m) => [m.source, m]));
  const accepted: ValidatedSkill[] = [];
  const rejected: RejectedSkill[] = [];
  for (const source of sources) {
    const member = memberBySource.get(source);
    const own = byDir.get(source.dir) ?? [];
    const errors = own.filter((d) => d.severity === 'error');
    if (member && errors.length === 0 && !registryRejects.has(member)) accepted.push(member);
    // A skill refused for a problem its registry downgraded still says why (e.g. an unusable name).
    else rejected.push({ dir: source.dir, ...(member ? { name: member.draft.name } : {}), errors: errors.length > 0 ? errors : own });
  }
  // Folders refused before they were read (nested, ambiguous, too deep, a linked folder or
  // declaration) are rejected too, with their reasons.
  const rejectedDirs = new Set(rejected.map((r) => r.dir));
  for (const d of diagnostics) {
    if (d.severity !== 'error' || skillDirOf(d.file, dirs)) continue;
    const base = d.file.slice(d.file.lastIndexOf('/') + 1);
    const dir = base === 'SKILL.md' || base === 'skill.json' ? d.file.slice(0, d.file.lastIndexOf('/')) : d.file;
    if (rejectedDirs.has(dir)) rejected.find((r) => r.dir === dir)?.errors.push(d);
    else {
      rejectedDirs.add(dir);
      rejected.push({ dir, errors: [d] });
    }
  }
  accepted.sort((a, b) => (a.draft.name < b.draft.name ? -1 : a.draft.name > b.draft.name ? 1 : 0));
  rejected.sort((a, b) => (a.dir < b.dir ? -1 : 1));
  return { config, accepted, rejected, diagnostics };
}

/** A pool, or none where threads cannot start (every skill is then scanned inline, as a small build is). */
function tryCreateScanPool(): ScanPool | undefined {
  try {
    return createScanPool();
  } catch {
    return undefined;
  }
}

/**
 * The skill folder a diagnostic's file belongs to: `skills/<name>`, `skills/<category>/<name>`,
 * or `<name>` for a skill validated on its own.
 */
export function skillDirOf(file: string, dirs: ReadonlySet<string>): string | undefined {
  const parts = file.split('/');
  for (const n of [1, 2, 3]) {
    const dir = parts.slice(0, n).join('/');
    if (parts.length > n && dirs.has(dir)) return dir;
  }
  return undefined;
}
