/**
 * One-line function signatures from JSON Schemas, the way docs/skill-json.md presents a skill:
 * `code_review(code: string, language?: "typescript" | "python", severity?: "critical" | "all" = "all") → { issues: object[], passed: boolean }`.
 *
 * The one signature of a skill: the runtime's `load`, `skilldex info`, the generated SKILL.md and
 * the catalog page all print this. Schemas arrive as data from skill authors, so every reader here
 * accepts any value and bounds how deep it goes and how many alternatives it lists.
 */

type Schema = Record<string, unknown>;

/** Enum values and `anyOf`/`oneOf` alternatives shown before `| …`. */
const MAX_UNION = 4;
/** Nesting (arrays of arrays, unions of unions) followed before `…` stands in for the rest. */
const MAX_NESTING = 8;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function union(parts: string[], total: number): string {
  return parts.join(' | ') + (total > parts.length ? ' | …' : '');
}

/**
 * `depth` counts object levels (only the outermost object lists its properties); `nesting`
 * counts every step down, so no schema can recurse without bound.
 */
function expression(schema: unknown, depth: number, nesting: number): string {
  if (!isSchema(schema)) return 'any';
  if (nesting > MAX_NESTING) return '…';
  if (Array.isArray(schema.enum)) return union(schema.enum.slice(0, MAX_UNION).map((v) => JSON.stringify(v)), schema.enum.length);
  if ('const' in schema) return JSON.stringify(schema.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const variants = schema[key];
    if (Array.isArray(variants)) return union(variants.slice(0, MAX_UNION).map((x) => expression(x, depth, nesting + 1)), variants.length);
  }
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t): t is string => typeof t === 'string');
  const type = types.length > 0 ? types.join(' | ') : undefined;
  if (type === 'array') {
    const item = expression(schema.items, depth + 1, nesting + 1);
    return `${item.includes(' ') && !item.startsWith('{') ? `(${item})` : item}[]`;
  }
  if (type === 'object' || (type === undefined && isSchema(schema.properties))) {
    const props = isSchema(schema.properties) ? schema.properties : {};
    const keys = Object.keys(props);
    if (keys.length === 0 || depth >= 1) return 'object';
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    return `{ ${keys.map((k) => `${k}${required.has(k) ? '' : '?'}: ${expression(props[k], depth + 1, nesting + 1)}`).join(', ')} }`;
  }
  return type ?? 'any';
}

/** A compact type expression for a schema: `string`, `"a" | "b"`, `{ n: integer, tags?: string[] }`. */
export function typeExpression(schema: unknown, depth = 0): string {
  return expression(schema, depth, 0);
}

/** Parameter list of an object input schema: `code: string, limit?: number = 5`. */
function parameterList(input: unknown): string {
  if (!isSchema(input) || !isSchema(input.properties)) return '';
  const required = new Set(Array.isArray(input.required) ? input.required : []);
  return Object.entries(input.properties)
    .map(([name, prop]) => {
      const optional = required.has(name) ? '' : '?';
      const fallback = isSchema(prop) && 'default' in prop ? ` = ${JSON.stringify(prop.default)}` : '';
      return `${name}${optional}: ${typeExpression(prop, 1)}${fallback}`;
    })
    .join(', ');
}

/**
 * @example
 * functionSignature('memory_search', { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }, { type: 'object', properties: { results: { type: 'array' } } })
 * // 'memory_search(query: string) → { results?: any[] }'
 */
export function functionSignature(name: string, input: unknown, output: unknown): string {
  return `${name}(${parameterList(input)}) → ${typeExpression(output)}`;
}
