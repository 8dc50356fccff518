import { describe, expect, it } from 'vitest';
import { atxHeading } from '../../../src/core/parse/atx-heading.ts';

describe('atxHeading', () => {
  it.each([
    ['# Title', 1, 'Title'],
    ['# Title ##  ', 1, 'Title'],
    ['## [1.0.0] - 2026-01-01', 2, '[1.0.0] - 2026-01-01'],
    ['   ### x', 3, 'x'],
    ['#\tTab\t#\t', 1, 'Tab'],
    ['# C#', 1, 'C#'],
    ['# a # b', 1, 'a # b'],
    ['#', 1, ''],
  ] as const)('%j is a level %i heading reading %j', (line, level, text) => {
    expect(atxHeading(line)).toEqual({ level, text });
  });

  it.each(['#hashtag', '    # indented code', '####### seven', 'Title', ''])('%j is no heading', (line) => {
    expect(atxHeading(line)).toBeUndefined();
  });

  it('reads a heading line of a million spaces at once (a backtracking pattern took minutes)', () => {
    const started = performance.now();
    expect(atxHeading(`# a${' '.repeat(1_000_000)}b`)?.text).toBe(`a${' '.repeat(1_000_000)}b`);
    expect(atxHeading(`## 1.0.0${' '.repeat(1_000_000)}#${' '.repeat(1_000_000)}`)).toEqual({ level: 2, text: '1.0.0' });
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
