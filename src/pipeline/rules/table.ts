import { RULES } from './catalog.ts';

/** The rules table in Markdown, generated so the docs cannot drift from the code. */
export function rulesTableMarkdown(): string {
  const rows = RULES.map((r) => `| \`${r.id}\` | ${r.severity} | ${r.description.replace(/\|/g, '\\|')} |`);
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
