import { findNodeAtLocation, parse, parseTree, type Node, type ParseError } from 'jsonc-parser';
import type { Limits } from '../schemas/config.ts';
import { FORBIDDEN_KEYS, tooDeep, type ParseProblem } from './problem.ts';
import { bracketDepthExceeds } from '../json-depth.ts';
import { positionAt, type Position, type SourceText } from './source-text.ts';

/** The rules the JSON parser reports under, for a file whose rules start with `Prefix/`. */
export type JsonFileRuleId<Prefix extends string> = `${Prefix}/too-deep` | `${Prefix}/syntax` | `${Prefix}/forbidden-key`;

export interface JsonFile<Prefix extends string = string> {
  data: unknown;
  problems: ParseProblem<JsonFileRuleId<Prefix>>[];
  /** Position of the value at `path`, or of the closest existing parent. */
  locate(path: readonly (string | number)[]): Position;
}

/**
 * The two things JavaScript allows and JSON does not, which people write into JSON files most:
 * a comment, and a comma before `}` or `]`. V8's own message for them ("Expected property name
 * or '}'", "Expected double-quoted property name") names neither. A trailing comma is reported
 * at the bracket it precedes, where V8 finds it. Undefined for any other mistake.
 */
function javascriptHabit(text: string, offset: number): { offset: number; message: string; hint: string } | undefined {
  if (text.startsWith('//', offset) || text.startsWith('/*', offset)) {
    return { offset, message: 'comments are not allowed', hint: 'remove the comment: JSON files cannot hold any (what it says may belong in a description)' };
  }
  const closing = text[offset];
  if (closing !== '}' && closing !== ']') return undefined;
  let before = offset - 1;
  while (before >= 0 && /\s/.test(text[before]!)) before--;
  if (text[before] !== ',') return undefined;
  return { offset, message: `a comma before \`${closing}\` is not allowed`, hint: 'remove the trailing comma just before this point: in JSON the last entry of an object or a list has none' };
}

/**
 * Parses a JSON file (skill.json, the config) with positions for every problem. JSON.parse
 * decides validity (jsonc-parser alone would accept comments and trailing commas); jsonc-parser's
 * syntax tree supplies offsets and shows duplicate keys, which JSON.parse silently collapses.
 */
export function parseJsonFile<Prefix extends string = 'skill-json'>(source: SourceText, limits: Pick<Limits, 'maxDepth'>, rulePrefix: Prefix = 'skill-json' as Prefix): JsonFile<Prefix> {
  const problems: ParseProblem<JsonFileRuleId<Prefix>>[] = [];
  const deep = bracketDepthExceeds(source.text, limits.maxDepth + 1);
  if (deep !== undefined) {
    problems.push(tooDeep(`${rulePrefix}/too-deep` as const, deep, limits.maxDepth));
    return { data: undefined, problems, locate: () => positionAt(source, deep) };
  }
  let data: unknown;
  try {
    data = JSON.parse(source.text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    // V8 names no position for some mistakes (a comment, an unexpected token at the start): the
    // strict reading of jsonc-parser says where the first one is.
    const found = at ? Number(at[1]) : firstSyntaxError(source.text);
    const known = javascriptHabit(source.text, found);
    const offset = known?.offset ?? found;
    problems.push({
      rule: `${rulePrefix}/syntax` as const,
      offset,
      message: `invalid JSON: ${known?.message ?? message.replace(/ in JSON at position \d+.*$/, '')}`,
      hint: known?.hint ?? 'check for a missing comma or quote, or a trailing comma, just before this point',
    });
    return { data: undefined, problems, locate: () => positionAt(source, Math.min(offset, source.text.length)) };
  }

  const root = parseTree(source.text);
  const locate = (path: readonly (string | number)[]) => positionAt(source, root ? nodeAt(root, path).offset : 0);
  if (root) walk(root, 0);
  return { data: problems.length > 0 ? undefined : data, problems, locate };

  function walk(node: Node, depth: number): void {
    if (depth > limits.maxDepth) {
      problems.push(tooDeep(`${rulePrefix}/too-deep` as const, node.offset, limits.maxDepth));
      return;
    }
    if (node.type === 'array') for (const child of node.children ?? []) walk(child, depth + 1);
    if (node.type !== 'object') return;
    const seen = new Set<string>();
    for (const property of node.children ?? []) {
      const [key, value] = property.children ?? [];
      if (!key) continue;
      const name = String(key.value);
      if (FORBIDDEN_KEYS.has(name)) {
        problems.push({ rule: `${rulePrefix}/forbidden-key` as const, offset: key.offset, message: `key '${name}' is not allowed`, hint: 'rename the key; `__proto__`, `constructor` and `prototype` are refused to prevent prototype pollution' });
        continue;
      }
      if (seen.has(name)) problems.push({ rule: `${rulePrefix}/syntax` as const, offset: key.offset, message: 'duplicate key in JSON object', hint: 'remove one of the two entries; JSON parsers keep only the last' });
      seen.add(name);
      if (value) walk(value, depth + 1);
    }
  }
}

/** The node at `path`, or the deepest existing ancestor, so a diagnostic always points somewhere useful. */
function nodeAt(root: Node, path: readonly (string | number)[]): Node {
  for (let n = path.length; n > 0; n--) {
    const node = findNodeAtLocation(root, path.slice(0, n) as (string | number)[]);
    if (node) return node;
  }
  return root;
}

/** Offset of the first syntax error in `text` read as strict JSON (no comments, no trailing commas); the end when none is found. */
function firstSyntaxError(text: string): number {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  return errors[0]?.offset ?? text.length;
}
