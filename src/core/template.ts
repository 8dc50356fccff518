/**
 * The composite-pipeline template language of skill.json (docs/skill-json.md#templates): `{{input.topic}}`,
 * `{{steps.search.results | map: snippet | join: '\n\n'}}`. Pure and browser-safe; the build's
 * validator uses {@link parseTemplate} to check references before publishing, the runtime uses
 * {@link renderTemplate} to run pipelines.
 *
 * Grammar, inside `{{ }}`:
 *   expression := path ( '|' filter )*
 *   path       := identifier ( '.' segment | '[' digits ']' )*
 *   filter     := name ( ':' argument )?
 *   argument   := 'single' | "double" (with \n \t \\ \' \" escapes) | number | true | false | null | dotted.word
 *
 * A string that is exactly one `{{…}}` renders to the raw value, so arrays and objects pass between
 * steps intact. Anything else renders to text: values are inserted as text, objects as JSON.
 */
import { TemplateError } from './errors/template-error.ts';

/** A reference to a value in scope, e.g. `steps.search.results` → root `steps`, path `['search','results']`. */
export interface TemplateRef {
  root: string;
  path: string[];
  /** Character offset of the reference in the template text. */
  offset: number;
}

export interface TemplateParseError {
  offset: number;
  message: string;
}

export type TemplateParseResult = { ok: true; refs: TemplateRef[] } | { ok: false; error: TemplateParseError };

type Literal = string | number | boolean | null;

interface FilterCall {
  name: FilterName;
  arg?: Literal | { field: string[] };
  offset: number;
}

interface Expression {
  ref: TemplateRef;
  filters: FilterCall[];
  /** Span of the whole `{{ … }}`. */
  start: number;
  end: number;
}

type Part = string | Expression;

/** Filter names and whether each takes an argument: `required`, `optional` or `none`. */
const FILTERS = {
  map: 'required',
  join: 'optional',
  default: 'required',
  first: 'none',
  last: 'none',
  length: 'none',
  json: 'none',
  upper: 'none',
  lower: 'none',
  trim: 'none',
} as const;
type FilterName = keyof typeof FILTERS;

/** The filters the language understands, for error messages and documentation. */
const TEMPLATE_FILTERS: readonly string[] = Object.keys(FILTERS);

const IDENT = /[A-Za-z_$][\w$-]*/y;
const DIGITS = /\d+/y;
const NUMBER = /-?\d+(\.\d+)?/y;
const SPACE = /\s*/y;

class Failure {
  readonly error: TemplateParseError;
  constructor(offset: number, message: string) {
    this.error = { offset, message };
  }
}

