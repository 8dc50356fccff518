import { defineCommand } from 'citty';
import { filterArgs, parseLimit, printSkills } from '../_skill-list.ts';
import { openRegistryFromArgs, registryArgs } from '../_registry.ts';

export default defineCommand({
  meta: { name: 'list', description: "List every skill in a registry, by name, with the same filters as search. --json prints {matched_skills}" },
  args: {
    limit: { type: 'string', description: 'Most skills (default: all)' },
    ...filterArgs,
    ...registryArgs,
  },
  async run({ args }) {
    printSkills(await openRegistryFromArgs(args), '', args, parseLimit(args.limit));
    return 0;
  },
});
