import { FAILSAFE_SCHEMA, load as loadYaml, Type } from 'js-yaml';
import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument, visit, type Alias, type Document, type Node } from 'yaml';
import { bracketDepthExceeds } from '../json-depth.ts';
import { nodeOffset } from './node-position.ts';
import type { Limits } from '../schemas/config.ts';
import { positionAt, type Position, type SourceText } from './source-text.ts';
import { FORBIDDEN_KEYS, tooDeep, type ParseProblem } from './problem.ts';
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

/**
 * @param how.fullParser read the YAML with the yaml library even where {@link readPlainFrontmatter}
 *   would do (the tests compare the two readings)
 */
export function parseFrontmatter(source: SourceText, limits: Pick<Limits, 'maxFrontmatterBytes' | 'maxDepth' | 'maxAliases'>, how: { fullParser?: boolean } = {}): Frontmatter {
  const { text } = source;
  const problems: ParseProblem<FrontmatterRuleId>[] = [];
  const fail = (rule: FrontmatterRuleId, offset: number, message: string, hint?: string): Frontmatter => {
    problems.push({ rule, offset, message, ...(hint ? { hint } : {}) });
    return { data: undefined, body: text, bodyOffset: 0, problems, locate: () => positionAt(source, 0) };
  };

  const split = splitFrontmatter(text);
  if (split.kind === 'missing') {
    // `---` then a lone CR: lines ended the way classic Mac OS ended them, which YAML tools and git read as one line.
    if (/^(?:\ufeff)?---\r(?!\n)/.test(text)) {
      return fail('frontmatter/missing', 0, 'SKILL.md ends its lines with CR alone, so its `---` line never ends and no frontmatter is found', 'save the file with LF (or CRLF) line endings');
    }
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
    problems.push(tooDeep('frontmatter/too-deep', yamlStart + deep, limits.maxDepth));
    return withBody(undefined);
  }
  const plain = how.fullParser ? undefined : readPlainFrontmatter(yamlText, limits.maxDepth);
  if (plain) {
    let doc: Document | undefined;
    return {
      data: plain,
      body,
      bodyOffset,
      problems,
      locate: (path) => positionAt(source, yamlStart + (plainOffset(yamlText, plain, path) ?? nodeOffset((doc ??= parseYaml(yamlText)), path))),
    };
  }
  const doc = parseYaml(yamlText);
  // Nesting the bracket count cannot see (entries inside entries, `- - - x` or `? ? ? x`, or
  // brackets after the apostrophe of a plain value, which it takes for a quote) can still exhaust
  // the parser's stack. The library reports that where the stack happened to end, once for each
  // level it unwound: hundreds of lines that differed from run to run. One too-deep problem, at a
  // place the text alone decides, says the same every time.
  const exhausted = stackExhaustedAt(doc, yamlText, limits.maxDepth);
  if (exhausted !== undefined) {
    problems.push(tooDeep('frontmatter/too-deep', yamlStart + exhausted, limits.maxDepth));
    return withBody(undefined);
  }
  for (const error of doc.errors) {
    // An unclosed [ or { is reported as an indentation error of the line after it.
    const hint = error.code === 'BAD_INDENT' && /^Flow (sequence|mapping)/.test(error.message) ? 'close the bracket this value opens, on its own line' : (YAML_HINTS[error.code] ?? YAML_HINT);
    const at = error.code === 'MISSING_CHAR' ? (unclosedQuoteStart(doc, error.pos[0]) ?? error.pos[0]) : error.pos[0];
    problems.push({ rule: 'frontmatter/yaml', offset: yamlStart + (at ?? 0), message: `YAML: ${firstLine(error.message)}`, hint });
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
  walk(doc.contents, 1, limits.maxDepth, yamlStart, problems, anchorsOf(doc));
  if (problems.length === before) reportCycles(doc, yamlStart, problems);
  if (problems.length > before) return withBody(undefined, doc);

  let data: unknown;
  const failing = aliasThatFails(doc);
  try {
    data = doc.toJS({ maxAliasCount: limits.maxAliases });
  } catch (error) {
    const message = firstLine((error as Error).message);
    const offset = yamlStart + (failing.alias?.range?.[0] ?? 0);
    // An alias used before its anchor is defined (the ones with no anchor at all, walk reports where they are).
    if (/^Unresolved alias/.test(message)) problems.push({ rule: 'frontmatter/yaml', offset, message: `YAML: ${message}`, hint: 'define the anchor (&name) before its alias (*name), or quote a value that starts with *' });
    else problems.push({ rule: 'frontmatter/alias-limit', offset, message: `YAML aliases expand too far: ${message}`, hint: `use at most ${limits.maxAliases} alias expansions; write the values out instead` });
    return withBody(undefined, doc);
  }
  return withBody(data as Record<string, unknown>, doc);
}

const YAML_HINT = 'fix the YAML syntax; quote values that contain `: ` or start with a special character';
/** What to do about the yaml library's errors, by code, where the general hint would mislead. */
const YAML_HINTS: Partial<Record<string, string>> = {
  DUPLICATE_KEY: 'write each field once; remove or merge the repeated one',
  TAB_AS_INDENT: 'indent with spaces: YAML does not allow tabs for indentation',
  MISSING_CHAR: 'close the quote or bracket this value opens',
  BAD_INDENT: 'line up the fields of one mapping (or the items of one list) at the same column, with spaces',
  BLOCK_AS_IMPLICIT_KEY: 'quote a value that contains `: `, and line up the fields of one mapping at the same column',
  MULTILINE_IMPLICIT_KEY: 'line up the fields of one mapping at the same column, and quote a value that contains `: `',
  BAD_SCALAR_START: 'quote the value: a plain YAML value cannot start with this character',
};

/**
 * When the yaml library ran out of stack reading `text` (it reports V8's overflow as a parse
 * error, once per level it unwound, wherever the stack happened to end): where the text nests past
 * `max` levels, a place the text alone decides. Undefined when the parse did not overflow.
 */
export function stackExhaustedAt(doc: Document, text: string, max: number): number | undefined {
  return doc.errors.some((error) => error.message.includes('Maximum call stack size exceeded')) ? nestingPast(text, max) : undefined;
}

/**
 * Where the text nests past `max` levels, counting every bracket (quoted or not) and each entry
 * indicator (`- `, `? `) that opens a line's content inside another; 0 when no such place is found.
 */
function nestingPast(text: string, max: number): number {
  let brackets = 0;
  let entries = 0;
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      entries = 0;
      lineStart = true;
      continue;
    }
    if ((c === '-' || c === '?') && lineStart && (text[i + 1] === ' ' || text[i + 1] === '\n' || i + 1 === text.length)) entries++;
    else if (c === '[' || c === '{') brackets++;
    else if (c === ']' || c === '}') brackets = Math.max(0, brackets - 1);
    else if (c !== ' ') lineStart = false;
    if (brackets + entries > max) return i;
  }
  return 0;
}

