import { Ajv, type AnySchema, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { RE2JS } from 're2js';

/**
 * JSON Schemas that arrive as data (a skill's input and output schemas), checked and compiled
 * safely. Browser-safe, shared by the validator and the runtime.
 *
 * - The draft is chosen by `$schema`: one ajv instance cannot mix draft-07 and 2020-12.
 * - No `loadSchema`: a remote `$ref` fails closed.
 * - `pattern` runs on RE2 (linear time): `^(a+)+$` blocked V8 for 8 s on 28 characters.
 * - `$id`s are stripped before compiling: user ids would collide inside a shared instance.
 * - One shared instance per draft: compiling costs ~1 ms there against ~19 ms on a new one.
 */

/** ajv's `code.regExp`: RE2 behind the RegExp-like interface ajv calls. */
const re2RegExp = Object.assign(
  (pattern: string, flags: string) => {
    let f = 0;
    if (flags.includes('i')) f |= RE2JS.CASE_INSENSITIVE;
    const re = RE2JS.compile(pattern, f);
    return { test: (s: string) => re.matcher(s).find() };
  },
  // ajv keys its code cache on the function's source; give it one no other function has.
  { code: 'skilldex-re2js-regexp' },
);
re2RegExp.toString = () => 'skilldex-re2js-regexp';

const OPTIONS = {
  allErrors: true,
  strict: false,
  useDefaults: true,
  validateFormats: false,
  code: { regExp: re2RegExp as never },
} as const;

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

function instanceFor(schema: unknown): Ajv | Ajv2020 {
  const declared = schema && typeof schema === 'object' ? (schema as { $schema?: unknown }).$schema : undefined;
  if (typeof declared === 'string' && /2020-12|2019-09/.test(declared)) return (draft2020 ??= new Ajv2020(OPTIONS));
  return (draft07 ??= new Ajv(OPTIONS));
}

export interface SchemaProblem {
  rule: 'schema/invalid' | 'schema/remote-ref' | 'schema/unsafe-pattern';
  /** JSON pointer-ish path inside the schema, as keys. */
  path: (string | number)[];
  message: string;
}

/**
 * Every reason `schema` cannot serve as a skill's input or output schema; empty when it can.
 *
 * @example
 * schemaProblems({ type: 'object', properties: { q: { type: 'strin' } } })
 * // [{ rule: 'schema/invalid', path: ['properties','q','type'], message: '…' }]
 */
export function schemaProblems(schema: unknown): SchemaProblem[] {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    return [{ rule: 'schema/invalid', path: [], message: 'a JSON Schema must be an object' }];
  }
  const problems: SchemaProblem[] = [];
  walkSchema(schema, [], problems);
  if (problems.length > 0) return problems;
  const ajv = instanceFor(schema);
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared !== undefined && !/json-schema\.org\/(draft-07|draft\/2020-12|draft\/2019-09)\/schema/.test(String(declared))) {
    return [{ rule: 'schema/invalid', path: ['$schema'], message: `unsupported $schema '${String(declared)}'; use draft-07 or 2020-12` }];
  }
  if (!ajv.validateSchema(withoutIds(schema) as AnySchema)) {
    // ajv reports one keyword several ways (enum, type, anyOf); the first says it best.
    const seen = new Set<string>();
    for (const e of ajv.errors ?? []) {
      if (seen.has(e.instancePath)) continue;
      seen.add(e.instancePath);
      problems.push({ rule: 'schema/invalid', path: pointerToPath(e.instancePath), message: `${e.instancePath || 'schema'} ${e.message ?? 'is invalid'}` });
    }
    return problems;
  }
  // Compiling every schema would cost ~0.3 ms each at build time; the one thing that passes
  // meta-validation and still fails to compile is a local $ref that resolves nowhere.
  for (const { path, ref } of localRefs(schema, [])) {
    if (!resolvesLocally(schema, ref)) problems.push({ rule: 'schema/invalid', path, message: `$ref '${ref}' does not resolve inside this schema` });
  }
  return problems;
}

/**
 * Compiles a schema already known to be valid. Defaults in the schema are applied to the data
 * in place when the returned function runs.
 */
export function compileSchema(schema: object): ValidateFunction {
  const ajv = instanceFor(schema);
  const clean = withoutIds(schema) as AnySchema;
  const validate = ajv.compile(clean);
  // Compiled validators stay usable after removal; dropping them from ajv's cache keeps a
  // 10,000-skill build from holding every schema.
  ajv.removeSchema(clean);
  return validate;
}

/** ajv errors as readable one-liners: `/limit must be <= 50`. */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath || '(root)';
    if (e.keyword === 'required') return `${where} is missing required property '${(e.params as { missingProperty: string }).missingProperty}'`;
    if (e.keyword === 'additionalProperties') return `${where} has unknown property '${(e.params as { additionalProperty: string }).additionalProperty}'`;
    if (e.keyword === 'enum') return `${where} must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
    return `${where} ${e.message ?? 'is invalid'}`;
  });
}

function walkSchema(node: unknown, path: (string | number)[], problems: SchemaProblem[]): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => walkSchema(item, [...path, i], problems));
    return;
  }
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) {
      problems.push({ rule: 'schema/remote-ref', path: [...path, key], message: `$ref '${value}' points outside this schema; only local '#…' references are resolved` });
    } else if (key === 'pattern' && typeof value === 'string') {
      checkPattern(value, [...path, key], problems);
    } else if (key === 'patternProperties' && value && typeof value === 'object') {
      for (const p of Object.keys(value)) checkPattern(p, [...path, key, p], problems);
    }
    // Keys inside `properties` are names, not keywords; their values are schemas either way.
    walkSchema(value, [...path, key], problems);
  }
}

function localRefs(node: unknown, path: (string | number)[]): { path: (string | number)[]; ref: string }[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => localRefs(item, [...path, i]));
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === '$ref' && typeof value === 'string' && value.startsWith('#') ? [{ path: [...path, key], ref: value }] : localRefs(value, [...path, key]),
  );
}

function resolvesLocally(root: object, ref: string): boolean {
  if (ref === '#') return true;
  if (!ref.startsWith('#/')) {
    // `#name`: a plain-name fragment, defined by `$anchor` (2020-12) or an `$id` of `#name` (draft-07).
    const name = ref.slice(1);
    const defines = (node: unknown): boolean =>
      Array.isArray(node) ? node.some(defines) : !!node && typeof node === 'object' && ((node as Record<string, unknown>).$anchor === name || (node as Record<string, unknown>).$id === ref || Object.values(node).some(defines));
    return defines(root);
  }
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, key)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

function checkPattern(pattern: string, path: (string | number)[], problems: SchemaProblem[]): void {
  try {
    RE2JS.compile(pattern);
  } catch (error) {
    problems.push({ rule: 'schema/unsafe-pattern', path, message: `pattern '${pattern.slice(0, 80)}' is not supported by the linear-time RE2 engine (${(error as Error).message}); avoid backreferences and lookaround` });
  }
}

function withoutIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutIds);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$id' || k === 'id') {
      if (typeof v === 'string') continue;
    }
    out[k] = withoutIds(v);
  }
  return out;
}

function pointerToPath(pointer: string): (string | number)[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}
