/**
 * Search tokenisation shared by the registry index, the runtime and the site, so that a query
 * typed anywhere splits exactly like the documents it is matched against.
 *
 * Latin-script text splits into words (lowercased, NFKC-normalised, a trailing plural `s`
 * dropped). Chinese, Japanese and Korean have no spaces, so a run of those characters becomes its
 * single characters plus every adjacent pair: `代码质量` → 代, 码, 质, 量, 代码, 码质, 质量. Bigrams
 * carry most of the ranking signal for two-character words, while unigrams still find one-character
 * queries and words split differently by the writer and the searcher.
 */

/** Han, Hiragana, Katakana and Hangul: scripts written without spaces between words. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** What a character is to the tokeniser: a separator, part of a word, or a CJK character. */
const SEPARATOR = 0;
const WORD = 1;
const CJK_CHAR = 2;
const kindOf = (char: string): number => (CJK.test(char) ? CJK_CHAR : LETTER_OR_DIGIT.test(char) ? WORD : SEPARATOR);

/**
 * The kind of each character of the Basic Multilingual Plane met so far, plus one (0: not yet
 * known). Text is walked a character at a time rather than matched with a regular expression: a
 * pattern repeating a Unicode class takes a backtracking entry per character, and one word or CJK
 * run of millions of characters, which a hostile index can hold, overflowed the stack. Worked out
 * as met: a catalog has some thousands of distinct characters, and the whole plane took ~10 ms.
 */
const bmpKinds = new Uint8Array(0x10000);
const kindAt = (code: number): number => {
  if (code > 0xffff) return kindOf(String.fromCodePoint(code));
  let known = bmpKinds[code] as number;
  // A lone surrogate is no character of any script, as a pattern with the u flag sees it.
  if (known === 0) bmpKinds[code] = known = 1 + (code >= 0xd800 && code <= 0xdfff ? SEPARATOR : kindOf(String.fromCharCode(code)));
  return known - 1;
};

/** Drops an English plural `s` so that `skills` finds `skill`; short words and `-ss` stay as they are. */
const stem = (word: string): string => {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
};

/**
 * Splits text into search terms (duplicates kept: term frequency matters to ranking).
 *
 * @example
 * tokenize('Code-Review skills');   // ['code', 'review', 'skill']
 * tokenize('分析代码');              // ['分', '析', '代', '码', '分析', '析代', '代码']
 */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  const normalised = text.normalize('NFKC').toLowerCase();
  let wordStart = -1;
  let cjkRun: string[] = [];
  const endCjkRun = () => {
    for (let k = 0; k + 1 < cjkRun.length; k += 1) terms.push(`${cjkRun[k]}${cjkRun[k + 1]}`);
    cjkRun = [];
  };
  for (let i = 0; i < normalised.length; ) {
    const code = normalised.codePointAt(i) as number;
    const width = code > 0xffff ? 2 : 1;
    const kind = kindAt(code);
    if (kind !== WORD && wordStart !== -1) {
      terms.push(stem(normalised.slice(wordStart, i)));
      wordStart = -1;
    }
    if (kind === CJK_CHAR) {
      const char = normalised.slice(i, i + width);
      terms.push(char);
      cjkRun.push(char);
    } else {
      if (cjkRun.length > 0) endCjkRun();
      if (kind === WORD && wordStart === -1) wordStart = i;
    }
    i += width;
  }
  if (wordStart !== -1) terms.push(stem(normalised.slice(wordStart)));
  endCjkRun();
  return terms;
}

/** True when a term came from a CJK run; prefix expansion only makes sense for words. */
export const isCjkTerm = (term: string): boolean => term !== '' && kindAt(term.codePointAt(0) as number) === CJK_CHAR;
