import { CONTROL_CHARS } from '../../core/control-chars.ts';
import { defineRule, type FieldPath } from './rule.ts';

/**
 * The name, description and tags of a skill are shown in terminals by `skilldex search` and
 * `info`, and in other clients that may print them raw. ESC and the other control characters
 * there would let a skill recolour or rewrite the screen, retitle the window or write the
 * clipboard (OSC 52), so they are refused at the source. Tab and line feed are fine.
 */
export const textControlChars = defineRule({
  id: 'text/control-chars',
  severity: 'error',
  scope: 'declaration',
  description: 'Names, descriptions and tags may not contain control characters (ESC, CR, …); terminals act on them.',
  hint: 'remove it: terminals act on control characters (ESC starts escape sequences, CR overwrites the line)',
  check({ data }, report) {
    const fields: [FieldPath, unknown][] = [
      [['name'], data.name],
      [['description'], data.description],
    ];
    if (Array.isArray(data.tags)) data.tags.forEach((tag, i) => fields.push([['tags', i], tag]));
    for (const [path, value] of fields) {
      if (typeof value !== 'string') continue;
      const found = CONTROL_CHARS.exec(value);
      if (!found) continue;
      const code = (found[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');
      report(path, `${path.join('.')} contains the control character U+${code} at character ${found.index + 1}`);
    }
  },
});
