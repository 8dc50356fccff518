import { looksLikeText, sniffFormat, type BinaryFormat } from './magic.ts';

/** What a file's bytes turned out to be. */
export type DecodedFile =
  | { kind: 'text'; text: string; encoding: 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' }
  | { kind: 'binary'; format: BinaryFormat }
  /**
   * Neither a supported text encoding nor a recognised binary. `fallbackText` is a windows-1252
   * reading when the bytes still look like text (e.g. a Latin-1 shell script), so the text rules
   * can look at it; a shell would run such a file just the same.
   */
  | { kind: 'undecodable'; reason: string; fallbackText: string | undefined };

const strict = (label: string) => new TextDecoder(label, { fatal: true, ignoreBOM: true });

/**
 * Decodes a file: recognised binary formats first (by magic bytes), then UTF-8 (with or without
 * BOM), then UTF-16 with a BOM, or without one when every other byte of the start is NUL.
 */
export function decodeFile(bytes: Uint8Array): DecodedFile {
  const b = bytes;
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return tryText(b.subarray(3), 'utf-8', 'utf-8-bom');
  if (b[0] === 0xff && b[1] === 0xfe) return tryText(b.subarray(2), 'utf-16le', 'utf-16le');
  if (b[0] === 0xfe && b[1] === 0xff) return tryText(b.subarray(2), 'utf-16be', 'utf-16be');
  const format = sniffFormat(b);
  if (format) return { kind: 'binary', format };
  const bomless = bomlessUtf16(b);
  if (bomless) return tryText(b, bomless, bomless);
  if (b.includes(0)) return undecodable(b, 'contains NUL bytes but matches no known binary format');
  return tryText(b, 'utf-8', 'utf-8');
}

function tryText(b: Uint8Array, label: string, encoding: 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be'): DecodedFile {
  try {
    const text = strict(label).decode(b);
    if (text.includes('\u0000')) return undecodable(b, `decodes as ${encoding} but contains NUL characters`);
    return { kind: 'text', text, encoding };
  } catch {
    // A predicate, as the other reasons are: the finding says "The file <reason>."
    return undecodable(b, `is not valid ${encoding.replace('-bom', '').toUpperCase()}`);
  }
}

function undecodable(b: Uint8Array, reason: string): DecodedFile {
  const fallbackText = looksLikeText(b) ? new TextDecoder('windows-1252').decode(b) : undefined;
  return { kind: 'undecodable', reason, fallbackText };
}

/** UTF-16 without BOM: ASCII-range text leaves a NUL in every other byte. */
function bomlessUtf16(b: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const n = Math.min(b.length, 512) & ~1;
  if (n < 8) return undefined;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < n; i += 2) {
    if (b[i] === 0) evenZero++;
    if (b[i + 1] === 0) oddZero++;
  }
  const pairs = n / 2;
  if (oddZero >= pairs * 0.9 && evenZero === 0) return 'utf-16le';
  if (evenZero >= pairs * 0.9 && oddZero === 0) return 'utf-16be';
  return undefined;
}
