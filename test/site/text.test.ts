import { describe, expect, it } from 'vitest';
import { anchorOf } from '../../src/core/rule.ts';
import { shellQuote } from '../../src/core/shell-quote.ts';
import { detectLang, formatBytes, slugify, truncate } from '../../src/site/catalog/text.ts';

describe('detectLang', () => {
  it('tells Chinese, Japanese and English apart', () => {
    expect(detectLang('在长期记忆中搜索与当前对话相关的内容')).toBe('zh');
    expect(detectLang('日本語の文章を自然な英語に翻訳します。')).toBe('ja');
    expect(detectLang('Reviews source code for bugs and returns issues.')).toBe('en');
  });

  it('keeps English text that quotes a CJK term English', () => {
    expect(detectLang('Searches the memory store (记忆) for facts about the user and their preferences.')).toBe('en');
  });
});

describe('slugify', () => {
  it('keeps letters of any script and collapses the rest', () => {
    expect(slugify('Code Review')).toBe('code-review');
    expect(slugify('记忆')).toBe('记忆');
    expect(slugify('<img src=x onerror=alert(1)>')).toBe('img-src-x-onerror-alert-1');
    expect(slugify('!!!')).toMatch(/^v-[0-9a-f]{8}$/);
  });
});

describe('small formatters', () => {
  it('formats sizes, anchors, shell quoting and truncation', () => {
    expect(formatBytes(95)).toBe('95 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(anchorOf('exec/download-pipe-shell')).toBe('exec-download-pipe-shell');
    expect(anchorOf('--Bidi Override!')).toBe('bidi-override');
    expect(anchorOf('…')).toBe('rule');
    expect(shellQuote(`{"a":"it's"}`)).toBe(`'{"a":"it'\\''s"}'`);
    expect(truncate('alpha beta gamma delta', 15)).toBe('alpha beta…');
    expect(truncate('short', 15)).toBe('short');
  });
});
