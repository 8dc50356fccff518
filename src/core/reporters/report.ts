import { anchorOf } from '../rule.ts';
import type { Diagnostic, Severity } from '../schemas/diagnostic.ts';
import type { ScanVerdict } from '../schemas/scan.ts';

/**
 * What a command reports, for the one set of output formats (human, JSON, GitHub annotations,
 * SARIF) that `validate`, `build`, `migrate` and `scan` all print through. Pure: each format
 * returns the text to write.
 */
export interface Report {
  /** Every diagnostic, with `file` relative to the working directory. */
  diagnostics: readonly Diagnostic[];
  /** For a scan: each skill scanned, with its verdict; the human and JSON formats group its findings under it. */
  scan?: ScanSummary;
}

export interface ScanSummary {
  /** The worst verdict over every skill (`pass` for none). */
  verdict: ScanVerdict;
  rulesVersion: string;
  skills: readonly ScannedSkill[];
}

export interface ScannedSkill {
  /** The skill's name. */
  name: string;
  /** The skill folder relative to the working directory, `/`-separated (`.` for the working directory itself). */
  path: string;
  verdict: ScanVerdict;
  rulesVersion: string;
  /** Its findings, with `file` relative to the working directory. */
  findings: readonly Diagnostic[];
}

/** How each severity shows as a GitHub annotation and a SARIF level: the risk scale folds onto error, warning and note. */
export const LEVEL: Readonly<Record<Severity, 'error' | 'warning' | 'note'>> = {
  error: 'error',
  warning: 'warning',
  critical: 'error',
  high: 'error',
  warn: 'warning',
  info: 'note',
};

/** True for a severity of the scanner's risk scale, which an annotation or a level alone cannot tell apart. */
export const isRisk = (severity: Severity): boolean => severity !== 'error' && severity !== 'warning';

/** Where the rules reference lives, so a validator hint can point at the rule's row (`docs/rules.md#<anchor>`). */
const RULES_DOC = 'docs/rules.md';

/** The documentation link of a diagnostic's rule: its own (`docs/security.md#…` for a finding), else its row in docs/rules.md. */
export const docsLink = (d: Pick<Diagnostic, 'rule' | 'docs'>): string => d.docs ?? `${RULES_DOC}#${anchorOf(d.rule)}`;
