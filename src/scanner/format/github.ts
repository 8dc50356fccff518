import type { FindingSeverity } from '../../core/schemas/scan.ts';
import { displayPath, type SkillScanReport } from './report.ts';

const COMMAND: Record<FindingSeverity, 'error' | 'warning' | 'notice'> = { critical: 'error', high: 'error', warn: 'warning', info: 'notice' };

/** Escapes a workflow-command message (GitHub's `escapeData`): `%`, CR and LF. */
export const escapeData = (s: string): string => s.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');

/** Escapes a workflow-command property (GitHub's `escapeProperty`): also `:` and `,`. */
export const escapeProperty = (s: string): string => escapeData(s).replaceAll(':', '%3A').replaceAll(',', '%2C');

/**
 * GitHub Actions annotations, one workflow command per finding:
 * `::error file=…,line=…,col=…,title=…::message`. `critical`/`high` are errors, `warn` warnings,
 * `info` notices.
 *
 * @example process.stdout.write(formatGithub(reports));
 */
export function formatGithub(reports: readonly SkillScanReport[]): string {
  let out = '';
  for (const report of reports) {
    for (const f of report.result.findings) {
      const props = [
        `file=${escapeProperty(displayPath(report, f))}`,
        `line=${f.line}`,
        `col=${f.column}`,
        `title=${escapeProperty(`${f.rule} (${f.severity})`)}`,
      ].join(',');
      out += `::${COMMAND[f.severity]} ${props}::${escapeData(`${f.message}\nEvidence: ${f.evidence}\nDocs: ${f.docs}`)}\n`;
    }
  }
  return out;
}
