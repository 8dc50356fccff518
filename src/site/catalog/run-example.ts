import { exampleValue } from './json-schema-view.ts';

/**
 * The input shown in a skill page's run example, and whether it is a placeholder. An author's own
 * example beats a generated one: first the schema's `examples` / `default` (at the top or on a
 * property), then a JSON block in the docs that fits the schema (the blocks are read once), and only
 * then a value generated from the types. That last is a placeholder: the page then says the values
 * only show the input's shape, as the skill may well refuse them.
 */
export function runExampleOf(schema: unknown, docs: string | undefined): { input: unknown; placeholder: boolean } {
  if (authorGaveValues(schema)) return { input: exampleValue(schema), placeholder: false };
  const fromDocs = docs === undefined ? undefined : docsExample(schema, docs);
  return fromDocs === undefined ? { input: exampleValue(schema), placeholder: true } : { input: fromDocs, placeholder: false };
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
const OPENING = /^(`{3,}|~{3,})[ \t]*json[ \t]*$/i;

/**
 * The bodies of the ```json blocks of `docs`, in order, found line by line. One pattern over the
 * whole text (opening, lazy body, closing) searched the rest of the text for a closing fence from
 * every opening that had none: 25,000 unclosed openings in 200 kB took minutes. Here a fence found
 * unclosed once is not searched for again.
 */
function* jsonBlocks(docs: string): Generator<string> {
  const lines = docs.split('\n');
  const unclosed = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const fence = OPENING.exec(lines[i]!)?.[1];
    if (!fence || unclosed.has(fence)) continue;
    let close = i + 1;
    while (close < lines.length && !(lines[close]!.startsWith(fence) && /^[ \t]*$/.test(lines[close]!.slice(fence.length)))) close++;
    if (close === lines.length) {
      unclosed.add(fence);
      continue;
    }
    yield lines.slice(i + 1, close).join('\n');
    i = close;
  }
}

/** The first fenced ```json block in the docs that is an object the input schema accepts by name. */
export function docsExample(schema: unknown, docs: string): Record<string, unknown> | undefined {
  if (!isSchema(schema) || !isSchema(schema.properties)) return undefined;
  const known = new Set(Object.keys(schema.properties));
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  for (const block of jsonBlocks(docs.slice(0, MAX_DOCS))) {
    let value: unknown;
    try {
      value = JSON.parse(block);
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
