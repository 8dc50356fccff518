import { defineCommand } from 'citty';
import { checkFilters, filterArgs, parseLimit, printSkills } from '../_skill-list.ts';
import { openRegistryFromArgs, registryArgs } from '../_registry.ts';

/** A ranked search shows the best few; an empty query is a listing and shows every skill. */
const DEFAULT_SEARCH_LIMIT = 10;

export default defineCommand({
  meta: { name: 'search', description: "Search a registry's skills (BM25; Chinese and Japanese work too). --json prints {matched_skills}" },
  args: {
    query: { type: 'positional', description: 'What the skill should do; "" lists every skill (as `skilldex list` does)', required: true },
    limit: { type: 'string', description: `Most results (default ${DEFAULT_SEARCH_LIMIT}; all for "")` },
    ...filterArgs,
    ...registryArgs,
  },
  async run({ args }) {
    const query = String(args.query);
    const limit = args.limit === undefined && query.trim() === '' ? Number.POSITIVE_INFINITY : parseLimit(args.limit ?? String(DEFAULT_SEARCH_LIMIT));
    checkFilters(args);
    printSkills(await openRegistryFromArgs(args), query, args, limit);
    return 0;
  },
});
