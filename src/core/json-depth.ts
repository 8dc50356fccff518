/**
 * Deepest bracket nesting of a YAML flow / JSON text, counted before parsing: parsers, schema
 * validators and `JSON.stringify` recurse per level, and 20,000 nested brackets fit in a 64 KiB
 * frontmatter and overflow the stack. Brackets inside quoted strings do not count. Returns the
 * offset of the first bracket past `max`, or undefined.
 */
export function bracketDepthExceeds(text: string, max: number): number | undefined {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') {
      if (++depth > max) return i;
    } else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
  }
  return undefined;
}

/**
 * How deep a JSON document a client reads (index.json, a manifest) may nest. A manifest carries a
 * skill's schemas one level below its root, and the build refuses skill.json and frontmatter
 * deeper than `limits.maxDepth` (32 by default), so twice that leaves room for a registry that
 * raises its limit while keeping every recursive reader far from the stack's end.
 */
export const MAX_JSON_DEPTH = 64;
