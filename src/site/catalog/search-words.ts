/**
 * The catalog's own words for the search box's "did you mean": every word of the skills' names,
 * titles, tags and categories, with how many skills use it. The search box loads it only when a
 * query finds nothing, and corrects a query word one edit away from one of these words
 * (`reviw` → `review`). Docs and descriptions are left out on purpose: they would make the file
 * large (it is fetched on a miss, so it must stay small), and a typo is worth correcting to a
 * word that names a skill rather than to any word some page happens to contain.
 */

/** The fields of an `index.json` entry the words come from. */
export interface SkillWords {
  name: string;
  title?: string;
  tags?: readonly string[];
  category?: string;
}

/** What `search-words.json` holds: each word (lower case) and the number of skills that use it, sorted by word. */
export interface SearchWords {
  words: Record<string, number>;
}

/** Shorter words are not corrected (`node` is one edit from `code`, but seldom a typo of it); search.js holds the same number. */
const MIN_CORRECTED_LENGTH = 5;

// Words in scripts written without spaces (Chinese, Japanese, Korean, Thai) are not corrected by
// edit distance: one character there is a whole syllable or word.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

/** Lower case without diacritics, as Pagefind compares words (`Café` → `cafe`). */
export function foldWord(word: string): string {
  return word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words of one text: runs of letters and digits (`code_review` → `code`, `review`), folded. */
function wordsOf(text: string): string[] {
  return foldWord(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= MIN_CORRECTED_LENGTH && !UNSPACED.test(word) && !/^\p{N}+$/u.test(word));
}

/**
 * @example
 * searchWords([{ name: 'code_review', title: 'Code Review', tags: ['security'], category: '代码' }])
 * // { words: { code: 1, review: 1, security: 1 } }
 */
export function searchWords(skills: Iterable<SkillWords>): SearchWords {
  const counts = new Map<string, number>();
  for (const skill of skills) {
    const own = new Set([skill.name, skill.title ?? '', skill.category ?? '', ...(skill.tags ?? [])].flatMap(wordsOf));
    for (const word of own) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const words: Record<string, number> = {};
  for (const word of [...counts.keys()].sort()) words[word] = counts.get(word)!;
  return { words };
}
