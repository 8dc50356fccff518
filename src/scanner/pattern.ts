import { mayContain, words, type Searchable, type Words } from './words.ts';

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

/** What finds a pattern's matches: one regex, or an anchor and a terminal paired as above. */
export type Matcher = RegExp | GappedPattern;

/**
 * A matcher and the words at least one of which every match contains (see words.ts), declared
 * side by side so a reader checks each word against its regex. A text with none of the words is
 * not searched.
 */
export interface Pattern<M extends Matcher = Matcher> {
  matcher: M;
  words: Words | undefined;
}

/**
 * `words`: space-separated; `curl` must stand as a whole word in every match, `curl*` must start
 * a word. The regexes must not use the `u` or `v` flag, under which `\b`, `\w` and `/i` also
 * take non-ASCII characters (`ſ`, the Kelvin sign `K`) that the word record does not.
 */
export function pattern<M extends Matcher>(wordList: string, matcher: M): Pattern<M> {
  const regexes = matcher instanceof RegExp ? [matcher] : [matcher.anchor, matcher.terminal, matcher.gapMust];
  for (const re of regexes) if (re && /[uv]/.test(re.flags)) throw new Error(`scanner pattern ${re}: the u and v flags change what \\b and /i match`);
  return { matcher, words: words(wordList) };
}

/** A pattern that contains no word character at all, so every text is searched. */
export const unguarded = <M extends Matcher>(matcher: M): Pattern<M> => ({ matcher, words: undefined });

export const gapped = (anchor: RegExp, terminal: RegExp, maxGap: number, extra: Pick<GappedPattern, 'continuation' | 'gapMust'> = {}): GappedPattern => ({
  anchor,
  terminal,
  maxGap,
  ...extra,
});

/** Calls `fn(start, end)` for each match of a pattern in the source's text, in text order. */
export function forEachPatternMatch(pattern: Pattern, source: Searchable, fn: (start: number, end: number) => void): void {
  if (!mayContain(source, pattern.words)) return;
  const { matcher } = pattern;
  const { text } = source;
  if (matcher instanceof RegExp) {
    matcher.lastIndex = 0;
    for (let m = matcher.exec(text); m; m = matcher.exec(text)) {
      if (m[0].length === 0) matcher.lastIndex++;
      fn(m.index, m.index + m[0].length);
    }
    return;
  }
  const { anchor, terminal, maxGap } = matcher;
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
    if (breakAt < from) breakAt = nextBreak(text, from, matcher.continuation === true);
    if (breakAt < to) continue;
    if (matcher.gapMust && !matcher.gapMust.test(text.slice(from, to))) continue;
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
