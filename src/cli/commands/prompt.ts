import { defineCommand } from 'citty';
import { PROMPT_STYLES, type PromptStyle } from '../../core/prompt.ts';
import { choiceError } from '../_errors.ts';
import { parseLimit } from '../_skill-list.ts';
import { out, outJson, visible } from '../_output.ts';
import { openRegistryFromArgs, registryArgs } from '../_registry.ts';

export default defineCommand({
  meta: { name: 'prompt', description: 'Print the skills block for a system prompt: <available_skills> (Agent Skills) or the compact <available-skills>' },
  args: {
    names: { type: 'positional', description: 'Skills to list (default: all, or the --query results)', required: false },
    style: { type: 'string', description: `${PROMPT_STYLES.join(' | ')}`, default: 'agent-skills' },
    query: { type: 'string', description: 'List the best matches for this search instead' },
    limit: { type: 'string', description: 'With --query: most skills', default: '10' },
    ...registryArgs,
  },
  async run({ args }) {
    if (!PROMPT_STYLES.includes(args.style as PromptStyle)) throw choiceError('style', String(args.style), PROMPT_STYLES);
    const limit = parseLimit(args.limit);
    const registry = await openRegistryFromArgs(args);
    const names = (args._ as string[]).filter(Boolean);
    const selection = args.query !== undefined ? registry.search(String(args.query), { limit }).map((hit) => hit.skill) : names.length > 0 ? names : undefined;
    const prompt = registry.toPrompt(selection, { style: args.style as PromptStyle });
    if (args.json) {
      const skills = selection === undefined ? registry.list().map((entry) => entry.name) : selection.map((s) => (typeof s === 'string' ? registry.entry(s).name : s.name));
      outJson({ style: args.style, skills, prompt });
    } else out(visible(prompt));
    return 0;
  },
});
