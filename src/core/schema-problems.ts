import type { ErrorObject } from 'ajv';
import { RE2JS } from 're2js';
import { draft07, draft2020 } from './meta-schema-validators.ts';

/**
 * Whether a JSON Schema that arrives as data (a skill's input or output schema) can serve:
 * valid against its draft's meta-schema, with no remote `$ref`, every local `$ref` resolving,
 * and every `pattern` one the linear-time RE2 engine runs. Pure and browser-safe.
 *
 * The meta-schemas are checked by ajv's own validators, compiled ahead of time
 * (./meta-schema-validators.ts, written by `npm run schemas`): loading ajv and compiling them
 * cost each process that met a schema ~160 ms. Compiling schemas to validate data with is
 * ./json-schema.ts's work, and only the runtime does it.
 */

type MetaValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * The `$schema` values a schema may declare, and the meta-schema each means: exactly the ids
 * ajv knows its meta-schemas by (with or without the empty fragment). A near miss
 * (`https://json-schema.org/draft-07/schema`, `…/draft/2019-09/schema`) once passed here and
 * then failed when the runtime compiled the schema ("no schema with key or ref"). No `$schema`
 * means draft-07, as ./json-schema.ts compiles it.
 */
const META_SCHEMAS = new Map<string, MetaValidator>([
  ['http://json-schema.org/draft-07/schema', draft07 as MetaValidator],
  ['http://json-schema.org/draft-07/schema#', draft07 as MetaValidator],
  ['https://json-schema.org/draft/2020-12/schema', draft2020 as MetaValidator],
  ['https://json-schema.org/draft/2020-12/schema#', draft2020 as MetaValidator],
]);

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
  const declared = (schema as { $schema?: unknown }).$schema;
  const meta = declared === undefined ? (draft07 as MetaValidator) : META_SCHEMAS.get(String(declared));
  if (!meta) {
    return [{ rule: 'schema/invalid', path: ['$schema'], message: `unsupported $schema '${String(declared)}'; use draft-07 or 2020-12 (${[...META_SCHEMAS.keys()].filter((id) => id.endsWith('#')).join(' or ')})` }];
  }
  if (!meta(withoutIds(schema))) {
    // ajv reports one keyword several ways (enum, type, anyOf); the first says it best.
    const seen = new Set<string>();
    for (const e of meta.errors ?? []) {
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

/** The schema without its string `$id`s: ids of its own would collide inside a shared ajv instance, and none is needed. */
export function withoutIds(node: unknown): unknown {
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
