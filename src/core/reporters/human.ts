import type { Diagnostic, Severity } from '../schemas/diagnostic.ts';
import type { ScanVerdict } from '../schemas/scan.ts';
import { docsLink, LEVEL, type Report } from './report.ts';

type Paint = (text: string) => string;

/** Optional terminal styling; the format itself stays pure and defaults to plain text. */
export interface HumanStyle {
  red: Paint;
  yellow: Paint;
  green: Paint;
  cyan: Paint;
  dim: Paint;
  bold: Paint;
  /** How a documentation link is shown: the CLI points it at where the reader's copy of the docs is. */
  link?: Paint;
}

const plain: Paint = (t) => t;
const PLAIN: HumanStyle = { red: plain, yellow: plain, green: plain, cyan: plain, dim: plain, bold: plain };

const severityPaint = (style: HumanStyle): Record<Severity, Paint> => ({
  error: style.red,
  warning: style.yellow,
  critical: style.red,
  high: style.yellow,
  warn: style.cyan,
  info: style.dim,
});

/**
 * One diagnostic: `path:line:col  rule  severity  message`, its other places, the hint with the
 * rule's documentation link (or, for a finding, which has no hint, the link alone), and the
 * evidence a scanner rule matched.
 */
function diagnosticLines(d: Diagnostic, style: HumanStyle, paint: Record<Severity, Paint>): string[] {
  const lines = [`${d.file}:${d.line}:${d.column}  ${style.bold(d.rule)}  ${paint[d.severity](d.severity)}  ${d.message}`];
  for (const r of d.related ?? []) lines.push(style.dim(`    ${r.file}:${r.line}:${r.column}  ${r.message}`));
  if (d.evidence !== undefined) lines.push(`    ${style.dim('evidence:')} ${d.evidence}`);
  const link = style.link ?? plain;
  if (d.hint) lines.push(style.dim(`    hint: ${d.hint} (${link(docsLink(d))})`));
  else if (d.docs) lines.push(`    ${style.dim('docs:')} ${link(d.docs)}`);
  return lines;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Readable output, the same line for every diagnostic of every command. A validator run prints
 * the diagnostics and `N errors, M warnings`; a scan prints a block per skill headed by its
 * verdict and the count of each severity, then how many skills got each verdict.
 *
 * @example
 * formatHuman({ diagnostics: [{ file: 'skills/x/SKILL.md', line: 2, column: 7, rule: 'name/folder-mismatch', severity: 'error', message: '…', hint: '…' }] })
 */
export function formatHuman(report: Report, style: HumanStyle = PLAIN): string {
  const paint = severityPaint(style);
  const lines: string[] = [];
  const { scan, diagnostics } = report;
  if (!scan) {
    for (const d of diagnostics) lines.push(...diagnosticLines(d, style, paint));
    const errors = diagnostics.filter((d) => LEVEL[d.severity] === 'error').length;
    lines.push(`${plural(errors, 'error')}, ${plural(diagnostics.length - errors, 'warning')}`);
    return `${lines.join('\n')}\n`;
  }
  const verdictPaint: Record<ScanVerdict, Paint> = { pass: style.green, review: style.cyan, warn: style.yellow, fail: style.red };
  const tally: Record<ScanVerdict, number> = { pass: 0, review: 0, warn: 0, fail: 0 };
  for (const skill of scan.skills) {
    tally[skill.verdict]++;
    const counts = (['critical', 'high', 'warn', 'info'] as const)
      .map((s) => [s, skill.findings.filter((f) => f.severity === s).length] as const)
      .filter(([, n]) => n > 0)
      .map(([s, n]) => `${n} ${s}`)
      .join(', ');
    lines.push(`${style.bold(skill.path || '.')} (${skill.name}): ${verdictPaint[skill.verdict](skill.verdict.toUpperCase())}${counts ? ` — ${counts}` : ''}`);
    for (const f of skill.findings) lines.push(...diagnosticLines(f, style, paint));
  }
  lines.push('');
  lines.push(`${plural(scan.skills.length, 'skill')} scanned: ${tally.fail} fail, ${tally.warn} warn, ${tally.review} review, ${tally.pass} pass (rules ${scan.rulesVersion})`);
  return `${lines.join('\n')}\n`;
}
