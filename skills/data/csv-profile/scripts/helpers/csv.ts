/**
 * RFC 4180 CSV parsing with delimiter sniffing. Pure functions, no imports.
 */

export interface ParsedCsv {
  rows: string[][];
  delimiter: string;
  /** Rows whose field count differs from the first row's. */
  ragged: number[];
}

export const CANDIDATE_DELIMITERS = [',', ';', '\t', '|'] as const;

/**
 * Picks the delimiter that splits the first lines (outside quotes) into the most consistent,
 * non-trivial number of fields.
 */
export function sniffDelimiter(text: string): string {
  const sample = text.slice(0, 64 * 1024).split(/\r\n|\n|\r/).filter((l) => l.trim() !== '').slice(0, 20);
  let best: string = ',';
  let bestScore = -1;
  for (const d of CANDIDATE_DELIMITERS) {
    const counts = sample.map((line) => countOutsideQuotes(line, d));
    const first = counts[0] ?? 0;
    if (first === 0) continue;
    const consistent = counts.filter((c) => c === first).length;
    const score = consistent * 100 + first;
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
}

function countOutsideQuotes(line: string, delimiter: string): number {
  let n = 0;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === delimiter && !quoted) n++;
  }
  return n;
}

/** Parses CSV text: quoted fields, doubled quotes, embedded delimiters and newlines, CRLF/LF/CR. */
export function parseCsv(text: string, delimiter?: string, maxRows = Infinity): ParsedCsv {
  const d = delimiter && delimiter.length === 1 ? delimiter : sniffDelimiter(text);
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endRow = (): void => {
    row.push(field);
    field = '';
    // Skip blank lines entirely.
    if (!(row.length === 1 && row[0] === '')) rows.push(row);
    row = [];
  };
  while (i < src.length && rows.length < maxRows) {
    const ch = src[i] as string;
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === d) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      endRow();
      if (ch === '\r' && src[i + 1] === '\n') i++;
    } else field += ch;
    i++;
  }
  if (rows.length < maxRows && (field !== '' || row.length > 0)) endRow();
  const width = rows[0]?.length ?? 0;
  const ragged: number[] = [];
  rows.forEach((r, idx) => {
    if (r.length !== width) ragged.push(idx + 1);
  });
  return { rows, delimiter: d, ragged };
}
