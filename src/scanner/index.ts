/**
 * The static security scanner. Every export here is public API: the build, the CLI (`skilldex
 * scan`) and the site depend on it. Everything here is pure: bytes in, findings out; no file
 * system, no network, no execution of the skill.
 */
import type { SecurityRule } from './rule.ts';
import { RULES } from './catalog.ts';

export type { Finding, FindingSeverity, ScanResult, ScanVerdict } from '../core/schemas/scan.ts';
export { RULES_VERSION, scanSkill, MAX_FINDINGS_PER_RULE_PER_FILE } from './scan.ts';
export type { ScanInput, ScanInputFile, ScanOptions } from './scan.ts';
export { verdictOf, reaches, VERDICT_RANK } from './verdict.ts';
export { anchorOf } from './rule.ts';
export type { SecurityRule } from './rule.ts';
export { formatHuman, type HumanStyle } from './format/human.ts';
export { formatJson } from './format/json.ts';
export { formatSarif, type SarifOptions } from './format/sarif.ts';
export { formatGithub, escapeData, escapeProperty } from './format/github.ts';
export { worstVerdict, type SkillScanReport } from './format/report.ts';

/**
 * Every rule with its default severity and documentation, in the order of `docs/security.md`.
 *
 * @example SECURITY_RULES.find((r) => r.meta.id === 'exec/download-pipe-shell')?.meta.severity // 'critical'
 */
export const SECURITY_RULES: readonly SecurityRule[] = RULES;
