/**
 * Decoded text of one skill file plus the offset → line/column mapping every diagnostic needs.
 * Decoding is strict: invalid UTF-8 is reported, never replaced silently.
 */
export interface SourceText {
  /** Text with a leading BOM removed and CRLF left as is (offsets stay true to the file). */
  readonly text: string;
  /** Offsets where each line starts. */
  readonly lineStarts: readonly number[];
  /** Whether the file started with a UTF-8 BOM. */
  readonly bom: boolean;
}

/**
 * Line starts are found at the first position asked for: most files of a skill are checked
 * without one, and finding them in every file cost a fiftieth of a `validate --no-scan`.
 */
class LazySourceText implements SourceText {
  readonly text: string;
  readonly bom: boolean;
  #lineStarts: number[] | undefined;
  constructor(text: string, bom: boolean) {
    this.text = text;
    this.bom = bom;
  }
  get lineStarts(): readonly number[] {
    return (this.#lineStarts ??= lineStartsOf(this.text));
  }
}

export interface Position {
  line: number;
  column: number;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export type DecodeResult = { ok: true; source: SourceText } | { ok: false; position: Position; byteOffset: number };

/** Decodes UTF-8 strictly; on failure returns where the first bad byte is. */
export function decodeUtf8(bytes: Uint8Array): DecodeResult {
  try {
    let text = decoder.decode(bytes);
    const bom = text.charCodeAt(0) === 0xfeff;
    if (bom) text = text.slice(1);
    return { ok: true, source: new LazySourceText(text, bom) };
  } catch {
    const byteOffset = firstInvalidUtf8(bytes);
    // Count lines in the valid prefix to say where the damage is.
    const prefix = new TextDecoder('utf-8').decode(bytes.subarray(0, byteOffset));
    const starts = lineStartsOf(prefix);
    const line = starts.length;
    return { ok: false, byteOffset, position: { line, column: prefix.length - (starts[line - 1] ?? 0) + 1 } };
  }
}

/**
 * The text without a leading byte-order mark, as {@link decodeUtf8} reads a file: editors on
 * Windows save one, and left in place it hides the `---` that opens a frontmatter and is not JSON.
 */
export const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

export function sourceFromString(text: string): SourceText {
  return new LazySourceText(text, false);
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line and column of a text offset. */
export function positionAt(source: SourceText, offset: number): Position {
  const starts = source.lineStarts;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (starts[lo] as number) + 1 };
}

/** Offset of the first byte that breaks UTF-8 (RFC 3629 table 3.7, including second-byte ranges). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    // [length, lowest second byte, highest second byte]
    const shape: [number, number, number] | undefined =
      b >= 0xc2 && b <= 0xdf ? [2, 0x80, 0xbf]
      : b === 0xe0 ? [3, 0xa0, 0xbf]
      : b === 0xed ? [3, 0x80, 0x9f]
      : b >= 0xe1 && b <= 0xef ? [3, 0x80, 0xbf]
      : b === 0xf0 ? [4, 0x90, 0xbf]
      : b >= 0xf1 && b <= 0xf3 ? [4, 0x80, 0xbf]
      : b === 0xf4 ? [4, 0x80, 0x8f]
      : undefined;
    if (!shape) return i;
    const [length, low, high] = shape;
    const second = bytes[i + 1];
    if (second === undefined || second < low || second > high) return i;
    for (let k = 2; k < length; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
    }
    i += length;
  }
  return i;
}
