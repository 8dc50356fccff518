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
