import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/core/tokens.ts';

describe('estimateTokens', () => {
  it('counts about four characters a token for English and one a character for Chinese and Japanese', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('Review the diff.')).toBe(4);
    expect(estimateTokens('校对文字')).toBe(4);
    expect(estimateTokens('メールを書く')).toBe(6);
  });

  it('sees a 2 MB body written on one line as far over the 5,000-token guidance', () => {
    expect(estimateTokens('a'.repeat(2 * 1024 * 1024))).toBe(524_288);
  });
});
