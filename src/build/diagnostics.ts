import type { RegistryConfig } from '../core/schemas/config.ts';
import type { Diagnostic } from '../core/schemas/diagnostic.ts';
import type { Position } from './parse/source-text.ts';
import { RULES_BY_ID } from './rules/catalog.ts';

/** Where the rules table lives, so every hint can point at the rule's documentation. */
export const RULES_DOC = 'CONTRIBUTING.md#rules';

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

  report(rule: string, file: string, at: Position, message: string, options: { hint?: string; skill?: string } = {}): void {
    const info = RULES_BY_ID.get(rule);
    if (!info) throw new Error(`unknown rule id '${rule}' (add it to src/build/rules/catalog.ts)`);
    const severity = this.#overrides[rule] ?? info.severity;
    if (severity === 'off') return;
    this.diagnostics.push({
      rule,
      severity,
      file,
      line: at.line,
      column: at.column,
      message,
      ...(options.hint ? { hint: options.hint } : {}),
      ...(options.skill ? { skill: options.skill } : {}),
    });
  }

  hasErrors(filter: (d: Diagnostic) => boolean = () => true): boolean {
    return this.diagnostics.some((d) => d.severity === 'error' && filter(d));
  }
}

export const START: Position = { line: 1, column: 1 };

/** Stable order for output: by file, then line, column and rule. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)));
}
