import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { escapedJson, visibleControls } from '../core/control-chars.ts';
import { PACKAGE_ROOT } from '../core-node/package-version.ts';

/**
 * Whether to style text written to `stream`. FORCE_COLOR wins, as in Node itself (`1`, `2`, `3`,
 * `true` or empty turn colour on; any other value turns it off); then NO_COLOR
 * (https://no-color.org) and TERM=dumb turn it off; otherwise only a terminal gets colour, so
 * a pipe or a file never receives escape codes.
 */
function colorEnabled(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
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
 * One line of text from a skill or the command line (a folder name, an argument), safe to echo:
 * its control and invisible characters are shown as `visible` shows them (ESC as ␛), and so is a
 * line feed, so a name can neither break nor reorder the line it is quoted in.
 */
export function printable(text: string): string {
  return visibleControls(text).replace(/\n/g, '\u240a');
}

/** Writes a line to stdout. Commands print through this so tests can rely on plain text. */
export const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

/** Writes a line to stderr: progress, warnings and errors, never machine output. */
export const err = (line = ''): void => {
  process.stderr.write(`${line}\n`);
};

/**
 * Prints a value as stable, indented JSON (the `--json` output of every command), with the
 * characters a terminal acts on or hides written as `\u` escapes: a reader of the JSON gets the
 * same strings, a terminal showing it gets no escape sequence.
 */
export const outJson = (value: unknown): void => {
  process.stdout.write(`${escapedJson(JSON.stringify(value, null, 2))}\n`);
};

/**
 * Registry text (names, descriptions, SKILL.md bodies) made safe for a terminal: control
 * characters are shown (ESC as ␛) instead of acted on, so a description cannot retitle the
 * window, write the clipboard or hide text. Every human-readable line built from registry data
 * goes through this; `--json` output is escaped by {@link outJson}.
 */
export const visible = visibleControls;

/**
 * Writes a published file's content: as is when stdout is a pipe or file (a script gets the exact
 * bytes), with control characters made visible when it is a terminal.
 */
export const outContent = (content: Uint8Array | string): void => {
  if (!process.stdout.isTTY) {
    process.stdout.write(content);
    return;
  }
  const text = typeof content === 'string' ? content : new TextDecoder().decode(content);
  process.stdout.write(visibleControls(text));
};

/** A mention of one of Skilldex's own documents or schemas, as help and hints write them. */
const OWN_FILE = /(?<![\w./-])(?:docs\/[A-Za-z0-9-]+\.md|schemas\/[a-z0-9.-]+\.json)/g;

/**
 * Help and hints name Skilldex's documents as `docs/rules.md#…` and its schemas as
 * `schemas/config.schema.json`. That is where they are in a checkout, but in a project that
 * installed the package they sit under node_modules/skilldex/, and a reader told `docs/cli.md`
 * found nothing. Each mention of a file this copy of Skilldex holds becomes where it is: relative
 * to `cwd` when inside it (unchanged in the checkout), else absolute.
 *
 * @example
 * withLocalDocs('see docs/cli.md', '/app/node_modules/skilldex', '/app'); // 'see node_modules/skilldex/docs/cli.md'
 */
export function withLocalDocs(text: string, root = PACKAGE_ROOT, cwd = process.cwd()): string {
  return text.replace(OWN_FILE, (path) => {
    const abs = join(root, path);
    // A report names the same few documents for each of its diagnostics: each is looked up once.
    let present = held.get(abs);
    if (present === undefined) held.set(abs, (present = existsSync(abs)));
    if (!present) return path;
    const rel = relative(cwd, abs);
    return rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? abs : rel;
  });
}
const held = new Map<string, boolean>();
