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
 * The problem of values nested deeper than the limit, for the YAML and JSON readers alike. Its
 * hint says where the limit is set: most nesting that deep is a mistake, and where it is meant,
 * the registry's maintainers raise it.
 */
export function tooDeep<Rule extends string>(rule: Rule, offset: number, maxDepth: number): ParseProblem<Rule> {
  return { rule, offset, message: `values nest deeper than ${maxDepth} levels`, hint: `flatten the structure; the registry allows ${maxDepth} levels (limits.maxDepth in skilldex.config.json)` };
}
