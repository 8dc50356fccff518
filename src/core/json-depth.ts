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
 * Whether a value already parsed nests objects and arrays deeper than `max` (`[]` is one level, as
 * {@link bracketDepthExceeds} counts brackets). The walk is iterative, so it is safe on any depth,
 * and a value that refers to itself ends it too, as one nested without end.
 */
export function valueDepthExceeds(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== 'object') continue;
    if (depth > max) return true;
    for (const item of Array.isArray(current) ? current : Object.values(current)) stack.push([item, depth + 1]);
  }
  return false;
}

/**
 * Whether a value's JSON text would be longer than `max` characters, found without writing it:
 * a template that repeats one large value (`["{{steps.a}}", "{{steps.a}}", …]`) renders to shared
 * references, cheap in memory, whose text can pass what a string may hold (V8's RangeError). The
 * count is close (strings and keys with their quotes, numbers as written, brackets and commas;
 * escapes not counted) and stops at `max`, so the walk costs at most `max` steps.
 */
export function valueSizeExceeds(value: unknown, max: number): boolean {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'string') size += current.length + 2;
    else if (current === null || typeof current !== 'object') size += String(current).length;
    else if (Array.isArray(current)) {
      size += 1 + Math.max(current.length, 1);
      for (const item of current) stack.push(item);
    } else {
      const entries = Object.entries(current);
      size += 1 + Math.max(entries.length, 1);
      for (const [key, item] of entries) {
        size += key.length + 3;
        stack.push(item);
      }
    }
    if (size > max) return true;
  }
  return false;
}

/**
 * How deep a JSON document a client reads (index.json, a manifest) may nest. A manifest carries a
 * skill's schemas one level below its root, and the build refuses skill.json and frontmatter
 * deeper than `limits.maxDepth` (32 by default), so twice that leaves room for a registry that
 * raises its limit while keeping every recursive reader far from the stack's end.
 */
export const MAX_JSON_DEPTH = 64;
