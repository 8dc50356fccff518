import { describe, expect, it } from 'vitest';
import { assignToolNames, MCP_TOOL_NAME } from '../../src/mcp/tool-names.ts';

describe('assignToolNames', () => {
  it('keeps valid unique names and makes every other name valid, unique and independent of order', () => {
    const keys = ['text_stats', 'unit-converter__convert', 'a.b', 'a_b', 'list_skills', `${'x'.repeat(70)}__run`, 'ü/ß', ''];
    const names = assignToolNames(keys, new Set(['list_skills']));
    expect(names.get('text_stats')).toBe('text_stats');
    expect(names.get('unit-converter__convert')).toBe('unit-converter__convert');
    // 'a.b' and 'a_b' would both be 'a_b': both get a hash, neither wins by position.
    expect(names.get('a.b')).toMatch(/^a_b_[0-9a-f]{8}$/);
    expect(names.get('a_b')).toMatch(/^a_b_[0-9a-f]{8}$/);
    expect(names.get('list_skills')).toMatch(/^list_skills_[0-9a-f]{8}$/);
    expect(names.get(`${'x'.repeat(70)}__run`)).toHaveLength(64);
    const all = [...names.values()];
    for (const name of all) expect(name).toMatch(MCP_TOOL_NAME);
    expect(new Set(all).size).toBe(all.length);
    expect([...assignToolNames([...keys].reverse(), new Set(['list_skills']))].sort()).toEqual([...names].sort());
  });
});
