import type { RegistryConfig } from '../../core/schemas/config.ts';
import type { ValidatorDiagnostic } from '../../core/schemas/diagnostic.ts';
import type { ScanResult } from '../../core/schemas/scan.ts';
import { applyAllowlist } from '../../scanner/allowlist.ts';
import { anchorOf } from '../../core/rule.ts';
import { reaches } from '../../scanner/verdict.ts';
import type { PackedSkill } from '../emit/archive.ts';
import type { SkillSource } from '../model.ts';
import type { TextReferences } from '../references.ts';
import { START, type DiagnosticSink } from '../diagnostics.ts';
import type { RegistryMember } from '../rules/rule.ts';
import { securityBlocked, securityFinding } from '../rules/security.ts';

/** A skill that parsed, with its scan result once the scan phase has run. */
export interface ValidatedSkill extends RegistryMember {
  source: SkillSource;
  scan: ScanResult;
  /** Its archives, when they were packed as it was read (a build's emit needs them). */
  packed?: PackedSkill;
  /** The tool ids and links its Markdown holds (none for an earlier version, which nothing refers to). */
  references?: TextReferences;
}

export interface RejectedSkill {
  dir: string;
  name?: string;
  /** The errors that keep it out. */
  errors: ValidatorDiagnostic[];
}

/**
 * The scan gate: applies the registry's allowlist to each raw scan result and reports a
 * verdict at or above `scan.blockOn` as `security/blocked` (at the worst finding). Reviewers see
 * findings where they review, in the validator's output and the pull request's annotations, so
 * every other finding at `warn` or above becomes a `security/finding` warning; `info` findings
 * stay on the skill's page.
 */
export function gateScans(members: ValidatedSkill[], results: readonly ScanResult[], config: RegistryConfig, sink: DiagnosticSink): void {
  // A text file that is not UTF-8 is already a files/encoding error where it is; the scanner's
  // file/undecodable would report it a second time, in other words.
  const notUtf8 = new Set(sink.diagnostics.filter((d) => d.rule === 'files/encoding').map((d) => d.file));
  for (const [i, m] of members.entries()) {
    m.scan = applyAllowlist(results[i] as ScanResult, m.draft.name, new Map(m.draft.files.map((f) => [f.path, f.digest])), config.scan.allow);
    const blocked = reaches(m.scan.verdict, config.scan.blockOn);
    if (blocked) {
      const worst = m.scan.findings[0];
      const where = worst ? `${m.source.dir}/${worst.file}` : m.file;
      sink.report(securityBlocked, where, worst ?? START, `security scan verdict '${m.scan.verdict}' blocks publication${worst ? `: ${worst.rule} — ${worst.message}` : ''}`, { hint: `run 'skilldex scan ${m.source.dir}' for every finding; see docs/security.md to appeal a false positive`, skill: m.draft.name });
    }
    for (const f of m.scan.findings.slice(blocked ? 1 : 0)) {
      if (f.severity === 'info' || (f.rule === 'file/undecodable' && notUtf8.has(`${m.source.dir}/${f.file}`))) continue;
      sink.report(securityFinding, `${m.source.dir}/${f.file}`, f, `${f.rule} (${f.severity}): ${f.message}`, { hint: `see docs/security.md#${anchorOf(f.rule)}; answer a false positive with a \`skilldex-scan: allow\` directive or the registry's scan.allow list`, skill: m.draft.name });
    }
  }
}

/** The skill folders that errors already keep out, before the registry-wide rules run. */
export function blockedMembers(members: readonly ValidatedSkill[], diagnostics: readonly ValidatorDiagnostic[], dirs: ReadonlySet<string>): Set<ValidatedSkill> {
  const blockedDirs = new Set<string>();
  for (const d of diagnostics) {
    const dir = d.severity === 'error' ? skillDirOf(d.file, dirs) : undefined;
    if (dir) blockedDirs.add(dir);
  }
  return new Set(members.filter((m) => blockedDirs.has(m.source.dir)));
}

/**
 * The decide phase: splits the read folders into accepted skills (no error of their own and not
 * refused by a registry-wide rule), sorted by name, and rejected folders with their reasons,
 * sorted by folder. `diagnostics` must already be sorted.
 */
export function partition(
  sources: readonly SkillSource[],
  members: readonly ValidatedSkill[],
  diagnostics: readonly ValidatorDiagnostic[],
  registryRejects: ReadonlySet<RegistryMember>,
): { accepted: ValidatedSkill[]; rejected: RejectedSkill[] } {
  const dirs = new Set(sources.map((s) => s.dir));
  // Group by skill folder once; a 10,000-skill registry must not scan the list per skill.
  const byDir = new Map<string, ValidatorDiagnostic[]>();
  for (const d of diagnostics) {
    const dir = skillDirOf(d.file, dirs);
    if (dir) {
      const list = byDir.get(dir);
      if (list) list.push(d);
      else byDir.set(dir, [d]);
    }
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
  const rejectedByDir = new Map(rejected.map((r) => [r.dir, r]));
  for (const d of diagnostics) {
    if (d.severity !== 'error' || skillDirOf(d.file, dirs)) continue;
    const base = d.file.slice(d.file.lastIndexOf('/') + 1);
    const dir = base === 'SKILL.md' || base === 'skill.json' ? d.file.slice(0, d.file.lastIndexOf('/')) : d.file;
    const known = rejectedByDir.get(dir);
    if (known) known.errors.push(d);
    else {
      const entry = { dir, errors: [d] };
      rejectedByDir.set(dir, entry);
      rejected.push(entry);
    }
  }
  accepted.sort((a, b) => (a.draft.name < b.draft.name ? -1 : a.draft.name > b.draft.name ? 1 : 0));
  rejected.sort((a, b) => (a.dir < b.dir ? -1 : 1));
  return { accepted, rejected };
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
