/**
 * Presenting a skill's input and output JSON Schemas to people: table rows and an example input
 * (the one-line signature is core's, src/core/signature.ts, so the page shows what the runtime
 * does). Schemas arrive as data from skill authors, so every reader here tolerates any shape and
 * bounds its depth and output size.
 */

type Schema = Record<string, unknown>;

const MAX_DEPTH = 8;
const MAX_ROWS = 400;

/** One row of a schema table. `path` uses `.` for properties and `[]` for array items. */
export interface SchemaRow {
  path: string;
  name: string;
  depth: number;
  type: string;
  required: boolean;
  enumValues?: string[];
  defaultValue?: string;
  description?: string;
  title?: string;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** `{"type":"array","items":{"type":"string"}}` → `string[]`; unions joined with ` | `. */
export function typeLabel(schema: unknown, depth = 0): string {
  if (!isSchema(schema)) return schema === true ? 'any' : 'never';
  if (depth > MAX_DEPTH) return '…';
  if ('const' in schema) return json(schema.const);
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop() || 'ref';
  for (const key of ['oneOf', 'anyOf'] as const) {
    const variants = schema[key];
    if (Array.isArray(variants) && variants.length > 0) return variants.map((v) => typeLabel(v, depth + 1)).join(' | ');
  }
  const type = schema.type;
  const types = Array.isArray(type) ? type.map(String) : typeof type === 'string' ? [type] : [];
  const labels = types.map((t) => (t === 'array' ? `${typeLabel(schema.items ?? {}, depth + 1)}[]` : t));
  if (labels.length === 0) {
    if (isSchema(schema.properties)) return 'object';
    if (schema.items !== undefined) return `${typeLabel(schema.items, depth + 1)}[]`;
    return 'any';
  }
  return labels.join(' | ');
}

/** Flattens nested properties and array items into table rows, parents before children. */
export function schemaRows(schema: unknown): SchemaRow[] {
  const rows: SchemaRow[] = [];
  const visit = (node: unknown, prefix: string, depth: number) => {
    if (!isSchema(node) || depth > MAX_DEPTH || rows.length >= MAX_ROWS) return;
    const properties = isSchema(node.properties) ? node.properties : undefined;
    const required = new Set(Array.isArray(node.required) ? node.required.map(String) : []);
    if (properties) {
      for (const [name, child] of Object.entries(properties)) {
        if (rows.length >= MAX_ROWS) return;
        const path = prefix ? `${prefix}.${name}` : name;
        rows.push(row(name, path, depth, child, required.has(name)));
        visit(child, path, depth + 1);
      }
    }
    // Objects inside arrays: `issues[].line`.
    const items = node.items;
    if (isSchema(items) && (isSchema(items.properties) || isSchema(items.items))) {
      visit(items, `${prefix}[]`, depth);
    }
  };
  visit(schema, '', 0);
  return rows;
}

function row(name: string, path: string, depth: number, schema: unknown, required: boolean): SchemaRow {
  const result: SchemaRow = { path, name, depth, type: typeLabel(schema), required };
  if (!isSchema(schema)) return result;
  if (Array.isArray(schema.enum)) result.enumValues = schema.enum.map(json);
  else if (isSchema(schema.items) && Array.isArray(schema.items.enum)) result.enumValues = schema.items.enum.map(json);
  if ('default' in schema) result.defaultValue = json(schema.default);
  if (typeof schema.description === 'string') result.description = schema.description;
  if (typeof schema.title === 'string') result.title = schema.title;
  return result;
}

/**
 * A plausible input for the `skilldex run --input` example: `examples`, then `default`, `const`
 * and the first `enum` value, otherwise a placeholder of the right type. Only required properties
 * are filled, so the example stays a short command line.
 */
export function exampleValue(schema: unknown, depth = 0): unknown {
  if (!isSchema(schema) || depth > MAX_DEPTH) return null;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const key of ['oneOf', 'anyOf'] as const) {
    const variants = schema[key];
    if (Array.isArray(variants) && variants.length > 0) return exampleValue(variants[0], depth + 1);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' || (type === undefined && isSchema(schema.properties))) {
    const properties = isSchema(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required.map(String).filter((n) => n in properties) : [];
    // Nothing required: show the properties the author gave a value for, else just the first.
    const described = Object.keys(properties).filter((n) => {
      const p = properties[n];
      return isSchema(p) && ('default' in p || 'const' in p || Array.isArray(p.enum) || Array.isArray(p.examples));
    });
    const names = required.length > 0 ? required : described.length > 0 ? described : Object.keys(properties).slice(0, 1);
    const result: Record<string, unknown> = {};
    for (const name of names) result[name] = exampleValue(properties[name], depth + 1);
    return result;
  }
  if (type === 'array') {
    const minItems = typeof schema.minItems === 'number' && schema.minItems > 0 ? 1 : 0;
    return minItems || isSchema(schema.items) ? [exampleValue(schema.items, depth + 1)] : [];
  }
  if (type === 'integer' || type === 'number') {
    return typeof schema.minimum === 'number' ? schema.minimum : type === 'integer' ? 1 : 1.5;
  }
  if (type === 'boolean') return true;
  if (type === 'string') {
    switch (schema.format) {
      case 'uri':
      case 'url':
        return 'https://example.com/';
      case 'email':
        return 'user@example.com';
      case 'date':
        return '2026-01-01';
      case 'date-time':
        return '2026-01-01T00:00:00Z';
      default:
        return typeof schema.minLength === 'number' && schema.minLength > 7 ? 'x'.repeat(schema.minLength) : 'example';
    }
  }
  return null;
}
