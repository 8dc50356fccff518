import { oncePer } from '../core/once-per.ts';

/**
 * A prefilter that lets a pattern skip a text it cannot match. Each regex pass over a text costs
 * a full scan of it, the rules run about sixty patterns over every file, and most files hold none
 * of the words those patterns need. So every pattern declares words, at least one of which each of
 * its matches contains, and one linear pass per file records which words the file holds; a
 * pattern none of whose words is there is not searched. (One regex alternating all the words
 * costs some twenty literal searches: an alternation defeats the engine's fast literal scan.)
 *
 * A word is what `\b` delimits in a regex without the `u` flag: a maximal run of ASCII letters,
 * digits and `_`; any other character, non-ASCII letters included, ends it. Words are compared
 * ASCII-case-insensitively, which is how `/i` compares them without `u` (and a match of a
 * case-sensitive pattern is also one up to case). A declared word is
 *
 * - whole, `curl`: the match contains `curl` with no word character on either side, as
 *   `\bcurl\b` or `(?<![\w.])curl\s*\(` guarantee;
 * - a prefix, `curl*`: the match contains a word that starts with `curl`, as `\bcurl` with
 *   nothing required after it does (it also matches `curly`). Only the first 4 characters of a
 *   prefix are compared; a prefix has at least 3.
 *
 * The record is a Bloom filter (hashes in a bit set), so it may say a word is present when it is
 * not (the pattern then runs, as it always did) but never that a present word is absent.
 */

/** The words of a pattern, as written (`'curl wget fetch'`) and as hashed for the lookup. */
export interface Words {
  source: string;
  hashes: readonly number[];
}

/** Anything with a text: a file of a skill, or a decoded payload. */
export interface Searchable {
  readonly text: string;
}

/**
 * Turns the prefilters off: every pattern searches every text, and the encoded-data finder
 * (rules/obfuscation.ts) walks every character. Only for the test that proves they change no
 * finding (test/scanner/prefilter.test.ts); nothing else sets it.
 */
export const prefilter = { enabled: true };

const WHOLE = 0;
const PREFIX3 = 3;
const PREFIX4 = 4;

/** The lower-cased code of each ASCII word character (`[A-Za-z0-9_]`), 0 for every other ASCII code. */
const WORD_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/\w/.test(ch)) WORD_CHAR[c] = ch.toLowerCase().charCodeAt(0);
}

// FNV-1a over the lower-cased characters; the kind of entry (whole word, 3- or 4-character
// prefix) is mixed in before the final multiply, so `cur` the word and `cur…` the prefix differ.
const FNV_OFFSET = 0x811c9dc5 | 0;
const step = (h: number, c: number): number => Math.imul(h ^ c, 0x01000193);
const finish = (h: number, kind: number): number => Math.imul(h ^ kind, 0x9e3779b1);

/** Parses a pattern's words: space-separated, lower case, `*` after a prefix. */
export function words(source: string): Words {
  const list = source.split(' ');
  const hashes = list.map((word) => {
    const m = /^([a-z0-9_]+)(\*?)$/.exec(word);
    if (!m || m[1]!.length < (m[2] ? 3 : 2)) throw new Error(`scanner pattern word "${word}": lower-case word characters, at least 2 (3 before a prefix's *)`);
    const chars = m[2] ? m[1]!.slice(0, 4) : m[1]!;
    let h = FNV_OFFSET;
    for (let i = 0; i < chars.length; i++) h = step(h, chars.charCodeAt(i));
    return finish(h, m[2] ? (chars.length === 3 ? PREFIX3 : PREFIX4) : WHOLE);
  });
  return { source, hashes };
}

/** Bloom filter of a text's words: each entry sets two bits of a power-of-two bit set. */
interface WordRecord {
  bits: Int32Array;
  log2: number;
}

// About 4 bits per character of text: a 4 KB file of prose holds a few hundred distinct words,
// some 700 entries setting 1,400 of 16 K bits, so an absent word looks present about 0.7% of the
// time. Huge files are capped at 128 KB of bits and may then look like they hold every word.
const MIN_LOG2 = 11;
const MAX_LOG2 = 20;

/** The two bits of an entry: the top `log2` bits of its hash, and `log2` bits from the middle. */
const bitA = (x: number, log2: number): number => x >>> (32 - log2);
const bitB = (x: number, log2: number): number => (x >>> 6) & ((1 << log2) - 1);

function recordWords(text: string): WordRecord {
  const log2 = Math.min(MAX_LOG2, Math.max(MIN_LOG2, Math.ceil(Math.log2(text.length * 4 + 1))));
  const bits = new Int32Array(1 << (log2 - 5));
  const length = text.length;
  let h = FNV_OFFSET;
  let n = 0;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    const w = c < 128 ? WORD_CHAR[c]! : 0;
    if (w !== 0) {
      h = step(h, w);
      n++;
      if (n === 3) add(bits, log2, finish(h, PREFIX3));
      else if (n === 4) add(bits, log2, finish(h, PREFIX4));
    } else if (n !== 0) {
      if (n > 1) add(bits, log2, finish(h, WHOLE));
      h = FNV_OFFSET;
      n = 0;
    }
  }
  if (n > 1) add(bits, log2, finish(h, WHOLE));
  return { bits, log2 };
}

function add(bits: Int32Array, log2: number, x: number): void {
  const a = bitA(x, log2);
  const b = bitB(x, log2);
  bits[a >>> 5]! |= 1 << (a & 31);
  bits[b >>> 5]! |= 1 << (b & 31);
}

function has({ bits, log2 }: WordRecord, x: number): boolean {
  const a = bitA(x, log2);
  const b = bitB(x, log2);
  return (bits[a >>> 5]! & (1 << (a & 31))) !== 0 && (bits[b >>> 5]! & (1 << (b & 31))) !== 0;
}

/** The words of a text, recorded on first use and kept as long as the text's owner. */
const wordsOf = oncePer((source: Searchable) => recordWords(source.text));

/**
 * False only when the text holds none of the words, so no match can be in it. Patterns without
 * words (`undefined`) may match anything.
 */
export function mayContain(source: Searchable, words: Words | undefined): boolean {
  if (words === undefined || !prefilter.enabled) return true;
  const record = wordsOf(source);
  return words.hashes.some((x) => has(record, x));
}
