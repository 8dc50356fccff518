/**
 * Deepest bracket nesting of a YAML flow / JSON text, counted before parsing: both parsers
 * recurse per level, and 20,000 nested brackets fit in a 64 KiB frontmatter and overflow the
 * stack. Brackets inside quoted strings do not count.
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
