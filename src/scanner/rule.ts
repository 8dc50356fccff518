import type { FindingSeverity } from '../core/schemas/scan.ts';
import type { SkillTextFile } from './document.ts';

/** What a scanner rule module writes; {@link defineRule} turns it into the rule's `meta`. */
export interface SecurityRuleDefinition {
  /** `family/name`, e.g. `exec/download-pipe-shell`. The id never changes once published. */
  id: string;
  /** Default severity; a registry may override it in `skilldex.config.json` `scan.rules`. */
  severity: FindingSeverity;
  /** One line: what the rule finds. */
  description: string;
  /** Why this matters. */
  explanation: string;
  /** What the author should do instead. */
  hint: string;
  /**
   * A command-like match that means something else when quoted: in a changelog, a detection
   * rule, reference documentation or a list of what not to do (see `context.ts`).
   */
  quotable?: boolean;
}

/**
 * A scanner rule, in the rule-module shape every Skilldex rule shares (see
 * src/pipeline/rules/all-rules.ts): `meta` with its id, severity, docs and hint. Its checks are
 * `TextCheck`s (one check may find several rules) listed in ./catalog.ts.
 */
export interface SecurityRule {
  meta: {
    id: string;
    severity: FindingSeverity;
    docs: { description: string; explanation: string; url: string };
    hint: string;
    quotable?: boolean;
  };
}

/** Documentation anchor of a rule: `exec/download-pipe-shell` → `exec-download-pipe-shell`. */
export const anchorOf = (ruleId: string): string => ruleId.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** Severities from least to most serious. */
export const SEVERITY_RANK: Record<FindingSeverity, number> = { info: 0, warn: 1, high: 2, critical: 3 };

/** One match, before the scan applies overrides, caps and message text. */
export interface Hit {
  rule: SecurityRule;
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
  ceiling?: FindingSeverity;
  /** Why the ceiling applies, completing "Lowered to warn: …". */
  because?: string;
  /** An answer to the finding: an author's directive in the file, or the registry's allowlist. */
  allowed?: { by: 'author' | 'registry'; reason: string };
  /** A sentence specific to this match, put before the rule's explanation. */
  detail?: string;
}

export type Emit = (hit: Hit) => void;

/** A check that reads one decoded text file. */
export type TextCheck = (file: SkillTextFile, emit: Emit) => void;

/** Keeps the literal id, so the catalog can derive the union of every scanner rule id. */
export const defineRule = <const Id extends string>({ id, severity, description, explanation, hint, quotable }: SecurityRuleDefinition & { id: Id }): SecurityRule & { meta: { id: Id } } => ({
  meta: { id, severity, docs: { description, explanation, url: `docs/security.md#${anchorOf(id)}` }, hint, ...(quotable ? { quotable } : {}) },
});
