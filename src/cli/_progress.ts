/**
 * One updating progress line on stderr ("validating 1,234/2,000 skills"), drawn only when stderr
 * is a terminal: a pipe, a file or a CI log gets nothing, so machine output and logs stay clean.
 */
export interface Progress {
  update(label: string, done: number, total: number): void;
  /** Erases the line, so what is printed next starts on a clean line. */
  end(): void;
}

/** Redraws at most this often: a 10,000-skill run must not spend its time writing to the terminal. */
const REDRAW_MS = 100;
const count = (n: number) => n.toLocaleString('en-US');

export function progressLine(stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return { update() {}, end() {} };
  let shown = 0;
  let last = 0;
  let lastLabel = '';
  return {
    update(label, done, total) {
      const now = Date.now();
      // The first state of each phase is drawn at once, then at most every REDRAW_MS, and the last one always.
      if (shown > 0 && label === lastLabel && done < total && now - last < REDRAW_MS) return;
      last = now;
      lastLabel = label;
      const line = `${label} ${count(done)}/${count(total)} skills`;
      // Padding over the previous line instead of an erase sequence also works on a dumb terminal.
      stream.write(`\r${line.padEnd(shown)}`);
      shown = line.length;
    },
    end() {
      if (shown > 0) stream.write(`\r${' '.repeat(shown)}\r`);
      shown = 0;
    },
  };
}