/** Parses one expression between `start` (after `{{`) and `end` (at `}}`). */
function parseExpression(text: string, start: number, end: number): Expression {
  let pos = start;
  const skip = (): void => {
    SPACE.lastIndex = pos;
    SPACE.exec(text);
    pos = Math.min(SPACE.lastIndex, end);
  };
  const take = (re: RegExp): string | undefined => {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m || re.lastIndex > end) return undefined;
    pos = re.lastIndex;
    return m[0];
  };
  const readPath = (what: string): { parts: string[]; offset: number } => {
    skip();
    const offset = pos;
    const first = take(IDENT);
    if (first === undefined) throw new Failure(pos, `expected ${what}`);
    const parts = [first];
    for (;;) {
      if (text[pos] === '.') {
        pos += 1;
        const seg = take(IDENT) ?? take(DIGITS);
        if (seg === undefined) throw new Failure(pos, 'expected a field name after "."');
        parts.push(seg);
      } else if (text[pos] === '[') {
        pos += 1;
        const index = take(DIGITS);
        if (index === undefined || text[pos] !== ']') throw new Failure(pos, 'expected an array index like [0]');
        pos += 1;
        parts.push(index);
      } else break;
    }
    return { parts, offset };
  };
  const readArgument = (): Literal | { field: string[] } => {
    skip();
    const quote = text[pos];
    if (quote === "'" || quote === '"') {
      const open = pos;
      pos += 1;
      let value = '';
      while (pos < end && text[pos] !== quote) {
        if (text[pos] === '\\' && pos + 1 < end) {
          const next = text[pos + 1] as string;
          value += next === 'n' ? '\n' : next === 't' ? '\t' : next === 'r' ? '\r' : next;
          pos += 2;
        } else {
          value += text[pos];
          pos += 1;
        }
      }
      if (text[pos] !== quote) throw new Failure(open, 'unterminated string');
      pos += 1;
      return value;
    }
    const number = take(NUMBER);
    if (number !== undefined) return Number(number);
    const { parts } = readPath('a filter argument');
    if (parts.length === 1 && (parts[0] === 'true' || parts[0] === 'false')) return parts[0] === 'true';
    if (parts.length === 1 && parts[0] === 'null') return null;
    return { field: parts };
  };

  const path = readPath('a reference like input.name or steps.id.field');
  const [root, ...rest] = path.parts as [string, ...string[]];
  const expression: Expression = { ref: { root, path: rest, offset: path.offset }, filters: [], start: start - 2, end: end + 2 };
  for (;;) {
    skip();
    if (pos >= end) break;
    if (text[pos] !== '|') throw new Failure(pos, `unexpected ${JSON.stringify(text[pos])}; expected "|" or "}}"`);
    pos += 1;
    skip();
    const offset = pos;
    const name = take(IDENT);
    if (name === undefined) throw new Failure(pos, 'expected a filter name after "|"');
    if (!Object.hasOwn(FILTERS, name)) throw new Failure(offset, `unknown filter "${name}"; known filters: ${TEMPLATE_FILTERS.join(', ')}`);
    const arity = FILTERS[name as FilterName];
    skip();
    const call: FilterCall = { name: name as FilterName, offset };
    if (text[pos] === ':') {
      if (arity === 'none') throw new Failure(pos, `filter "${name}" takes no argument`);
      pos += 1;
      call.arg = readArgument();
    } else if (arity === 'required') {
      throw new Failure(pos, `filter "${name}" needs an argument, e.g. ${name === 'map' ? 'map: field' : "default: 'value'"}`);
    }
    if (name === 'map' && (call.arg === undefined || typeof call.arg !== 'object' || call.arg === null) && typeof call.arg !== 'string') {
      throw new Failure(offset, 'filter "map" needs a field name, e.g. map: snippet');
    }
    expression.filters.push(call);
  }
  return expression;
}

function parseParts(text: string): Part[] {
  const parts: Part[] = [];
  let pos = 0;
  while (pos < text.length) {
    const open = text.indexOf('{{', pos);
    if (open === -1) {
      parts.push(text.slice(pos));
      break;
    }
    if (open > pos) parts.push(text.slice(pos, open));
    const close = text.indexOf('}}', open + 2);
    if (close === -1) throw new Failure(open, 'unclosed "{{"; expected "}}"');
    parts.push(parseExpression(text, open + 2, close));
    pos = close + 2;
  }
  return parts;
}

const cache = new Map<string, Part[] | Failure>();
function compile(text: string): Part[] | Failure {
  let compiled = cache.get(text);
  if (compiled === undefined) {
    try {
      compiled = parseParts(text);
    } catch (error) {
      if (!(error instanceof Failure)) throw error;
      compiled = error;
    }
    if (cache.size > 1000) cache.clear();
    cache.set(text, compiled);
  }
  return compiled;
}

/**
 * Parses a template and lists every reference it makes, or the first syntax error with its offset.
 * Text without `{{` is a valid template with no references.
 *
 * @example
 * parseTemplate("{{steps.search.results | map: snippet | join: ', '}}");
 * // { ok: true, refs: [{ root: 'steps', path: ['search', 'results'], offset: 2 }] }
 * parseTemplate('{{input.x | shout}}');
 * // { ok: false, error: { offset: 12, message: 'unknown filter "shout"; …' } }
 */
export function parseTemplate(text: string): TemplateParseResult {
  const compiled = compile(text);
  if (compiled instanceof Failure) return { ok: false, error: compiled.error };
  return { ok: true, refs: compiled.filter((p): p is Expression => typeof p !== 'string').map((p) => ({ ...p.ref, path: [...p.ref.path] })) };
}

