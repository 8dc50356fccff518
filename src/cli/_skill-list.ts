import { SkillFormat, SkillMode } from '../core/schemas/manifest.ts';
import type { NodeRegistry } from '../runtime/node/node-registry.ts';
import { choiceError, CliError } from './_errors.ts';
import { err, out, outJson, printable, style, visible } from './_output.ts';

/** The filters `search` and `list` share. */
export const filterArgs = {
  tag: { type: 'string', description: 'Only skills with these tags (comma-separated)' },
  category: { type: 'string', description: 'Only this category' },
  format: { type: 'string', description: 'Only this format: skill-md, package, skill-json' },
  mode: { type: 'string', description: 'Only this mode: instructions, code, llm, composite' },
} as const;

/**
 * Refuses a `--format` or `--mode` no skill can have, before any request: the filter would
 * otherwise match nothing and the command would report "no skills match" with exit status 0.
 */
export function checkFilters(args: { format?: string; mode?: string }): void {
  for (const [flag, value, allowed] of [['format', args.format, SkillFormat.options], ['mode', args.mode, SkillMode.options]] as const) {
    if (value !== undefined && !(allowed as readonly string[]).includes(value)) throw choiceError(flag, value, allowed);
  }
}

const split = (value: unknown): string[] => (typeof value === 'string' && value !== '' ? value.split(',').map((s) => s.trim()).filter(Boolean) : []);

/** `--limit` as a number; absent means every match. */
export function parseLimit(value: string | undefined): number {
  if (value === undefined) return Number.POSITIVE_INFINITY;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1) throw new CliError('E_USAGE', `--limit must be a positive integer, not '${visible(value)}'`, { exitCode: 2, hint: 'give the most results to show as a whole number, e.g. --limit 20' });
  return limit;
}

/**
 * Prints the skills matching `query` (every skill for ""), best first: one line each, or with
 * `--json` the skills index's `{matched_skills}` shape. When `limit` cut the list short, says how
 * many more there are, so a listing never looks complete when it is not.
 */
export function printSkills(registry: NodeRegistry, query: string, args: { json?: boolean; tag?: string; category?: string; format?: string; mode?: string }, limit: number): void {
  const options = { tags: split(args.tag), category: args.category, format: args.format as never, mode: args.mode as never };
  const all = registry.search(query, { ...options, limit: Number.POSITIVE_INFINITY });
  const hits = all.slice(0, limit);
  if (args.json) {
    outJson({ matched_skills: hits.map((hit) => ({ name: hit.skill.name, description: hit.skill.description })) });
    return;
  }
  if (hits.length === 0) err(query === '' ? 'no skills match these filters' : `no skills match '${visible(query)}'`);
  const width = hits.reduce((most, hit) => Math.max(most, hit.skill.name.length), 0);
  for (const { skill } of hits) {
    // One line per skill: a line feed in a description (the build allows them) must not start
    // what reads as another skill's line.
    const description = printable(skill.description.length > 100 ? `${skill.description.slice(0, 99)}…` : skill.description);
    out(`${style.bold(skill.name.padEnd(width))}  ${description} ${style.dim(`[${skill.format}, ${skill.mode}]`)}`);
  }
  if (all.length > hits.length) err(style.dim(`${all.length - hits.length} more not shown (--limit ${limit}); raise --limit to see them`));
}
