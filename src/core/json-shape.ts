import { visibleControls } from './control-chars.ts';

/**
 * Checks a value against the JSON Schemas generated from Skilldex's own zod definitions
 * (`schemas/*.schema.json`), for code that cannot ship zod: the browser runtime checks what a
 * registry serves with it. It understands exactly the keywords zod's JSON Schema output uses for
 * those shapes; {@link JsonShape} makes any other keyword a type error in the generated file.
 * Not for schemas that arrive as data (a skill's input and output schemas): ajv checks those
 * (core/json-schema.ts).
 *
 * `additionalProperties: false` is not enforced: zod strips unknown keys rather than refusing
 * them, and a newer registry may add fields an older client does not know.
 */

/** The subset of JSON Schema that zod writes for the index and manifest shapes. */
export interface JsonShape {
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';
  properties?: Readonly<Record<string, JsonShape>>;
  required?: readonly string[];
  additionalProperties?: JsonShape | boolean;
  propertyNames?: JsonShape;
  items?: JsonShape;
  enum?: readonly unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  $ref?: string;
  $defs?: Readonly<Record<string, JsonShape>>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function typeOk(type: NonNullable<JsonShape['type']>, v: unknown): boolean {
  switch (type) {
    case 'object': return isObject(v);
    case 'array': return Array.isArray(v);
    case 'string': return typeof v === 'string';
    case 'number': return typeof v === 'number' && Number.isFinite(v);
    case 'integer': return Number.isSafeInteger(v);
    case 'boolean': return typeof v === 'boolean';
    case 'null': return v === null;
  }
}

/** Compiled patterns, by source: the same few shapes check every entry of an index. */
const patterns = new Map<string, RegExp>();
const patternOf = (source: string): RegExp => {
  let re = patterns.get(source);
  if (!re) patterns.set(source, (re = new RegExp(source)));
  return re;
};

/**
 * The problems of `value` against `shape`, each as `path: what is wrong`; empty when it fits.
 * Stops at `limit` problems: a hostile document must not cost a line per element.
 *
 * @example
 * checkJsonShape({ digest: 'md5:x' }, { type: 'object', properties: { digest: { type: 'string', pattern: '^sha256:' } } });
 * // ['digest: does not match ^sha256:']
 */
export function checkJsonShape(value: unknown, shape: JsonShape, limit = 20): string[] {
  const root = shape;
  const issues: string[] = [];
  // Paths hold the document's own keys: hostile ones are shortened and their controls made visible.
  const report = (path: string, message: string) => {
    if (issues.length < limit) issues.push(`${visibleControls(path.length > 200 ? `${path.slice(0, 200)}…` : path) || '(root)'}: ${message}`);
  };
  const visit = (v: unknown, s: JsonShape, path: string): void => {
    if (issues.length >= limit) return;
    if (s.$ref !== undefined) {
      const name = s.$ref.startsWith('#/$defs/') ? s.$ref.slice(8) : '';
      const target = root.$defs && Object.hasOwn(root.$defs, name) ? root.$defs[name] : undefined;
      if (!target) return report(path, `unknown reference ${s.$ref}`);
      return visit(v, target, path);
    }
    if (s.type !== undefined && !typeOk(s.type, v)) return report(path, v === undefined ? 'missing' : `expected ${s.type}`);
    if (s.enum !== undefined && !s.enum.includes(v)) return report(path, `expected one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}`);
    if (typeof v === 'string') {
      if (s.minLength !== undefined && v.length < s.minLength) report(path, `shorter than ${s.minLength}`);
      if (s.maxLength !== undefined && v.length > s.maxLength) return report(path, `longer than ${s.maxLength}`);
      if (s.pattern !== undefined && !patternOf(s.pattern).test(v)) report(path, `does not match ${s.pattern}`);
    }
    if (typeof v === 'number') {
      if (s.minimum !== undefined && v < s.minimum) report(path, `below ${s.minimum}`);
      if (s.exclusiveMinimum !== undefined && v <= s.exclusiveMinimum) report(path, `not above ${s.exclusiveMinimum}`);
      if (s.maximum !== undefined && v > s.maximum) report(path, `above ${s.maximum}`);
    }
    const prefix = path ? `${path}.` : '';
    if (Array.isArray(v) && s.items) v.forEach((item, i) => visit(item, s.items as JsonShape, `${prefix}${i}`));
    if (isObject(v)) {
      for (const key of s.required ?? []) if (!(key in v) || v[key] === undefined) report(`${prefix}${key}`, 'missing');
      for (const [key, item] of Object.entries(v)) {
        // hasOwn: a hostile key such as `constructor` must not find Object.prototype's.
        const known = s.properties && Object.hasOwn(s.properties, key) ? s.properties[key] : undefined;
        if (known) {
          if (item !== undefined) visit(item, known, `${prefix}${key}`);
          continue;
        }
        if (s.propertyNames) visit(key, s.propertyNames, `${prefix}${key} (name)`);
        if (isObject(s.additionalProperties)) visit(item, s.additionalProperties, `${prefix}${key}`);
      }
    }
  };
  visit(value, shape, '');
  return issues;
}
