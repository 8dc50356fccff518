import { parseDocument, type Document } from 'yaml';
import { bracketDepthExceeds } from './nesting.ts';
import { nodeOffset } from './node-position.ts';
import type { Limits } from '../../core/schemas/config.ts';
import { FORBIDDEN_KEYS, type ParseProblem } from './frontmatter.ts';
import { positionAt, type Position, type SourceText } from './source-text.ts';

export interface JsonFile {
  data: unknown;
  problems: ParseProblem[];
  /** Position of the value at `path`, or of the closest existing parent. */
  locate(path: readonly (string | number)[]): Position;
}

/**
 * Parses a JSON file (skill.json) with positions for every problem. JSON.parse decides
 * validity; the YAML parser (JSON is a subset of YAML 1.2) supplies node positions and
 * catches duplicate keys, which JSON.parse would silently collapse.
 */
export function parseJsonFile(source: SourceText, limits: Pick<Limits, 'maxDepth'>, rulePrefix = 'skill-json'): JsonFile {
  const problems: ParseProblem[] = [];
  const deep = bracketDepthExceeds(source.text, limits.maxDepth + 1);
  if (deep !== undefined) {
    problems.push({ rule: `${rulePrefix}/too-deep`, offset: deep, message: `values nest deeper than ${limits.maxDepth} levels`, hint: 'flatten the structure' });
    return { data: undefined, problems, locate: () => positionAt(source, deep) };
  }
  let data: unknown;
  try {
    data = JSON.parse(source.text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    const offset = at ? Number(at[1]) : source.text.length;
    problems.push({ rule: `${rulePrefix}/syntax`, offset, message: `invalid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}`, hint: 'check for a missing comma or quote, or a trailing comma, just before this point' });
    return { data: undefined, problems, locate: () => positionAt(source, Math.min(offset, source.text.length)) };
  }

  let doc: Document | undefined = parseDocument(source.text, { uniqueKeys: true, schema: 'core' });
  const duplicate = doc.errors.find((e) => e.code === 'DUPLICATE_KEY');
  if (duplicate) {
    problems.push({ rule: `${rulePrefix}/syntax`, offset: duplicate.pos[0], message: 'duplicate key in JSON object', hint: 'remove one of the two entries; JSON parsers keep only the last' });
  }
  if (doc.errors.length > 0) doc = undefined;
  const locate = (path: readonly (string | number)[]) => positionAt(source, doc ? nodeOffset(doc, path) : 0);

  const walk = (value: unknown, path: (string | number)[]): void => {
    if (path.length > limits.maxDepth) {
      const { line, column } = locate(path);
      problems.push({ rule: `${rulePrefix}/too-deep`, offset: offsetOf(source, line, column), message: `values nest deeper than ${limits.maxDepth} levels`, hint: 'flatten the structure' });
      return;
    }
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
    else if (value && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        if (FORBIDDEN_KEYS.has(key)) {
          const { line, column } = locate([...path, key]);
          problems.push({ rule: `${rulePrefix}/forbidden-key`, offset: offsetOf(source, line, column), message: `key '${key}' is not allowed`, hint: 'rename the key; `__proto__`, `constructor` and `prototype` are refused to prevent prototype pollution' });
        } else walk((value as Record<string, unknown>)[key], [...path, key]);
      }
    }
  };
  walk(data, []);
  return { data: problems.length > 0 ? undefined : data, problems, locate };
}

function offsetOf(source: SourceText, line: number, column: number): number {
  return (source.lineStarts[line - 1] ?? 0) + column - 1;
}
