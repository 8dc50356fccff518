import type { FindingSeverity } from '../../core/schemas/scan.ts';
import { RULES as SCANNER_RULES, type ScannerRuleId } from '../../scanner/catalog.ts';
import { anchorOf } from '../../scanner/rule.ts';
import { RULES as VALIDATOR_RULES, type RuleInfo, type ValidatorRuleId } from './catalog.ts';
import { PUBLISH_RULES, type PublishRuleId } from '../../publish/rules.ts';
import { REPORTED_BY_VALIDATOR } from './files.ts';

/** Every rule id Skilldex reports: validator, scanner and publish (pull-request) rules alike. */
export type RuleId = ValidatorRuleId | ScannerRuleId | PublishRuleId;

/**
 * One rule's metadata, whichever engine runs it. The validator's severities are `error` and
 * `warning`; the scanner keeps its own scale (`info`…`critical`), which its verdict is built on.
 */
export interface RuleMeta {
  id: RuleId;
  /** `publish` rules compare a pull request with its base (`validate --changed-since`/`--against-index`). */
  engine: 'validator' | 'scanner' | 'publish';
  severity: RuleInfo['severity'] | FindingSeverity;
  docs: {
    /** One sentence: what the rule checks. */
    description: string;
    /** Why it matters, when the rule explains itself at length (the scanner's rules do). */
    explanation?: string;
    /** The page and anchor that explain it, relative to the repository root. */
    url: string;
  };
  /** What to do about it, when the rule states it once for every problem. */
  hint?: string;
  /** A scanner rule whose problem the build reports under a validator rule (one problem, one diagnostic). */
  reportedAs?: ValidatorRuleId;
}

/**
 * The one list of rules: docs/rules.md's tables, docs/security.md's rule sections, the site's security reference
 * and the typed {@link RuleId} all come from here. The validator's rules first, in the order it
 * meets them, then the pull-request rules, then the scanner's, in the order of docs/security.md.
 */
export const ALL_RULES: readonly RuleMeta[] = [
  ...VALIDATOR_RULES.map((r): RuleMeta => ({ id: r.id, engine: 'validator', severity: r.severity, docs: { description: r.description, url: `docs/rules.md#${anchorOf(r.id)}` } })),
  ...PUBLISH_RULES.map((r): RuleMeta => ({ id: r.id, engine: 'publish', severity: r.severity, docs: { description: r.description, url: `docs/rules.md#${anchorOf(r.id)}` } })),
  ...SCANNER_RULES.map(({ meta: r }): RuleMeta => {
    const reportedAs = (REPORTED_BY_VALIDATOR as Partial<Record<ScannerRuleId, ValidatorRuleId>>)[r.id];
    return { id: r.id, engine: 'scanner', severity: r.severity, docs: r.docs, hint: r.hint, ...(reportedAs ? { reportedAs } : {}) };
  }),
];
