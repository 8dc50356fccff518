/**
 * The static security scanner. Every export here is public API: the build, the CLI (`skilldex
 * scan`) and the site depend on it. Everything here is pure: bytes in, findings out; no file
 * system, no network, no execution of the skill.
 */

export type { RiskSeverity } from '../core/schemas/diagnostic.ts';
export type { Finding, ScanResult, ScanVerdict } from '../core/schemas/scan.ts';
export { RULES_VERSION, scanSkill, MAX_FINDINGS_PER_RULE_PER_FILE } from './scan.ts';
export type { ScanInput, ScanInputFile, ScanOptions } from './scan.ts';
export { verdictOf, reaches, VERDICT_RANK } from './verdict.ts';
export { SCANNER_RULES, type ScannerRuleId } from './catalog.ts';
export type { ScannerRule } from './rule.ts';
export { scanReport, scanSarifOptions, worstVerdict, type SkillScanReport } from './report.ts';
