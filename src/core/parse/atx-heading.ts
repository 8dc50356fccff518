/**
 * A Markdown ATX heading line (`## Title ##`), read as CommonMark does: up to three spaces of
 * indent, one to six `#`, then a space, a tab or the end of the line; the text is trimmed, and a
 * closing run of `#` goes when a space or a tab stands before it (`# C#` stays `C#`).
 *
 * Read by hand: the pattern that did this before (`(.*?)[ \t]*#*[ \t]*$`) could split a run of
 * spaces in cubically many ways, and a CHANGELOG.md line of some thousands of spaces in a pull
 * request kept the build busy for minutes.
 *
 * @example
 * atxHeading('## [1.2.0] - 2026-01-02 ##'); // { level: 2, text: '[1.2.0] - 2026-01-02' }
 * atxHeading('#hashtag');                   // undefined
 */
export function atxHeading(line: string): { level: number; text: string } | undefined {
  let at = 0;
  while (at < 3 && line[at] === ' ') at++;
  const hashes = at;
  while (line[at] === '#') at++;
  const level = at - hashes;
  if (level < 1 || level > 6) return undefined;
  if (at < line.length && !isBlank(line[at])) return undefined;
  let start = at;
  let end = line.length;
  while (start < end && isBlank(line[start])) start++;
  while (end > start && isBlank(line[end - 1])) end--;
  // A closing sequence: `#`s at the end, with a space or a tab before them (or nothing at all).
  let closing = end;
  while (closing > start && line[closing - 1] === '#') closing--;
  if (closing < end && (closing === start || isBlank(line[closing - 1]))) {
    end = closing;
    while (end > start && isBlank(line[end - 1])) end--;
  }
  return { level, text: line.slice(start, end) };
}

const isBlank = (char: string | undefined): boolean => char === ' ' || char === '\t';
