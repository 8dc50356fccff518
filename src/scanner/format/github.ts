import { annotation, escapeData, escapeProperty } from '../../core/github-annotation.ts';
import type { RiskSeverity } from '../../core/schemas/diagnostic.ts';
import { displayPath, type SkillScanReport } from './report.ts';

const COMMAND: Record<RiskSeverity, 'error' | 'warning' | 'notice'> = { critical: 'error', high: 'error', warn: 'warning', info: 'notice' };

// The escaping lives with the one annotation writer; re-exported for the scanner's public API.
export { escapeData, escapeProperty };

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
      const at = { file: displayPath(report, f), line: f.line, column: f.column, title: `${f.rule} (${f.severity})` };
      out += annotation(COMMAND[f.severity], at, `${f.message}\nEvidence: ${f.evidence}\nDocs: ${f.docs}`);
    }
  }
  return out;
}
