/**
 * Matching that stays linear on hostile input. Plain regexes here always start with a literal
 * token and contain only short bounded repeats. Patterns of the form "A, then within N characters
 * on the same line, B" (`curl … | sh`) are not written as `A[^\n]{0,N}?B`: with many A's in a row
 * (`'curl '.repeat(1e6)`) a backtracking engine rescans the gap from every A. Instead A and B are
 * found in two linear passes and paired with a moving pointer.
 */
export interface GappedPattern {
  /** Global regex for the start token. */
  anchor: RegExp;
  /** Global regex for the end token; the first one after the anchor is used. */
  terminal: RegExp;
  /** Most characters allowed between the end of the anchor and the start of the terminal. */
  maxGap: number;
  /** The gap may cross a shell line continuation (`\` + newline). */
  continuation?: boolean;
  /** Extra condition on the gap text (it is at most `maxGap` characters). */
  gapMust?: RegExp;
}

export type Pattern = RegExp | GappedPattern;

export const gapped = (anchor: RegExp, terminal: RegExp, maxGap: number, extra: Pick<GappedPattern, 'continuation' | 'gapMust'> = {}): GappedPattern => ({
  anchor,
  terminal,
  maxGap,
  ...extra,
});

/** Calls `fn(start, end)` for each match of a pattern, in text order. */
export function forEachPatternMatch(pattern: Pattern, text: string, fn: (start: number, end: number) => void): void {
  if (pattern instanceof RegExp) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      if (m[0].length === 0) pattern.lastIndex++;
      fn(m.index, m.index + m[0].length);
    }
    return;
  }
  const { anchor, terminal, maxGap } = pattern;
  const starts: number[] = [];
  const ends: number[] = [];
  terminal.lastIndex = 0;
  for (let m = terminal.exec(text); m; m = terminal.exec(text)) {
    if (m[0].length === 0) terminal.lastIndex++;
    starts.push(m.index);
    ends.push(m.index + m[0].length);
  }
  if (starts.length === 0) return;
  let j = 0;
  let breakAt = -1; // the next line break the gap may not cross, at or after the last `from`
  let lastUsed = -1;
  anchor.lastIndex = 0;
  for (let m = anchor.exec(text); m; m = anchor.exec(text)) {
    if (m[0].length === 0) anchor.lastIndex++;
    const from = m.index + m[0].length;
    while (j < starts.length && starts[j]! < from) j++;
    if (j >= starts.length) break;
    const to = starts[j]!;
    if (to - from > maxGap || j === lastUsed) continue;
    if (breakAt < from) breakAt = nextBreak(text, from, pattern.continuation === true);
    if (breakAt < to) continue;
    if (pattern.gapMust && !pattern.gapMust.test(text.slice(from, to))) continue;
    lastUsed = j;
    fn(m.index, ends[j]!);
  }
}

/**
 * Index of the next newline at or after `from` that ends the command, or past the end of the text
 * when there is none (so the cached value stays valid and long lines are searched only once).
 */
function nextBreak(text: string, from: number, continuation: boolean): number {
  let i = text.indexOf('\n', from);
  while (continuation && i !== -1) {
    const before = text.charCodeAt(i - 1) === 0x0d ? i - 2 : i - 1;
    if (text.charCodeAt(before) !== 0x5c) break;
    i = text.indexOf('\n', i + 1);
  }
  return i === -1 ? text.length + 1 : i;
}
