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
/** A run of letters or digits (any script), or a single CJK character. */
const PIECE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]+|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc])[\p{L}\p{N}])+/gu;

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
  for (const match of normalised.matchAll(PIECE)) {
    const piece = match[0];
    if (CJK.test(piece[0] as string)) {
      const chars = Array.from(piece);
      terms.push(...chars);
      for (let i = 0; i + 1 < chars.length; i += 1) terms.push(`${chars[i]}${chars[i + 1]}`);
    } else {
      terms.push(stem(piece));
    }
  }
  return terms;
}

/** True when a term came from a CJK run; prefix expansion only makes sense for words. */
export const isCjkTerm = (term: string): boolean => CJK.test(term[0] ?? '');
