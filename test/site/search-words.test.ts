import { describe, expect, it } from 'vitest';
import { foldWord, searchWords } from '../../src/site/catalog/search-words.ts';

describe('searchWords', () => {
  it("takes the words of names, titles, tags and categories, counting each skill once", () => {
    const words = searchWords([
      { name: 'code_review', title: 'Code Review', tags: ['security', 'review'], category: '代码' },
      { name: 'conventional-commits', title: 'Conventional Commits', tags: ['git', 'commit-message'], category: 'dev' },
      { name: 'pr-review', title: 'Pull Request Review' },
    ]);
    expect(words).toEqual({
      words: { commit: 1, commits: 1, conventional: 1, message: 1, request: 1, review: 2, security: 1 },
    });
  });

  it('leaves out words too short to correct (under five letters), numbers and words of scripts written without spaces', () => {
    expect(searchWords([{ name: 'csv-20240', title: 'CSV 校对 Tool Kit', tags: ['メール', 'v1.2', 'linter'] }]).words).toEqual({ linter: 1 });
  });

  it('folds case and diacritics as Pagefind does, and sorts the words', () => {
    expect(foldWord('Café')).toBe('cafe');
    expect(Object.keys(searchWords([{ name: 'zetas-alpha', title: 'Résumé Builder' }]).words)).toEqual(['alpha', 'builder', 'resume', 'zetas']);
  });
});
