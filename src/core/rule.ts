/**
 * The one rule shape, ESLint's: every rule Skilldex reports, whichever engine runs it, is a module
 * `{ meta, check }`. `meta` (this type) says what the rule is: id, default severity,
 * documentation, the hint it gives. `check`, where the rule has one of its own, finds the problems
 * and hands each to the `report` its engine gives it; its signature is the engine's
 * (src/pipeline/rules/rule.ts for the validator, src/scanner/rule.ts for the scanner). A rule
 * without a check is reported by a shared pass (a parser, discovery, the scan gate) that
 * `meta.reportedBy` names. Every module is registered once, in the one list
 * (src/pipeline/rules/all-rules.ts), from which the rule references are generated.
 *
 * Pure and browser-safe: the site renders rule references from the same metadata.
 */

/** Which engine reports a rule: the validator, the pull-request checks, or the security scanner. */
export type RuleEngine = 'validator' | 'publish' | 'scanner';

/** What a rule is, independent of how it checks. */
export interface RuleMeta<Id extends string = string, Severity extends string = string> {
  /** `family/name`, e.g. `name/folder-mismatch`. Never changes once published. */
  id: Id;
  engine: RuleEngine;
  /** The default severity; a registry may change it in `skilldex.config.json`. */
  severity: Severity;
  docs: {
    /** One sentence: what the rule checks. */
    description: string;
    /** Why it matters, when the rule explains itself at length (the scanner's rules do). */
    explanation?: string;
    /** The page and anchor that explain it, relative to the repository root. */
    url: string;
  };
  /** What to do about a problem, when its report gives no more specific hint. */
  hint: string;
  /** Fixed message texts by key, for rules whose messages do not depend on the input. */
  messages?: Readonly<Record<string, string>>;
  /** For a rule without a `check`: the shared pass that reports it under this id. */
  reportedBy?: string;
}

/**
 * The anchor of a rule in its reference page: `name/folder-mismatch` → `name-folder-mismatch`,
 * `exec/download-pipe-shell` → `exec-download-pipe-shell`. The site also names headings with it,
 * so links and targets always agree; text that is not a rule id still gets a usable anchor.
 */
export const anchorOf = (ruleId: string): string => ruleId.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'rule';
