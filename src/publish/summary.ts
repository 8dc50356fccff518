import type { ValidatorDiagnostic } from '../core/schemas/diagnostic.ts';
import { anchorOf } from '../core/rule.ts';
import type { SkillChange } from './changes.ts';

/**
 * The job summary of a pull-request check, as GitHub-flavoured Markdown (written to
 * $GITHUB_STEP_SUMMARY). Pure: the same inputs give byte-identical text, which is what the
 * snapshot test pins.
 */
export interface JobSummaryInput {
  /** What the change was compared with, e.g. `origin/main`; undefined for a full validation. */
  base?: string;
  /** The merge-base commit. */
  baseCommit?: string;
  /** A published index.json the versions were also checked against. */
  index?: string;
  changes: readonly SkillChange[];
  /** The diagnostics reported for this change (already filtered to it). */
  diagnostics: readonly ValidatorDiagnostic[];
  /** How many skills a full validation (neither `base` nor `index`) checked, accepted or rejected. */
  checked: number;
  /** When set, rule ids link to `${rulesDoc}#<anchor>` (e.g. the docs/rules.md blob URL). */
  rulesDoc?: string;
}

/**
 * Escapes text for a table cell: no HTML, no pipes, no line breaks, and no inline links or
 * images. Messages quote a skill's own text (its name, a link it holds), and
 * `![x](https://…)` or `[Approve](https://…)` there must show as written, not as a picture or a
 * button in the job summary. An inline link needs `](`; escaping that `(` breaks it, and, unlike
 * escaping every `[` or `\`, leaves the code spans of the messages themselves as they are.
 */
function cell(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|').replace(/\]\(/g, ']\\(').replace(/\r?\n/g, ' ');
}

/** A code span that cannot be broken out of. */
function code(text: string): string {
  return `\`${text.replace(/`/g, "'").replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')}\``;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * GitHub refuses a step summary over 1 MiB, and then shows none of it: a pull request with
 * thousands of problems would lose the one place that lists them all (the annotations stop at a
 * few per step). The tables stop short of this many bytes, leaving room for the lines that say
 * what they left out.
 */
export const MAX_SUMMARY_BYTES = 1000 * 1000;

const utf8 = new TextEncoder();
const byteLength = (text: string): number => utf8.encode(text).length;

export function jobSummaryMarkdown(input: JobSummaryInput): string {
  const { changes, diagnostics } = input;
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const warnings = diagnostics.filter((d) => d.severity === 'warning');
  const lines: string[] = ['## Skilldex pull-request check', ''];
  if (input.base) lines.push(`Compared with ${code(input.base)}${input.baseCommit ? ` (merge base ${code(input.baseCommit.slice(0, 12))})` : ''}${input.index ? ` and the published index ${code(input.index)}` : ''}.`, '');
  else if (input.index) lines.push(`Compared with the published index ${code(input.index)}.`, '');

  const verdict = errors.length > 0 ? '❌' : warnings.length > 0 ? '⚠️' : '✅';
  // A comparison (with a base, or a published index) counts the changed skills; a full validation
  // the skills it checked, so that a run that found no skill at all does not pass for a clean one.
  const compared = input.base !== undefined || input.index !== undefined;
  const scope = compared ? plural(changes.length, 'changed skill') : plural(input.checked, 'skill');
  lines.push(`${verdict} **${plural(errors.length, 'error')}**, ${plural(warnings.length, 'warning')} in ${scope}.`, '');

  let used = byteLength(lines.join('\n'));
  /** Adds a table row if it still fits the budget; false once it does not (and for every row after). */
  let full = false;
  const row = (line: string): boolean => {
    const size = byteLength(line) + 1;
    if (full || used + size > MAX_SUMMARY_BYTES) return !(full = true);
    lines.push(line);
    used += size;
    return true;
  };
  const rerun = code(`npx skilldex validate${input.base !== undefined ? ` --changed-since ${input.base}` : ''}${input.index !== undefined ? ` --against-index ${input.index}` : ''}`);
  const leftOut = (n: number, what: string) => {
    if (n > 0) lines.push('', `…and ${n} more ${what}, left out to keep this summary under GitHub's 1 MiB limit: run ${rerun} to see them all.`);
  };

  if (changes.length > 0) {
    lines.push('| skill | folder | change | version | digest | errors | warnings |', '| --- | --- | --- | --- | --- | --- | --- |');
    let omitted = 0;
    for (const c of changes) {
      const dirs = [c.dir, ...(c.before && c.before.dir !== c.dir ? [c.before.dir] : [])];
      const mine = diagnostics.filter((d) => dirs.some((dir) => d.file.startsWith(`${dir}/`)) || (c.name !== undefined && d.skill === c.name));
      const version = c.status === 'added' ? (c.after?.version ?? '') : c.status === 'removed' ? `${c.before?.version ?? ''} → —` : `${c.before?.version ?? ''} → ${c.after?.version ?? ''}`;
      const digest = c.after?.digest ?? c.before?.digest ?? '';
      const count = (severity: ValidatorDiagnostic['severity']) => (c.status === 'removed' ? '—' : String(mine.filter((d) => d.severity === severity).length));
      const folder = dirs.length > 1 ? `${code(dirs[1] as string)} → ${code(dirs[0] as string)}` : code(c.dir);
      if (!row(`| ${code(c.name ?? '(unreadable)')} | ${folder} | ${c.status} | ${cell(version)} | ${code(digest)} | ${count('error')} | ${count('warning')} |`)) omitted++;
    }
    leftOut(omitted, omitted === 1 ? 'changed skill' : 'changed skills');
    lines.push('');
  }

  if (diagnostics.length > 0) {
    lines.push('### Problems', '', '| severity | rule | where | message |', '| --- | --- | --- | --- |');
    let omitted = 0;
    for (const d of diagnostics) {
      const rule = input.rulesDoc ? `[${code(d.rule)}](${input.rulesDoc}#${anchorOf(d.rule)})` : code(d.rule);
      const message = d.hint ? `${d.message} — hint: ${d.hint}` : d.message;
      if (!row(`| ${d.severity} | ${rule} | ${code(`${d.file}:${d.line}:${d.column}`)} | ${cell(message)} |`)) omitted++;
    }
    leftOut(omitted, omitted === 1 ? 'problem' : 'problems');
    lines.push('');
  }
  if (compared && changes.length === 0 && diagnostics.length === 0) lines.push('No skills changed.', '');
  return `${lines.join('\n')}`;
}
