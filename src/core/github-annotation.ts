/**
 * The one GitHub Actions workflow-command writer, for the validator's diagnostics and the
 * scanner's findings alike: `::error file=…,line=…,col=…,title=…::message`. Pure.
 */

/** Escapes a workflow-command message (GitHub's `escapeData`): `%`, CR and LF. */
export const escapeData = (s: string): string => s.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');

/** Escapes a workflow-command property (GitHub's `escapeProperty`): also `:` and `,`. */
export const escapeProperty = (s: string): string => escapeData(s).replaceAll(':', '%3A').replaceAll(',', '%2C');

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
