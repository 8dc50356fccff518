/**
 * What the parsers share, apart from the parsers themselves: the JSON parser (the config,
 * skill.json) needs these without loading the YAML library the frontmatter parser is built on.
 */

/** What a pure parser found, named by the id of the rule it is reported under. */
export interface ParseProblem<Rule extends string = string> {
  rule: Rule;
  offset: number;
  message: string;
  hint?: string;
}

/** Keys that would reach Object.prototype if a consumer ever merged this data into an object. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The hint of every too-deep problem: most nesting that deep is a mistake, and where it is meant,
 * the registry's maintainers set the limit.
 */
export function tooDeepHint(maxDepth: number): string {
  return `flatten the structure; the registry allows ${maxDepth} levels (limits.maxDepth in skilldex.config.json)`;
}
