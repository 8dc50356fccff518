/**
 * Quotes a string for a POSIX shell command line, so a command the user is told to run (a folder
 * named `My Skills`, the `--input` JSON of `skilldex run`) runs as shown when pasted.
 *
 * @example
 * shellQuote('My Skills'); // "'My Skills'"
 */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:@=-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
