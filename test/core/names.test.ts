/** Names suggested in hints are valid names, and keep what they can of the one given. */
import { describe, expect, it } from 'vitest';
import { AGENT_SKILL_NAME, FUNCTION_NAME, suggestName } from '../../src/core/names.ts';

describe('suggestName', () => {
  it.each([
    ['ünicode', '-', 'unicode'],
    ['Crème Brûlée', '-', 'creme-brulee'],
    ['My_Skill!!', '-', 'my-skill'],
    ['my--skill', '-', 'my-skill'],
    ['2nd Helper', '_', 'nd_helper'],
    ['Count-Words', '_', 'count_words'],
    // Cyrillic о and а, Greek ο: the Latin letters they are drawn like.
    ['g\u043e\u043ed-one', '-', 'good-one'],
    ['\u0430pi-t\u03bfols', '-', 'api-tools'],
  ] as const)('%s → %s', (raw, separator, expected) => {
    const suggested = suggestName(raw, separator);
    expect(suggested).toBe(expected);
    expect(suggested).toMatch(separator === '-' ? AGENT_SKILL_NAME : FUNCTION_NAME);
  });

  it('suggests nothing when nothing of the name can be kept', () => {
    expect(suggestName('代码', '-')).toBe('');
    expect(suggestName('!!!', '_')).toBe('');
  });
});
