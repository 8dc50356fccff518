import { codePointLabel, CONTROL_CHARS } from '../../core/control-chars.ts';
import { defineRule, type FieldPath } from './rule.ts';

/**
 * What a skill declares is shown in terminals by `skilldex search` and `info` (name, description,
 * tags, license, compatibility, category, metadata, a schema's titles and descriptions…), and in
 * other clients that may print it raw. ESC and the other control characters there would let a
 * skill recolour or rewrite the screen, retitle the window or write the clipboard (OSC 52), so
 * they are refused at the source, in every text and key of the declaration. A JSON Schema's other
 * strings are data, not display (a `pattern` may match ESC on purpose), so only its `title` and
 * `description` count. Tab and line feed are fine.
 */
export const textControlChars = defineRule({
  id: 'text/control-chars',
  severity: 'error',
  scope: 'declaration',
  description: 'Text a skill declares (name, description, tags, license, metadata, schema descriptions, …) may not contain control characters (ESC, CR, …); terminals act on them.',
  hint: 'remove it: terminals act on control characters (ESC starts escape sequences, CR overwrites the line)',
  check({ data }, report) {
    for (const [path, text] of declaredText(data, [], false)) {
      const found = CONTROL_CHARS.exec(text);
      if (!found) continue;
      report(path, `${path.join('.')} contains the control character ${codePointLabel(found[0].codePointAt(0) as number)} at character ${found.index + 1}`);
    }
  },
});

/** Fields holding a JSON Schema, at any depth (an ABP tool has its own). */
const SCHEMA_FIELDS = new Set(['input_schema', 'output_schema', 'inputSchema', 'outputSchema']);

/**
 * Every string of a declaration with where it is, keys included (a key is reported at its
 * value's path); inside a JSON Schema only titles and descriptions.
 */
function* declaredText(value: unknown, path: FieldPath, inSchema: boolean): Generator<[FieldPath, string]> {
  if (typeof value === 'string') {
    const last = path.at(-1);
    if (!inSchema || last === 'title' || last === 'description') yield [path, value];
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* declaredText(item, [...path, i], inSchema);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (CONTROL_CHARS.test(key)) yield [[...path, key], key];
      yield* declaredText(item, [...path, key], inSchema || SCHEMA_FIELDS.has(key));
    }
  }
}
