import { visibleControls } from '../core/control-chars.ts';

/** Terminal styling that honours NO_COLOR (https://no-color.org) and non-TTY output. */
const enabled = (stream: NodeJS.WriteStream): boolean =>
  !('NO_COLOR' in process.env && process.env.NO_COLOR !== '') && process.env.TERM !== 'dumb' && Boolean(stream.isTTY);

const wrap = (open: number, close: number) => (text: string, stream: NodeJS.WriteStream = process.stdout) =>
  enabled(stream) ? `\u001b[${open}m${text}\u001b[${close}m` : text;

export const style = {
  bold: wrap(1, 22),
  dim: wrap(2, 22),
  red: wrap(31, 39),
  yellow: wrap(33, 39),
  green: wrap(32, 39),
  cyan: wrap(36, 39),
};

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

/**
 * Registry text (names, descriptions, SKILL.md bodies) made safe for a terminal: control
 * characters are shown (ESC as ␛) instead of acted on, so a description cannot retitle the
 * window, write the clipboard or hide text. Every human-readable line built from registry data
 * goes through this; `--json` output is escaped by JSON itself.
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
