import type { RegistryConfig } from '../core/schemas/config.ts';
import type { Diagnostic, RelatedLocation, RuleSeverity } from '../core/schemas/diagnostic.ts';
import type { Position } from '../core/parse/source-text.ts';
import { RULES_BY_ID, type RuleInfo, type ValidatorRuleId } from './rules/catalog.ts';

/** Where the rules reference lives, so every hint can point at the rule's documentation (`docs/rules.md#<anchor>`). */
export const RULES_DOC = 'docs/rules.md';

/**
 * Collects diagnostics, applying the registry's per-rule severity overrides (ESLint style).
 * Rules never decide their own final severity; they report, and the sink resolves.
 */
export class DiagnosticSink {
  readonly diagnostics: Diagnostic[] = [];
  readonly #overrides: RegistryConfig['rules'];

  constructor(overrides: RegistryConfig['rules'] = {}) {
    this.#overrides = overrides;
  }

  /**
   * Records a problem and returns the severity it ended up with, so a rule can tell whether the
   * registry's config made it blocking.
   */
  report(rule: ValidatorRuleId, file: string, at: Position, message: string, options: DiagnosticOptions = {}): RuleSeverity {
    const info = RULES_BY_ID.get(rule) as RuleInfo;
    const diagnostic = resolveDiagnostic(info, this.#overrides, file, at, message, options);
    if (diagnostic) this.diagnostics.push(diagnostic);
    return diagnostic?.severity ?? 'off';
  }
}

/** What a rule may add to a diagnostic besides its place and message. */
export interface DiagnosticOptions {
  hint?: string;
  skill?: string;
  related?: RelatedLocation[];
}

export const START: Position = { line: 1, column: 1 };

/** Stable order for output: by file, then line, column and rule. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)));
}

/**
 * A diagnostic for `rule` with the registry's severity override applied, or undefined when the
 * registry turned the rule off. Shared by the build's sink and the pull-request rules.
 */
export function resolveDiagnostic(
  info: RuleInfo,
  overrides: RegistryConfig['rules'],
  file: string,
  at: Position,
  message: string,
  options: DiagnosticOptions = {},
): Diagnostic | undefined {
  const severity = overrides[info.id] ?? info.severity;
  if (severity === 'off') return undefined;
  return {
    rule: info.id,
    severity,
    file,
    line: at.line,
    column: at.column,
    message,
    ...(options.hint ? { hint: options.hint } : {}),
    ...(options.skill ? { skill: options.skill } : {}),
    ...(options.related?.length ? { related: options.related } : {}),
  };
}
