import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument, type Document, type Node } from 'yaml';
import { bracketDepthExceeds } from '../json-depth.ts';
import { nodeOffset } from './node-position.ts';
import type { Limits } from '../schemas/config.ts';
import { positionAt, type Position, type SourceText } from './source-text.ts';
import { FORBIDDEN_KEYS, type ParseProblem } from './problem.ts';
import { splitFrontmatter } from './frontmatter-split.ts';

export { FORBIDDEN_KEYS, type ParseProblem } from './problem.ts';
export { splitFrontmatter, type FrontmatterSplit } from './frontmatter-split.ts';

/**
 * Splits a SKILL.md into YAML frontmatter and Markdown body, and parses the YAML safely.
 *
 * Why not gray-matter: version 4.0.3 evaluates `---js` frontmatter with `eval` even when the JS
 * engine is disabled, caches results globally (after a YAML error the second call returns
 * `{data:{}}`), accepts an unclosed block silently and ends the block at any line that merely
 * starts with `---`. Splitting is twenty lines; doing it here closes all four.
 */

/** The rules the frontmatter parser reports under (their modules: src/pipeline/rules/skill-md/frontmatter.ts). */
export type FrontmatterRuleId =
  | 'frontmatter/missing' | 'frontmatter/unclosed' | 'frontmatter/language' | 'frontmatter/too-large' | 'frontmatter/yaml'
  | 'frontmatter/alias-limit' | 'frontmatter/too-deep' | 'frontmatter/forbidden-key' | 'frontmatter/not-a-map';

export interface Frontmatter {
  /** The parsed mapping; undefined when the block is missing or broken. */
  data: Record<string, unknown> | undefined;
  /** Markdown after the closing `---`. */
  body: string;
  /** Offset of the body in the file text. */
  bodyOffset: number;
  problems: ParseProblem<FrontmatterRuleId>[];
  /** Position of the value at `path` (or of the closest existing parent), for diagnostics. */
  locate(path: readonly (string | number)[]): Position;
}