/** Reads an own property only, so a template can never reach `constructor` or `__proto__`. */
function get(value: unknown, key: string): unknown {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) return /^\d+$/.test(key) ? value[Number(key)] : undefined;
  if (typeof value === 'object' && Object.hasOwn(value, key)) return (value as Record<string, unknown>)[key];
  if (typeof value === 'string' && key === 'length') return value.length;
  return undefined;
}

const getPath = (value: unknown, path: readonly string[]): unknown => path.reduce<unknown>((current, key) => get(current, key), value);

/** Text form of a value inside mixed text: nothing for null/undefined, JSON for objects. */
function toText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function applyFilter(value: unknown, call: FilterCall): unknown {
  const arg = call.arg;
  switch (call.name) {
    case 'map': {
      const field = typeof arg === 'string' ? arg.split('.') : (arg as { field: string[] }).field;
      return Array.isArray(value) ? value.map((item) => getPath(item, field)) : undefined;
    }
    case 'join': {
      const separator = arg === undefined ? ', ' : toText(typeof arg === 'object' && arg !== null ? arg.field.join('.') : arg);
      return Array.isArray(value) ? value.map(toText).join(separator) : toText(value);
    }
    case 'default': {
      const fallback = typeof arg === 'object' && arg !== null ? arg.field.join('.') : arg;
      return value === undefined || value === null || value === '' ? fallback : value;
    }
    case 'first':
      return Array.isArray(value) ? value[0] : typeof value === 'string' ? value.slice(0, 1) : undefined;
    case 'last':
      return Array.isArray(value) ? value[value.length - 1] : typeof value === 'string' ? value.slice(-1) : undefined;
    case 'length':
      if (Array.isArray(value) || typeof value === 'string') return value.length;
      return value !== null && typeof value === 'object' ? Object.keys(value).length : 0;
    case 'json':
      return JSON.stringify(value ?? null);
    case 'upper':
      return toText(value).toUpperCase();
    case 'lower':
      return toText(value).toLowerCase();
    case 'trim':
      return toText(value).trim();
  }
}

function evaluate(expression: Expression, scope: Readonly<Record<string, unknown>>): unknown {
  let value = getPath(get(scope, expression.ref.root), expression.ref.path);
  for (const call of expression.filters) value = applyFilter(value, call);
  return value;
}

function renderString(text: string, scope: Readonly<Record<string, unknown>>): unknown {
  const compiled = compile(text);
  if (compiled instanceof Failure) throw new TemplateError(text, compiled.error);
  if (compiled.length === 1 && typeof compiled[0] !== 'string') return evaluate(compiled[0] as Expression, scope);
  return compiled.map((part) => (typeof part === 'string' ? part : toText(evaluate(part, scope)))).join('');
}

/**
 * Renders every template string inside a value (deeply through arrays and objects); other values
 * are returned unchanged. Throws {@link TemplateError} for a template that does not parse.
 *
 * @example
 * renderTemplate({ query: '{{input.topic}}', limit: 10 }, { input: { topic: 'rust' } });
 * // { query: 'rust', limit: 10 }
 * renderTemplate('{{steps.s.items | map: name}}', { steps: { s: { items: [{ name: 'a' }] } } });
 * // ['a']
 */
export function renderTemplate(value: unknown, scope: Readonly<Record<string, unknown>>): unknown {
  if (typeof value === 'string') return renderString(value, scope);
  if (Array.isArray(value)) return value.map((item) => renderTemplate(item, scope));
  // fromEntries defines each key as the object's own, `__proto__` too: assigned, that key set the
  // rendered object's prototype instead, and the step never received it.
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renderTemplate(item, scope)]));
  return value;
}

/**
 * The truth test for a pipeline step's `condition`: `''`, `false`, `0`, `null`, `undefined` and `[]`
 * are false, everything else is true.
 *
 * @example
 * isTruthy(renderTemplate('{{input.items}}', { input: { items: [] } })); // false
 */
export function isTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return value !== '' && value !== false && value !== 0 && value !== null && value !== undefined && !Number.isNaN(value);
}
