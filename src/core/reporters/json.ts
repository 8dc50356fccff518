import { LEVEL, type Report } from './report.ts';

/**
 * Machine-readable output. A validator run: `{…extra, errors, warnings, diagnostics}`, every
 * diagnostic as the `Diagnostic` schema has it. A scan: `{rulesVersion, verdict, skills: [{name,
 * path, verdict, rulesVersion, findings}]}`, each finding as the `Finding` schema has it, with
 * `file` relative to the working directory. `extra` never overwrites the counts or diagnostics.
 *
 * @example JSON.parse(formatJson({ diagnostics })).errors // 0
 */
export function formatJson(report: Report, extra: Record<string, unknown> = {}): string {
  const { diagnostics, scan } = report;
  const errors = diagnostics.filter((d) => LEVEL[d.severity] === 'error').length;
  const value = scan
    ? {
        rulesVersion: scan.rulesVersion,
        verdict: scan.verdict,
        // Each finding as a manifest publishes it: the skill is the entry's, not repeated in every finding.
        skills: scan.skills.map(({ name, path, verdict, rulesVersion, findings }) => ({ name, path, verdict, rulesVersion, findings: findings.map(({ skill: _, ...f }) => f) })),
      }
    : { ...extra, errors, warnings: diagnostics.length - errors, diagnostics };
  return `${JSON.stringify(value, null, 2)}\n`;
}