export function parseFrontmatter(source: SourceText, limits: Pick<Limits, 'maxFrontmatterBytes' | 'maxDepth' | 'maxAliases'>): Frontmatter {
  const { text } = source;
  const problems: ParseProblem<FrontmatterRuleId>[] = [];
  const fail = (rule: FrontmatterRuleId, offset: number, message: string, hint?: string): Frontmatter => {
    problems.push({ rule, offset, message, ...(hint ? { hint } : {}) });
    return { data: undefined, body: text, bodyOffset: 0, problems, locate: () => positionAt(source, 0) };
  };

  const split = splitFrontmatter(text);
  if (split.kind === 'missing') {
    return fail('frontmatter/missing', 0, 'SKILL.md does not start with YAML frontmatter', 'begin the file with a line `---`, the name and description fields, and a closing `---` line');
  }
  if (split.kind === 'language') {
    return fail('frontmatter/language', 3, `frontmatter language '${split.language}' is not allowed; only YAML is read and nothing is ever evaluated`, 'replace the opening line with a plain `---` and write the fields as YAML');
  }
  if (split.kind === 'unclosed') {
    return fail('frontmatter/unclosed', 0, 'SKILL.md frontmatter not properly closed with ---', 'add a line containing only `---` after the last frontmatter field');
  }
  const { yamlStart, closeStart, bodyOffset } = split;
  const yamlText = text.slice(yamlStart, closeStart);
  const body = text.slice(bodyOffset);
  const withBody = (data: Record<string, unknown> | undefined, doc?: Document): Frontmatter => ({
    data,
    body,
    bodyOffset,
    problems,
    locate: (path) => positionAt(source, doc ? yamlStart + nodeOffset(doc, path) : 0),
  });

  if (new TextEncoder().encode(yamlText).length > limits.maxFrontmatterBytes) {
    problems.push({ rule: 'frontmatter/too-large', offset: yamlStart, message: `frontmatter is larger than ${limits.maxFrontmatterBytes} bytes and was not parsed`, hint: 'move long content into the Markdown body or a references/ file' });
    return withBody(undefined);
  }

  const deep = bracketDepthExceeds(yamlText, limits.maxDepth);
  if (deep !== undefined) {
    problems.push({ rule: 'frontmatter/too-deep', offset: yamlStart + deep, message: `values nest deeper than ${limits.maxDepth} levels`, hint: 'flatten the structure' });
    return withBody(undefined);
  }
  const doc = parseDocument(yamlText, { schema: 'core', uniqueKeys: true, prettyErrors: false, strict: true });
  for (const error of doc.errors) {
    problems.push({ rule: 'frontmatter/yaml', offset: yamlStart + (error.pos[0] ?? 0), message: `YAML: ${firstLine(error.message)}`, hint: 'fix the YAML syntax; quote values that contain `: ` or start with a special character' });
  }
  // The yaml library reads an unknown tag (`!!js/function`, `!custom`) as the plain string after
  // it, with only a warning: `description: !!js/function …` would publish the source as a
  // description. Other parsers (js-yaml's full schema, PyYAML's unsafe loader) would construct
  // objects from it, so a tag that means nothing here is refused rather than guessed at.
  const unresolvedTags = doc.warnings.filter((w) => w.code === 'TAG_RESOLVE_FAILED');
  for (const warning of unresolvedTags) {
    problems.push({ rule: 'frontmatter/yaml', offset: yamlStart + (warning.pos[0] ?? 0), message: `YAML: ${firstLine(warning.message)}`, hint: 'remove the tag; frontmatter values are plain strings, numbers, booleans, lists and mappings' });
  }
  if (doc.errors.length > 0 || unresolvedTags.length > 0) return withBody(undefined, doc);

  if (doc.contents === null) {
    problems.push({ rule: 'frontmatter/not-a-map', offset: yamlStart, message: 'frontmatter is empty', hint: 'add at least `name:` and `description:`' });
    return withBody(undefined, doc);
  }
  if (!isMap(doc.contents)) {
    problems.push({ rule: 'frontmatter/not-a-map', offset: yamlStart + (doc.contents.range?.[0] ?? 0), message: 'frontmatter must be a YAML mapping of field names to values', hint: 'write one `field: value` per line' });
    return withBody(undefined, doc);
  }

  const before = problems.length;
  walk(doc.contents, 1, limits.maxDepth, yamlStart, problems);
  if (problems.length > before) return withBody(undefined, doc);

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: limits.maxAliases });
  } catch (error) {
    problems.push({ rule: 'frontmatter/alias-limit', offset: yamlStart, message: `YAML aliases expand too far: ${firstLine((error as Error).message)}`, hint: `use at most ${limits.maxAliases} alias expansions; write the values out instead` });
    return withBody(undefined, doc);
  }
  return withBody(data as Record<string, unknown>, doc);
}

/** Rejects forbidden keys and over-deep nesting, with the node's position. */
function walk(node: unknown, depth: number, maxDepth: number, base: number, problems: ParseProblem<FrontmatterRuleId>[]): void {
  if (isMap(node) || isSeq(node)) {
    const offset = base + ((node as Node).range?.[0] ?? 0);
    if (depth > maxDepth) {
      problems.push({ rule: 'frontmatter/too-deep', offset, message: `values nest deeper than ${maxDepth} levels`, hint: 'flatten the structure' });
      return;
    }
    for (const item of node.items) {
      if (isPair(item)) {
        const key = isScalar(item.key) ? String(item.key.value) : undefined;
        if (key !== undefined && FORBIDDEN_KEYS.has(key)) {
          problems.push({ rule: 'frontmatter/forbidden-key', offset: base + ((item.key as Node).range?.[0] ?? 0), message: `key '${key}' is not allowed`, hint: 'rename the key; `__proto__`, `constructor` and `prototype` are refused to prevent prototype pollution' });
        }
        walk(item.value, depth + 1, maxDepth, base, problems);
      } else {
        walk(item, depth + 1, maxDepth, base, problems);
      }
    }
  } else if (isAlias(node)) {
    // Alias targets are walked where they are defined; expansion is capped by maxAliasCount.
  }
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
