import type { Diagnostic } from '../schemas/diagnostic.ts';
import { isRisk, LEVEL } from './report.ts';

/**
 * GitHub Actions workflow commands, one per diagnostic: `::error file=…,line=…,col=…,title=…::message`.
 * Pure. A finding's title carries its risk severity (the annotation level alone cannot), and its
 * evidence and documentation link follow the message on lines of their own.
 */

/** Escapes a workflow-command message (GitHub's `escapeData`): `%`, CR and LF. */
export const escapeData = (s: string): string => s.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');

/** Escapes a workflow-command property (GitHub's `escapeProperty`): also `:` and `,`. */
export const escapeProperty = (s: string): string => escapeData(s).replaceAll(':', '%3A').replaceAll(',', '%2C');

const COMMAND = { error: 'error', warning: 'warning', note: 'notice' } as const;

/**
 * One annotation line. Every property and the message are escaped here, so a file name or a
 * message quoting a skill can never end the command early or start another.
 *
 * @example annotation('error', { file: 'skills/x/SKILL.md', line: 2, column: 7, title: 'name/charset' }, 'bad name')
 */
export function annotation(command: 'error' | 'warning' | 'notice', at: { file: string; line: number; column: number; title: string }, message: string): string {
  const props = [`file=${escapeProperty(at.file)}`, `line=${at.line}`, `col=${at.column}`, `title=${escapeProperty(at.title)}`].join(',');
  return `::${command} ${props}::${escapeData(message)}\n`;
}

/**
 * @example process.stdout.write(formatGithub({ diagnostics }));
 */
export function formatGithub({ diagnostics }: { diagnostics: readonly Diagnostic[] }): string {
  return diagnostics
    .map((d) => {
      const related = (d.related ?? []).map((r) => ` (see ${r.file}:${r.line}: ${r.message})`).join('');
      const message = `${d.message}${related}${d.hint ? ` (hint: ${d.hint})` : ''}${d.evidence !== undefined ? `\nEvidence: ${d.evidence}` : ''}${d.docs ? `\nDocs: ${d.docs}` : ''}`;
      const title = isRisk(d.severity) ? `${d.rule} (${d.severity})` : d.rule;
      return annotation(COMMAND[LEVEL[d.severity]], { file: d.file, line: d.line, column: d.column, title }, message);
    })
    .join('');
}
