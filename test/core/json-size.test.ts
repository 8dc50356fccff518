import { describe, expect, it } from 'vitest';
import { valueSizeExceeds } from '../../src/core/json-depth.ts';

describe('valueSizeExceeds', () => {
  it("counts a value's JSON text as JSON.stringify writes it, without writing it", () => {
    for (const value of [{ a: [1, 'two', null, true, { b: [] }] }, ['x'.repeat(100)], 12345, 'plain', { nested: { deeper: { list: [1.5, -2, 'é'] } } }]) {
      const length = JSON.stringify(value).length;
      expect(valueSizeExceeds(value, length), JSON.stringify(value)).toBe(false);
      expect(valueSizeExceeds(value, length - 1), JSON.stringify(value)).toBe(true);
    }
  });

  it('counts a shared value every time it appears, and stops once past the limit', () => {
    const big = 'x'.repeat(1_000_000);
    // 4,000 references to one string: 4 GB of text, more than a string may hold.
    const repeated = Array.from({ length: 4000 }, () => big);
    expect(valueSizeExceeds(repeated, 10 * 1024 * 1024)).toBe(true);
    expect(valueSizeExceeds([big, big], 2_000_010)).toBe(false);
  });
});
