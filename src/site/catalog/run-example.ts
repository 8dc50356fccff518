import { exampleValue } from './json-schema-view.ts';

/**
 * The input shown in a skill page's run example. An author's own example beats a generated one:
 * first the schema's `examples` / `default` (at the top or on a property), then a JSON block in the
 * docs that fits the schema, and only then a value generated from the types.
 */
export function runExample(schema: unknown, docs: string | undefined): unknown {
  if (authorGaveValues(schema)) return exampleValue(schema);
  return (docs === undefined ? undefined : docsExample(schema, docs)) ?? exampleValue(schema);
}

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const hasValue = (s: unknown) => isSchema(s) && ((Array.isArray(s.examples) && s.examples.length > 0) || 'default' in s);

function authorGaveValues(schema: unknown): boolean {
  if (!isSchema(schema)) return false;
  if (hasValue(schema)) return true;
  if (!isSchema(schema.properties)) return false;
  const properties = schema.properties;
  // The required inputs are the ones the example is made of; a default on an optional one does not
  // stop `{"csv":"example"}` from being a placeholder.
  const required = Array.isArray(schema.required) ? schema.required.map(String).filter((n) => n in properties) : [];
  return required.length > 0 ? required.every((n) => hasValue(properties[n])) : Object.values(properties).some(hasValue);
}

// Docs are hostile text; a long page must not cost more than a bounded scan.
const MAX_DOCS = 200_000;
const FENCE = /^(`{3,}|~{3,})[ \t]*json[ \t]*\n([\s\S]*?)\n\1[ \t]*$/gim;

/** The first fenced ```json block in the docs that is an object the input schema accepts by name. */
export function docsExample(schema: unknown, docs: string): Record<string, unknown> | undefined {
  if (!isSchema(schema) || !isSchema(schema.properties)) return undefined;
  const known = new Set(Object.keys(schema.properties));
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  for (const match of docs.slice(0, MAX_DOCS).matchAll(FENCE)) {
    let value: unknown;
    try {
      value = JSON.parse(match[2]!);
    } catch {
      continue;
    }
    // Only an object whose keys are all inputs (an output sample or a config file is skipped).
    if (!isSchema(value)) continue;
    const keys = Object.keys(value);
    if (keys.length === 0 || !keys.every((k) => known.has(k)) || !required.every((k) => k in value)) continue;
    return value;
  }
  return undefined;
}
