import { anchorOf, type RuleMeta } from '../core/rule.ts';
import type { RiskSeverity } from '../core/schemas/diagnostic.ts';
import type { SkillTextFile } from './document.ts';

/** A scanner rule's metadata: the one rule shape (src/core/rule.ts) on the scanner's risk scale. */
export interface ScannerRuleMeta<Id extends string = string> extends RuleMeta<Id, RiskSeverity> {
  engine: 'scanner';
  docs: { description: string; explanation: string; url: string };
  /**
   * A command-like match that means something else when quoted: in a changelog, a detection
   * rule, reference documentation or a list of what not to do (see `context.ts`).
   */
  quotable?: boolean;
}

/** One match a check reports, before the scan applies overrides, caps and message text. */
export interface Hit {
  /** Offset in the file's text; or give `line`/`column` directly for non-text findings. */
  offset?: number;
  line?: number;
  column?: number;
  /** The raw excerpt; made visible and cut to 200 characters by the scan. */
  evidence: string;
  /**
   * A lower severity because of where the match sits (fenced Markdown, test data). Overrides in
   * the config replace the rule's default, but never raise a finding above this ceiling.
   */
  ceiling?: RiskSeverity | undefined;
  /** Why the ceiling applies, completing "Lowered to warn: …". */
  because?: string;
  /** An answer to the finding: an author's directive in the file, or the registry's allowlist. */
  allowed?: { by: 'author' | 'registry'; reason: string };
  /** A sentence specific to this match, put before the rule's explanation. */
  detail?: string | undefined;
}

/** How a check reports a match of its rule. */
export type ReportHit = (hit: Hit) => void;

/** A check that reads one decoded text file and reports the matches of its rule. */
export type TextCheck = (file: SkillTextFile, report: ReportHit) => void;

/**
 * A scanner rule module: `meta`, and the `check` the scan runs over every decoded text file. The
 * rules about a file's bytes (executables, mislabelled files, links), the name and the cap are
 * reported by the scan itself (src/scanner/scan.ts), which `meta.reportedBy` says.
 */
export interface ScannerRule<Id extends string = string> {
  meta: ScannerRuleMeta<Id>;
  check?: TextCheck;
}

interface ScannerRuleDefinition<Id extends string> {
  /** `family/name`, e.g. `exec/download-pipe-shell`. The id never changes once published. */
  id: Id;
  /** Default severity; a registry may override it in `skilldex.config.json` `scan.rules`. */
  severity: RiskSeverity;
  /** One line: what the rule finds. */
  description: string;
  /** Why this matters. */
  explanation: string;
  /** What the author should do instead. */
  hint: string;
  quotable?: boolean;
  check?: TextCheck;
  reportedBy?: string;
}

/** Keeps the literal id, so the catalog can derive the union of every scanner rule id. */
export const defineRule = <const Id extends string>({ id, severity, description, explanation, hint, quotable, check, reportedBy }: ScannerRuleDefinition<Id>): ScannerRule<Id> => ({
  meta: {
    id,
    engine: 'scanner',
    severity,
    docs: { description, explanation, url: `docs/security.md#${anchorOf(id)}` },
    hint,
    ...(quotable ? { quotable } : {}),
    ...(reportedBy ? { reportedBy } : {}),
  },
  ...(check ? { check } : {}),
});

/** Severities from least to most serious. */
export const SEVERITY_RANK: Record<RiskSeverity, number> = { info: 0, warn: 1, high: 2, critical: 3 };
