import { stripVTControlCharacters } from 'node:util';

/**
 * Whether to style text written to `stream`. FORCE_COLOR wins, as in Node itself (`1`, `2`, `3`,
 * `true` or empty turn colour on; any other value turns it off); then NO_COLOR
 * (https://no-color.org) and TERM=dumb turn it off; otherwise only a terminal gets colour, so
 * a pipe or a file never receives escape codes.
 */
export function colorEnabled(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return ['', '1', '2', '3', 'true'].includes(force);
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return Boolean(stream.isTTY);
}

const wrap = (open: number, close: number) => (text: string, stream: NodeJS.WriteStream = process.stdout) =>
  colorEnabled(stream) ? `\u001b[${open}m${text}\u001b[${close}m` : text;

export const style = {
  bold: wrap(1, 22),
  dim: wrap(2, 22),
  red: wrap(31, 39),
  yellow: wrap(33, 39),
  green: wrap(32, 39),
  cyan: wrap(36, 39),
};

/**
 * Text styled by a library (citty's usage and its error messages carry their own colours),
 * made fit for `stream`: escape codes removed where colour is off, trailing blanks trimmed.
 */
export function forStream(text: string, stream: NodeJS.WriteStream): string {
  const plain = colorEnabled(stream) ? text : stripVTControlCharacters(text);
  return plain.replace(/[ \t]+$/gm, '');
}

/**
 * A string from the command line or from a skill, safe to echo: control characters (escape
 * sequences that could restyle or rewrite the terminal, carriage returns, bidi overrides) are
 * shown as `\u{…}` instead of being sent to the terminal.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/** Writes a line to stdout. Commands print through this so tests can rely on plain text. */
export const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

/** Writes a line to stderr: progress, warnings and errors, never machine output. */
export const err = (line = ''): void => {
  process.stderr.write(`${line}\n`);
};

/** Prints a value as stable, indented JSON (the `--json` output of every command). */
export const outJson = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};
