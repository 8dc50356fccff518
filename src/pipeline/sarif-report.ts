import { sarifLog, type SarifLevel } from '../core/sarif.ts';
import type { ValidatorDiagnostic as Diagnostic } from '../core/schemas/diagnostic.ts';
import { LEVEL as SCANNER_LEVEL } from '../scanner/format/sarif.ts';
import { ALL_RULES } from './rules/all-rules.ts';

// Its own module, apart from ./reporters.ts: describing every rule loads the whole rule list
// (scanner and pull-request rules included), which the other formats and a plain validate never need.

const levelOf = (severity: (typeof ALL_RULES)[number]['meta']['severity']): SarifLevel => (severity === 'error' || severity === 'warning' ? severity : SCANNER_LEVEL[severity]);

/**
 * SARIF 2.1.0 for GitHub code scanning, written by the same writer as `skilldex scan --format
 * sarif`: every rule of the one rule list in `tool.driver.rules`, one result per diagnostic, its
 * hint in the message and its other places as `relatedLocations`.
 *
 * @example writeFileSync('validate.sarif', formatSarif(diagnostics, { version: '1.2.0' }));
 */
export function formatSarif(diagnostics: readonly Diagnostic[], options: { version: string }): string {
  const rules = ALL_RULES.map(({ meta: r }) => ({
    id: r.id,
    title: r.docs.description,
    description: r.docs.explanation ?? r.docs.description,
    ...(r.hint !== undefined ? { fix: r.hint } : {}),
    level: levelOf(r.severity),
  }));
  const results = diagnostics.map((d) => ({
    ruleId: d.rule,
    level: d.severity,
    message: d.hint ? `${d.message}\nHint: ${d.hint}` : d.message,
    file: d.file,
    line: d.line,
    column: d.column,
    ...(d.related ? { related: d.related } : {}),
    fingerprint: { 'skilldexDiagnostic/v1': `${d.rule}:${d.file}:${d.message}` },
    ...(d.skill !== undefined ? { properties: { skill: d.skill } } : {}),
  }));
  return sarifLog({ name: 'skilldex-validate', version: options.version, rules }, results, 'The directory skilldex ran in.');
}