function parseYaml(text: string): Document {
  // logLevel: the library's own warnings go to the problems, never to the terminal as a Node warning.
  return parseDocument(text, { schema: 'core', uniqueKeys: true, prettyErrors: false, strict: true, logLevel: 'error' });
}

/**
 * Anchors, aliases and tags (after white space or a flow indicator, where they start a node), a
 * directive, a merge key, an explicit `?` key, a tab, a document marker, or a key that is refused:
 * frontmatter with any of these takes the full parser.
 */
const NOT_PLAIN = new RegExp(String.raw`(?:^|[\s[{,])[&*!]|^%|<<|^\s*\?(?:\s|$)|\t|^(?:---|\.\.\.)|${[...FORBIDDEN_KEYS].join('|')}`, 'm');

/**
 * The YAML 1.2 core schema's scalars exactly as the yaml library resolves them (its
 * schema/core/*.js: the same patterns, in the same order, to the same values), for js-yaml.
 * js-yaml's own core schema takes YAML 1.1's numbers (`0b101` is 5, `1_000` is 1000, `-.5` a
 * string), which made every frontmatter holding a number take the full parser: a third of the
 * SKILL.md packages of a generated registry, for a `minimum: 0` in a schema or a `timeout_ms`.
 */
const scalar = (tag: string, forms: readonly (readonly [RegExp, (text: string) => unknown])[]) =>
  new Type(tag, {
    kind: 'scalar',
    resolve: (text: string | null) => forms.some(([test]) => test.test(text ?? '')),
    construct: (text: string | null) => {
      const form = forms.find(([test]) => test.test(text ?? '')) as (typeof forms)[number];
      return form[1](text ?? '');
    },
  });
