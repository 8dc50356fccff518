import type { RegistryConfig } from '../core/schemas/config.ts';
import type { RelatedLocation, RuleSeverity, ValidatorDiagnostic } from '../core/schemas/diagnostic.ts';
import type { Position } from '../core/parse/source-text.ts';
import type { ValidatorRule } from './rules/rule.ts';

/**
 * Collects diagnostics, applying the registry's per-rule severity overrides (ESLint style).
 * Rules never decide their own final severity; they report, and the sink resolves.
 */
export class DiagnosticSink {
  readonly diagnostics: ValidatorDiagnostic[] = [];
  /**
   * Rules that found a problem at `error` by default and that the registry's config turned off or
   * down to a warning: the per-skill phase names them when such a problem still keeps a skill out.
   */
  readonly weakened = new Set<string>();
  readonly #overrides: RegistryConfig['rules'];

  constructor(overrides: RegistryConfig['rules'] = {}) {
    this.#overrides = overrides;
  }

  /**
   * Records a problem found by `rule` and returns the severity it ended up with, so a caller can
   * tell whether the registry's config made it blocking.
   */
  report(rule: ValidatorRule, file: string, at: Position, message: string, options: DiagnosticOptions = {}): RuleSeverity {
    const diagnostic = resolveDiagnostic(rule, this.#overrides, file, at, message, options);
    if (diagnostic) this.diagnostics.push(diagnostic);
    const severity = diagnostic?.severity ?? 'off';
    if (rule.meta.severity === 'error' && severity !== 'error') this.weakened.add(rule.meta.id);
    return severity;
  }

  /** The severity the registry gives `rule`: its default unless `skilldex.config.json` changes it. */
  severityOf(rule: ValidatorRule): RuleSeverity {
    return this.#overrides[rule.meta.id] ?? rule.meta.severity;
  }
}

/** What a report may add to a diagnostic besides its place and message. */
export interface DiagnosticOptions {
  /** A hint more specific than the rule's own. */
  hint?: string;
  skill?: string;
  related?: RelatedLocation[];
}

export const START: Position = { line: 1, column: 1 };

/** Stable order for output: by file, then line, column and rule. */
export function sortDiagnostics<D extends Pick<ValidatorDiagnostic, 'file' | 'line' | 'column' | 'rule'>>(list: readonly D[]): D[] {
  return [...list].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)));
}

/**
 * A diagnostic of `rule` with the registry's severity override applied and the rule's hint unless
 * the report gave its own, or undefined when the registry turned the rule off. Shared by the
 * build's sink and the pull-request checks.
 *
 * @example
 * resolveDiagnostic(publishMixedChange, config.rules, '.github/workflows/x.yml', START, 'this change edits …')
 */
export function resolveDiagnostic(
  rule: ValidatorRule,
  overrides: RegistryConfig['rules'],
  file: string,
  at: Position,
  message: string,
  options: DiagnosticOptions = {},
): ValidatorDiagnostic | undefined {
  const severity = overrides[rule.meta.id] ?? rule.meta.severity;
  if (severity === 'off') return undefined;
  return {
    rule: rule.meta.id,
    severity,
    file,
    line: at.line,
    column: at.column,
    message,
    hint: options.hint ?? rule.meta.hint,
    ...(options.skill ? { skill: options.skill } : {}),
    ...(options.related?.length ? { related: options.related } : {}),
  };
}
