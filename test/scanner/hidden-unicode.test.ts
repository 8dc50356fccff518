/**
 * One hidden-character set: the regex that finds candidates fast and the predicates that
 * classify them agree on every code point, and the validator's file rules and the scanner's
 * unicode rules both read the same runs.
 */
import { describe, expect, it } from 'vitest';
import { classifyHidden, HIDDEN_CANDIDATE, hiddenCharacterRuns } from '../../src/scanner/rules/hidden-unicode.ts';

describe('hidden characters', () => {
  it('the candidate regex matches exactly the classified code points', () => {
    const disagree: string[] = [];
    const re = new RegExp(HIDDEN_CANDIDATE.source, 'u');
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (re.test(String.fromCodePoint(cp)) !== (classifyHidden(cp) !== undefined)) disagree.push(cp.toString(16));
    }
    expect(disagree).toEqual([]);
  });

  it('finds runs after long plain text and across astral characters', () => {
    const text = `${'a'.repeat(10_000)}😀x\u200B\u200By\u202Ez\u{E0041}\u{E0042}`;
    expect([...hiddenCharacterRuns(text)].map((r) => `${r.cls}@${r.offset}+${r.length}`)).toEqual(['zw@10003+2', 'bidi@10006+1', 'tag@10008+2']);
  });
});
