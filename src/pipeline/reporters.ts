import type { ValidatorDiagnostic as Diagnostic } from '../core/schemas/diagnostic.ts';
import { anchorOf } from '../core/rule.ts';

/** Where the rules reference lives, so every hint can point at the rule's documentation (`docs/rules.md#<anchor>`). */
const RULES_DOC = 'docs/rules.md';
import { annotation, escapeData, escapeProperty } from '../core/github-annotation.ts';

/**
 * Diagnostic output formats. Pure: each returns the text to print.
 */

export interface FormatStyle {
  red(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const plain: FormatStyle = { red: (t) => t, yellow: (t) => t, dim: (t) => t, bold: (t) => t };

/**
 * `path:line:col  rule-id  message` and an indented hint, then a summary line.
 *
 * @example
 * formatHuman([{ file: 'skills/x/SKILL.md', line: 2, column: 7, rule: 'name/folder-mismatch', severity: 'error', message: '…', hint: '…' }])
 */
export function formatHuman(diagnostics: readonly Diagnostic[], style: FormatStyle = plain): string {
  const lines: string[] = [];
  for (const d of diagnostics) {
    const level = d.severity === 'error' ? style.red('error') : style.yellow('warning');
    lines.push(`${d.file}:${d.line}:${d.column}  ${style.bold(d.rule)}  ${level}  ${d.message}`);
    for (const r of d.related ?? []) lines.push(style.dim(`    ${r.file}:${r.line}:${r.column}  ${r.message}`));
    if (d.hint) lines.push(style.dim(`    hint: ${d.hint} (${RULES_DOC}#${anchor(d.rule)})`));
  }
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  lines.push(`${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`);
  return `${lines.join('\n')}\n`;
}

export function formatJson(diagnostics: readonly Diagnostic[], extra: Record<string, unknown> = {}): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return `${JSON.stringify({ ...extra, errors, warnings: diagnostics.length - errors, diagnostics }, null, 2)}\n`;
}

/**
 * GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::message`.
 * Properties escape `%`, CR, LF, `:` and `,`; the message escapes `%`, CR and LF.
 */
export function formatGithub(diagnostics: readonly Diagnostic[]): string {
  return diagnostics
    .map((d) => {
      const related = (d.related ?? []).map((r) => ` (see ${r.file}:${r.line}: ${r.message})`).join('');
      const message = `${d.message}${related}${d.hint ? ` (hint: ${d.hint})` : ''}`;
      return annotation(d.severity, { file: d.file, line: d.line, column: d.column, title: d.rule }, message);
    })
    .join('');
}

// One annotation writer (src/core/github-annotation.ts) for the validator and the scanner; its escaping stays exported here for callers of this module.
export { escapeData, escapeProperty };

/** The anchor of a rule in its reference page: `name/folder-mismatch` → `name-folder-mismatch`. */
export const anchor = anchorOf;
