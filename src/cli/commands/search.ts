import { defineCommand } from 'citty';
import { CliError } from '../_errors.ts';
import { err, out, outJson, style, visible } from '../_output.ts';
import { openRegistryFromArgs, registryArgs } from '../_registry.ts';

const list = (value: unknown): string[] => (typeof value === 'string' && value !== '' ? value.split(',').map((s) => s.trim()).filter(Boolean) : []);

export default defineCommand({
  meta: { name: 'search', description: "Search a registry's skills (BM25; Chinese and Japanese work too). --json prints {matched_skills}" },
  args: {
    query: { type: 'positional', description: 'What the skill should do; "" lists everything', required: true },
    limit: { type: 'string', description: 'Most results', default: '10' },
    tag: { type: 'string', description: 'Only skills with these tags (comma-separated)' },
    category: { type: 'string', description: 'Only this category' },
    format: { type: 'string', description: 'Only this format: skill-md, package, skill-json' },
    mode: { type: 'string', description: 'Only this mode: instructions, code, llm, composite' },
    ...registryArgs,
  },
  async run({ args }) {
    const registry = await openRegistryFromArgs(args);
    const limit = Number(args.limit);
    if (!Number.isInteger(limit) || limit < 1) throw new CliError('E_USAGE', `--limit must be a positive integer, not '${args.limit}'`, { exitCode: 2 });
    const options = { limit, tags: list(args.tag), category: args.category, format: args.format as never, mode: args.mode as never };
    if (args.json) {
      outJson(registry.search(String(args.query), { ...options, shape: 'matched_skills' }));
      return 0;
    }
    const hits = registry.search(String(args.query), options);
    if (hits.length === 0) err(`no skills match '${visible(String(args.query))}'`);
    const width = Math.max(...hits.map((hit) => hit.skill.name.length), 0);
    for (const { skill } of hits) {
      const description = visible(skill.description.length > 100 ? `${skill.description.slice(0, 99)}…` : skill.description);
      out(`${style.bold(skill.name.padEnd(width))}  ${description} ${style.dim(`[${skill.format}, ${skill.mode}]`)}`);
    }
    return 0;
  },
});
