/**
 * text_stats: CJK-aware counts for a piece of text. Pure computation, no I/O.
 */

export interface TextStatsInput {
  text: string;
  wordsPerMinute?: number;
  cjkCharsPerMinute?: number;
}

export interface TextStatsOutput {
  characters: number;
  charactersNoSpaces: number;
  bytes: number;
  words: number;
  latinWords: number;
  cjkCharacters: number;
  lines: number;
  nonEmptyLines: number;
  paragraphs: number;
  sentences: number;
  readingTimeMinutes: number;
}

interface Ctx {
  skill?: { name: string; version: string };
  log?: (msg: string) => void;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
// A "word" outside CJK: letters/digits/marks, allowing inner apostrophes, hyphens, dots (don't, e-mail, 3.14).
const LATIN_WORD = /[\p{L}\p{N}\p{M}]+(?:['’.\-][\p{L}\p{N}\p{M}]+)*/gu;
const SENTENCE_END = /[.!?。！？…]+(?=\s|$|["'”’）)\]]|[^\x00-\x7F])|[。！？]+/gu;

function positive(value: unknown, fallback: number): number {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : fallback;
}

export function textStats(text: string, wordsPerMinute = 230, cjkCharsPerMinute = 400): TextStatsOutput {
  const graphemes = Array.from(new Intl.Segmenter('und', { granularity: 'grapheme' }).segment(text), (s) => s.segment);
  const characters = graphemes.length;
  const charactersNoSpaces = graphemes.filter((g) => !/^\s+$/u.test(g)).length;
  const cjkCharacters = (text.match(CJK) ?? []).length;
  // Remove CJK characters first so that "中文abc" counts one Latin word, not a merged run.
  const latinWords = (text.replace(CJK, ' ').match(LATIN_WORD) ?? []).length;
  const lineList = text.length === 0 ? [] : text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
  const nonEmptyLines = lineList.filter((l) => l.trim() !== '').length;
  const paragraphs = text.trim() === '' ? 0 : text.replace(/\r\n?/g, '\n').split(/\n\s*\n/).filter((p) => p.trim() !== '').length;
  const sentenceMarks = (text.match(SENTENCE_END) ?? []).length;
  const hasContent = latinWords + cjkCharacters > 0;
  // Text that trails off without final punctuation still ends a sentence.
  const trailing = hasContent && !/[.!?。！？…]["'”’）)\]]*\s*$/u.test(text) ? 1 : 0;
  const sentences = hasContent ? sentenceMarks + trailing : 0;
  const minutes = latinWords / wordsPerMinute + cjkCharacters / cjkCharsPerMinute;
  return {
    characters,
    charactersNoSpaces,
    bytes: new TextEncoder().encode(text).length,
    words: latinWords + cjkCharacters,
    latinWords,
    cjkCharacters,
    lines: lineList.length,
    nonEmptyLines,
    paragraphs,
    sentences,
    readingTimeMinutes: Math.ceil(minutes * 10) / 10,
  };
}

export async function execute(input: Record<string, unknown>, ctx?: Ctx): Promise<TextStatsOutput> {
  const text = input.text;
  if (typeof text !== 'string') throw new TypeError('text_stats: input.text must be a string');
  const result = textStats(text, positive(input.wordsPerMinute, 230), positive(input.cjkCharsPerMinute, 400));
  ctx?.log?.(`text_stats: ${result.words} words, ${result.lines} lines`);
  return result;
}