// One type per tag, its forms in the yaml library's order: js-yaml keeps only the last type of a tag.
const CORE_SCALARS = FAILSAFE_SCHEMA.extend({
  implicit: [
    scalar('tag:yaml.org,2002:null', [[/^(?:~|[Nn]ull|NULL)?$/, () => null]]),
    scalar('tag:yaml.org,2002:bool', [[/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, (text) => text[0] === 't' || text[0] === 'T']]),
    scalar('tag:yaml.org,2002:int', [
      [/^0o[0-7]+$/, (text) => parseInt(text.slice(2), 8)],
      [/^[-+]?[0-9]+$/, (text) => parseInt(text, 10)],
      [/^0x[0-9a-fA-F]+$/, (text) => parseInt(text.slice(2), 16)],
    ]),
    scalar('tag:yaml.org,2002:float', [
      [/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/, (text) => (text.slice(-3).toLowerCase() === 'nan' ? NaN : text[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY)],
      [/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/, parseFloat],
      [/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/, parseFloat],
    ]),
  ],
});

/**
 * Frontmatter as the yaml library reads it, for the common case only, ten times faster: plain
 * mappings of scalars, lists and mappings (no anchors, aliases, tags or directives, see
 * {@link NOT_PLAIN}) that js-yaml reads under the same YAML 1.2 core schema
 * ({@link CORE_SCALARS}), as a mapping within the depth limit. Undefined for anything else,
 * including every document either parser finds an error in: the yaml library then reads it, with
 * positions for its problems.
 *
 * Why: the yaml library builds a document with every node's position, which the build needs only
 * for a diagnostic; over the 2,000-skill corpus it was a third of reading and checking a skill.
 * test/core/parse/frontmatter-plain.test.ts holds the two to the same data.
 */
export function readPlainFrontmatter(text: string, maxDepth: number): Record<string, unknown> | undefined {
  if (NOT_PLAIN.test(text) || flowSpansLines(text)) return undefined;
  let data: unknown;
  try {
    data = loadYaml(text, { schema: CORE_SCALARS });
  } catch {
    return undefined;
  }
  return isMapping(data) && nestsWithin(data, 1, maxDepth) ? data : undefined;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * True when a quoted scalar or a flow collection (`[…]`, `{…}`) goes on past the end of a line:
 * the yaml library holds its continuation lines to the indentation rules, js-yaml does not.
 * A quote counts only where a value starts (`don't` is plain text), and `#` after a space outside
 * quotes starts a comment.
 */
function flowSpansLines(text: string): boolean {
  let depth = 0;
  let quote: string | undefined;
  let valueStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote !== undefined) {
      if (c === '\n' || c === '\r') return true;
      if (quote === '"' && c === '\\') i++;
      else if (c === quote && quote === "'" && text[i + 1] === "'") i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '\n' || c === '\r') {
      if (depth > 0) return true;
      valueStart = true;
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1] as string))) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end - 1;
    } else if ((c === '"' || c === "'") && valueStart) {
      quote = c;
    } else if ((c === '[' || c === '{') && (valueStart || depth > 0)) {
      depth++;
      valueStart = true;
    } else if ((c === ']' || c === '}') && depth > 0) {
      depth--;
      valueStart = false;
    } else if (c === ',' && depth > 0) {
      valueStart = true;
    } else if (c === ':' || c === '-' || c === '?') {
      valueStart = /\s/.test(text[i + 1] ?? ' ');
    } else if (c !== ' ') {
      valueStart = false;
    }
  }
  return quote !== undefined || depth > 0;
}

/**
 * A key the core schema could read as null, a boolean or a number, or a flow collection used as
 * a key: js-yaml writes such a key as its own text or as JavaScript would (`null`, `2.0`, `a,b`),
 * the yaml library otherwise (``, `2`, `[ a, b ]`).
 */
const NON_STRING_KEY = /^(?:$|[-+.~\d]|(?:null|true|false)$)|[,[\]{}]/i;

/** Within the depth limit, with only keys both parsers spell alike. */
function nestsWithin(value: unknown, depth: number, maxDepth: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (depth > maxDepth) return false;
  if (!Array.isArray(value) && Object.keys(value).some((key) => NON_STRING_KEY.test(key))) return false;
  return Object.values(value).every((v) => nestsWithin(v, depth + 1, maxDepth));
}

/**
 * Where the yaml library's document puts the mapping (`[]`), a top-level key it lacks (at the
 * mapping, the closest ancestor), or a top-level key's value written on the key's own line
 * (`name: x`); undefined for anything else, which that document answers. Every skill's build
 * asks for `name` and `calls`, so these must not cost the document.
 */
function plainOffset(text: string, data: Record<string, unknown>, path: readonly (string | number)[]): number | undefined {
  const [key] = path;
  if (path.length === 0 || (path.length === 1 && typeof key === 'string' && !Object.hasOwn(data, key))) return mappingStart(text);
  // A key the core schema reads as a boolean or null is not found by its text in the document.
  if (path.length !== 1 || typeof key !== 'string' || !/^[A-Za-z_][\w-]*$/.test(key) || /^(?:true|false|null)$/i.test(key)) return undefined;
  const line = new RegExp(`^${key}[ ]*:[ ]+(?=[^\\s#|>])`, 'm').exec(text);
  return line ? line.index + line[0].length : undefined;
}

