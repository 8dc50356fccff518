import { defineCommand } from 'citty';
import { checkFilters, filterArgs, parseLimit, printSkills } from '../_skill-list.ts';
import { openRegistryFromArgs, registryArgs } from '../_registry.ts';

export default defineCommand({
  meta: { name: 'list', description: "List every skill in a registry, by name, with the same filters as search. --json prints {matched_skills}" },
  args: {
    limit: { type: 'string', description: 'Most skills (default: all)' },
    ...filterArgs,
    ...registryArgs,
  },
  async run({ args }) {
    const limit = parseLimit(args.limit);
    checkFilters(args);
    printSkills(await openRegistryFromArgs(args), '', args, limit);
    return 0;
  },
});
