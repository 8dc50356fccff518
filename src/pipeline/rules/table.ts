import { ALL_RULES } from './all-rules.ts';

/**
 * The README's rules table in Markdown, generated from the one rule list so the docs cannot drift
 * from the code. It lists the validator's rules; the scanner's are in docs/rules.md and docs/security.md.
 */
export function rulesTableMarkdown(): string {
  const rows = ALL_RULES.filter((r) => r.engine === 'validator').map((r) => `| \`${r.id}\` | ${r.severity} | ${r.docs.description.replace(/\|/g, '\\|')} |`);
  return ['| rule | default | what it checks |', '| --- | --- | --- |', ...rows].join('\n');
}

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->`. */
export function replaceBetweenMarkers(text: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i === -1 || j === -1 || j < i) throw new Error(`markers ${start} … ${end} not found`);
  return `${text.slice(0, i + start.length)}\n${content}\n${text.slice(j)}`;
}
