import { describe, expect, it } from 'vitest';
import { execute as keywordExtract } from '../../skills/text/keyword-extract/index.ts';
import { execute as markdownToc } from '../../skills/docs/markdown-toc/index.ts';
import { execute as textStats } from '../../skills/text/text-stats/index.ts';

const logs: string[] = [];
const ctx = { skill: { name: 'test', version: '1.0.0' }, log: (msg: string) => void logs.push(msg) };

describe('text_stats (skill.json mode code)', () => {
  it('counts Latin words, CJK characters, lines, paragraphs and sentences', async () => {
    const out = await textStats({ text: "Hello world. Don't panic!\n\n中文文本测试，共十一个汉字。\nThe end" }, ctx);
    expect(out).toEqual({
      characters: 49,
      charactersNoSpaces: 42,
      bytes: 77,
      words: 18,
      latinWords: 6,
      cjkCharacters: 12,
      lines: 4,
      nonEmptyLines: 3,
      paragraphs: 2,
      sentences: 4,
      readingTimeMinutes: 0.1,
    });
    expect(logs.at(-1)).toBe('text_stats: 18 words, 4 lines');
  });

  it('counts grapheme clusters, not code units', async () => {
    const out = await textStats({ text: '👨‍👩‍👧 é' }, ctx);
    expect(out.characters).toBe(3);
    expect(out.charactersNoSpaces).toBe(2);
  });

  it('keeps 3.14 and e-mail as single words and handles Japanese kana', async () => {
    expect((await textStats({ text: '3.14 is pi, e-mail me' }, ctx)).latinWords).toBe(5);
    expect((await textStats({ text: 'こんにちは、世界' }, ctx)).cjkCharacters).toBe(7);
  });

  it('returns zeros for empty text and honours reading speeds', async () => {
    expect(await textStats({ text: '' }, ctx)).toMatchObject({ characters: 0, words: 0, lines: 0, paragraphs: 0, sentences: 0, readingTimeMinutes: 0 });
    const words = Array.from({ length: 300 }, () => 'word').join(' ');
    expect((await textStats({ text: words }, ctx)).readingTimeMinutes).toBe(1.4);
    expect((await textStats({ text: words, wordsPerMinute: 100 }, ctx)).readingTimeMinutes).toBe(3);
  });

  it('rejects a missing text', async () => {
    await expect(textStats({}, ctx)).rejects.toThrow(/input.text must be a string/);
  });
});

describe('keyword_extract (skill.json mode code)', () => {
  const english = 'Skill registries index skills. A registry validates every skill, and the registry publishes an index. Skill registries are static.';

  it('ranks terms by frequency, drops stop words and folds plurals', async () => {
    const out = await keywordExtract({ text: english, limit: 3 }, ctx);
    expect(out.keywords).toEqual([
      { term: 'skill', count: 4, score: 0.3077 },
      { term: 'registry', count: 4, score: 0.3077 },
      { term: 'index', count: 2, score: 0.1538 },
    ]);
    expect(out).toMatchObject({ totalTerms: 13, uniqueTerms: 6, phrases: [] });
  });

  it('returns repeated two-word phrases on request; accepts a numeric string limit', async () => {
    const out = await keywordExtract({ text: english, limit: '5', phrases: true }, ctx);
    expect(out.keywords).toHaveLength(5);
    expect(out.phrases).toEqual([{ phrase: 'skill registries', count: 2 }]);
  });

  it('segments Chinese into words and drops Chinese stop words', async () => {
    const out = await keywordExtract({ text: '技能注册表支持中文搜索。技能索引和中文搜索都很重要，技能注册表是静态的。', limit: 4, phrases: true }, ctx);
    expect(out.keywords.map((k) => k.term)).toEqual(['技能', '注册', '中文', '搜索']);
    expect(out.keywords[0]?.count).toBe(3);
    expect(out.keywords.map((k) => k.term)).not.toContain('的');
    expect(out.phrases).toContainEqual({ phrase: '中文搜索', count: 2 });
  });

  it('honours extra stop words and minLength', async () => {
    const out = await keywordExtract({ text: english, stopwords: ['Skill', 'skills'], minLength: 6 }, ctx);
    expect(out.keywords.map((k) => k.term)).toEqual(['registry', 'validates', 'publishes', 'static']);
  });

  it('returns an empty result for text without terms', async () => {
    expect(await keywordExtract({ text: 'the and of 42' }, ctx)).toEqual({ keywords: [], phrases: [], totalTerms: 0, uniqueTerms: 0 });
  });
});

describe('markdown_toc (skill.json mode code)', () => {
  const md = [
    '# Skilldex',
    '',
    '## Getting started',
    '### Install `skilldex`',
    '## Getting started',
    '',
    '```md',
    '## Not a heading',
    '```',
    '',
    'Usage & [API](https://example.org/api) notes',
    '----------------------------',
    '',
    '## 中文 说明！ ##',
    '#### Deep',
  ].join('\n');

  it('builds a nested list with GitHub anchors, skipping code fences', async () => {
    const out = await markdownToc({ markdown: md }, ctx);
    expect(out.toc).toBe(
      [
        '- [Getting started](#getting-started)',
        '  - [Install skilldex](#install-skilldex)',
        '- [Getting started](#getting-started-1)',
        '- [Usage & API notes](#usage--api-notes)',
        '- [中文 说明！](#中文-说明)',
      ].join('\n'),
    );
    expect(out.count).toBe(5);
    expect(out.headings.map((h) => [h.level, h.slug, h.line])).toEqual([
      [1, 'skilldex', 1],
      [2, 'getting-started', 3],
      [3, 'install-skilldex', 4],
      [2, 'getting-started-1', 5],
      [2, 'usage--api-notes', 11],
      [2, '中文-说明', 14],
      [4, 'deep', 15],
    ]);
  });

  it('honours minLevel, maxLevel and the bullet style', async () => {
    const out = await markdownToc({ markdown: md, minLevel: 1, maxLevel: 2, bullet: '1.' }, ctx);
    expect(out.toc.split('\n')[0]).toBe('1. [Skilldex](#skilldex)');
    expect(out.toc.split('\n')[1]).toBe('   1. [Getting started](#getting-started)');
    expect(out.count).toBe(5);
  });

  it('rejects a missing markdown input', async () => {
    await expect(markdownToc({}, ctx)).rejects.toThrow(/markdown must be a string/);
  });
});