/** The first character of the first line that is neither blank nor a comment. */
function mappingStart(text: string): number | undefined {
  const first = /^[ ]*(?!#)\S/m.exec(text);
  return first ? first.index + first[0].length - 1 : undefined;
}

/** Rejects forbidden keys and over-deep nesting, with the node's position. */
function walk(node: unknown, depth: number, maxDepth: number, base: number, problems: ParseProblem<FrontmatterRuleId>[], anchors: ReadonlySet<string>): void {
  if (isMap(node) || isSeq(node)) {
    const offset = base + ((node as Node).range?.[0] ?? 0);
    if (depth > maxDepth) {
      problems.push(tooDeep('frontmatter/too-deep', offset, maxDepth));
      return;
    }
    for (const item of node.items) {
      if (isPair(item)) {
        const key = isScalar(item.key) ? String(item.key.value) : undefined;
        if (key !== undefined && FORBIDDEN_KEYS.has(key)) {
          problems.push({ rule: 'frontmatter/forbidden-key', offset: base + ((item.key as Node).range?.[0] ?? 0), message: `key '${key}' is not allowed`, hint: 'rename the key; `__proto__`, `constructor` and `prototype` are refused to prevent prototype pollution' });
        }
        walk(item.value, depth + 1, maxDepth, base, problems, anchors);
      } else {
        walk(item, depth + 1, maxDepth, base, problems, anchors);
      }
    }
  } else if (isAlias(node) && !anchors.has(node.source)) {
    // A value written `*me` is an alias; with no `&me` anchor before it, it refers to nothing.
    problems.push({ rule: 'frontmatter/yaml', offset: base + (node.range?.[0] ?? 0), message: `YAML: the alias *${node.source} refers to no anchor`, hint: 'quote the value: a plain YAML value starting with * is an alias' });
  }
  // Alias targets are walked where they are defined; expansion is capped by maxAliasCount.
}

/**
 * Where the quoted value that runs on to `end` without its closing quote opens: the yaml library
 * reports the missing quote where the text ends, the closing `---` line, far from the mistake.
 */
function unclosedQuoteStart(doc: Document, end: number): number | undefined {
  let start: number | undefined;
  visit(doc, {
    Scalar: (_, node) => {
      if ((node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') && node.range?.[1] === end) start = node.range[0];
    },
  });
  return start;
}

/**
 * An alias inside the value its own anchor names (`a: &a [*a]`) makes that value contain itself:
 * the yaml library builds it as a cycle, within its expansion cap, and every check that reads
 * the value would follow it forever. An alias refers to the latest anchor of its name before it.
 */
function reportCycles(doc: Document, base: number, problems: ParseProblem<FrontmatterRuleId>[]): void {
  const anchored: Node[] = [];
  visit(doc, {
    Node: (_, node) => {
      if (node.anchor) anchored.push(node);
      if (!isAlias(node) || !node.range) return;
      const at = node.range[0];
      const target = anchored.findLast((a) => a.anchor === node.source && a.range![0] < at);
      if (target && at < target.range![1]) {
        problems.push({ rule: 'frontmatter/alias-limit', offset: base + at, message: `YAML: the alias *${node.source} is inside the value &${node.source} names, so that value would contain itself forever`, hint: 'write the value out, or anchor only a value the alias is not part of' });
      }
    },
  });
}

/**
 * Records which alias of `doc` fails to resolve when it is converted (too many expansions, or no
 * anchor before it), so the problem is reported where that alias is written rather than at the
 * top of the frontmatter. The yaml library counts expansions as it converts, in an order its own
 * bookkeeping decides (an alias inside an anchored value counts when that value is first built),
 * and its error names no node: counting again here would have to copy that bookkeeping, so each
 * alias of this document, which no one else holds, notes itself when its resolution throws. The
 * innermost alias notes itself first, and it is the one that went past the cap.
 *
 * @example
 * const failing = aliasThatFails(doc);
 * try { doc.toJS({ maxAliasCount: 100 }); } catch { failing.alias?.range?.[0]; } // where the alias is written
 */
export function aliasThatFails(doc: Document): { alias?: Alias } {
  const failing: { alias?: Alias } = {};
  const noting = <F extends (...args: never[]) => unknown>(node: Alias, method: F): F =>
    function (this: Alias, ...args: Parameters<F>) {
      try {
        return method.apply(this, args);
      } catch (error) {
        failing.alias ??= node;
        throw error;
      }
    } as F;
  visit(doc, {
    Alias: (_, node) => {
      // resolve() throws past the cap; toJSON() throws for an alias with no anchor before it.
      node.resolve = noting(node, node.resolve);
      node.toJSON = noting(node, node.toJSON);
    },
  });
  return failing;
}

/** The anchor names a document defines (`&name`). */
function anchorsOf(doc: Document): Set<string> {
  const names = new Set<string>();
  visit(doc, { Node: (_, node) => void (node.anchor && names.add(node.anchor)) });
  return names;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
