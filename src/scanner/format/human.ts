import type { RiskSeverity } from '../../core/schemas/diagnostic.ts';
import type { ScanVerdict } from '../../core/schemas/scan.ts';
import { displayPath, type SkillScanReport } from './report.ts';

type Paint = (text: string) => string;
/** Optional terminal styling; the formatter itself stays pure and defaults to plain text. */
export interface HumanStyle {
  red: Paint;
  yellow: Paint;
  green: Paint;
  cyan: Paint;
  dim: Paint;
  bold: Paint;
}

const plain: Paint = (t) => t;
const PLAIN: HumanStyle = { red: plain, yellow: plain, green: plain, cyan: plain, dim: plain, bold: plain };

/**
 * Readable report: one block per skill with its verdict, then each finding as
 * `path:line:col  severity  rule-id`, the message, the evidence and the docs link.
 *
 * @example process.stdout.write(formatHuman([{ name: 'pdf', path: 'skills/pdf', result }]));
 */
export function formatHuman(reports: readonly SkillScanReport[], style: HumanStyle = PLAIN): string {
  const verdictColor: Record<ScanVerdict, Paint> = { pass: style.green, review: style.cyan, warn: style.yellow, fail: style.red };
  const severityColor: Record<RiskSeverity, Paint> = { info: style.dim, warn: style.cyan, high: style.yellow, critical: style.red };
  const lines: string[] = [];
  const tally: Record<ScanVerdict, number> = { pass: 0, review: 0, warn: 0, fail: 0 };
  for (const report of reports) {
    const { verdict, findings } = report.result;
    tally[verdict]++;
    const counts = (['critical', 'high', 'warn', 'info'] as const)
      .map((s) => [s, findings.filter((f) => f.severity === s).length] as const)
      .filter(([, n]) => n > 0)
      .map(([s, n]) => `${n} ${s}`)
      .join(', ');
    lines.push(`${style.bold(report.path || '.')} (${report.name}): ${verdictColor[verdict](verdict.toUpperCase())}${counts ? ` — ${counts}` : ''}`);
    for (const f of findings) {
      lines.push(`  ${displayPath(report, f)}:${f.line}:${f.column}  ${severityColor[f.severity](f.severity)}  ${f.rule}`);
      lines.push(`      ${f.message}`);
      lines.push(`      ${style.dim('evidence:')} ${f.evidence}`);
      lines.push(`      ${style.dim('docs:')} ${f.docs}`);
    }
  }
  const total = reports.length;
  lines.push('');
  lines.push(
    `${total} skill${total === 1 ? '' : 's'} scanned: ${tally.fail} fail, ${tally.warn} warn, ${tally.review} review, ${tally.pass} pass` +
      (reports[0] ? ` (rules ${reports[0].result.rulesVersion})` : ''),
  );
  return `${lines.join('\n')}\n`;
}
