/**
 * skill.json parsing: JSON.parse decides validity, every problem carries a line and column, and
 * duplicate and forbidden keys are caught even though JSON.parse would accept them.
 */
import { describe, expect, it } from 'vitest';
import { parseJsonFile } from '../../../src/core/parse/json-file.ts';
import { decodeUtf8, positionAt, sourceFromString } from '../../../src/core/parse/source-text.ts';

const parse = (text: string, maxDepth = 32, prefix?: string) => {
  const source = sourceFromString(text);
  const result = prefix ? parseJsonFile(source, { maxDepth }, prefix) : parseJsonFile(source, { maxDepth });
  const at = (offset: number) => positionAt(source, offset);
  return { ...result, problemsAt: result.problems.map((p) => `${p.rule} ${at(p.offset).line}:${at(p.offset).column}`) };
};

describe('parseJsonFile', () => {
  it('parses a valid file and locates values', () => {
    const r = parse('{\n  "name": "x",\n  "input": {\n    "properties": { "q": { "type": "string" } }\n  },\n  "tags": ["a", "b"]\n}\n');
    expect(r.problems).toEqual([]);
    expect(r.data).toEqual({ name: 'x', input: { properties: { q: { type: 'string' } } }, tags: ['a', 'b'] });
    expect(r.locate(['name'])).toEqual({ line: 2, column: 11 });
    expect(r.locate(['input', 'properties', 'q', 'type'])).toEqual({ line: 4, column: 36 });
    expect(r.locate(['tags', 1])).toEqual({ line: 6, column: 17 });
    expect(r.locate(['input', 'missing'])).toEqual({ line: 3, column: 12 });
  });

  it.each([
    ['a trailing comma', '{\n  "name": "x",\n  "mode": "llm",\n}\n', 'skill-json/syntax 4:1'],
    ['a missing comma', '{\n  "name": "x"\n  "mode": "llm"\n}\n', 'skill-json/syntax 3:3'],
    ['a single-quoted string', "{\n  'name': 'x'\n}\n", 'skill-json/syntax 2:3'],
    ['a comment', '{\n  // note\n  "name": "x"\n}\n', 'skill-json/syntax 2:3'],
    ['a comment before the object', '// note\n{\n  "name": "x"\n}\n', 'skill-json/syntax 1:1'],
    ['a word before the object', 'skill\n{\n  "name": "x"\n}\n', 'skill-json/syntax 1:1'],
    ['an unterminated object', '{\n  "name": "x"', 'skill-json/syntax 2:14'],
    ['an empty file', '', 'skill-json/syntax 1:1'],
  ])('reports %s with line and column', (_what, text, expected) => {
    const r = parse(text);
    expect(r.data).toBeUndefined();
    expect(r.problemsAt).toEqual([expected]);
    expect(r.problems[0]!.message).toMatch(/^invalid JSON: /);
    expect(r.problems[0]!.message).not.toMatch(/position \d+/);
    expect(r.problems[0]!.hint).toBeTruthy();
  });

  it('reports a duplicate key at its second occurrence (JSON.parse would keep the last silently)', () => {
    const r = parse('{\n  "mode": "llm",\n  "name": "x",\n  "mode": "code"\n}\n');
    expect(r.problemsAt).toEqual(['skill-json/syntax 4:3']);
    expect(r.problems[0]!.message).toBe('duplicate key in JSON object');
    expect(r.data).toBeUndefined();
  });

  it('refuses __proto__, constructor and prototype at any depth without polluting Object.prototype', () => {
    const r = parse('{\n  "__proto__": {"polluted": true},\n  "a": [{"constructor": 1}],\n  "b": {"c": {"prototype": 2}}\n}\n');
    expect(r.problemsAt).toEqual(['skill-json/forbidden-key 2:3', 'skill-json/forbidden-key 3:10', 'skill-json/forbidden-key 4:15']);
    expect(r.data).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
  });

  it('caps nesting depth', () => {
    const r = parse('{"a": {"b": {"c": [1]}}}', 3);
    expect(r.problemsAt).toEqual(['skill-json/too-deep 1:20']);
    expect(parse('{"a": {"b": {"c": 1}}}', 3).problems).toEqual([]);
  });

  it('survives very deep nesting without throwing', () => {
    const text = `{"a": ${'['.repeat(50000)}${']'.repeat(50000)}}`;
    const r = parse(text);
    expect(r.problems.map((p) => p.rule)).toEqual(['skill-json/too-deep']);
  });

  it('uses the rule prefix it is given (the config file uses config/…)', () => {
    expect(parse('{,}', 32, 'config').problems[0]!.rule).toBe('config/syntax');
  });

  it('reads a file that starts with a UTF-8 BOM', () => {
    const decoded = decodeUtf8(new TextEncoder().encode('\uFEFF{"name": "x"}'));
    expect(decoded.ok).toBe(true);
    if (decoded.ok) expect(parseJsonFile(decoded.source, { maxDepth: 32 }).data).toEqual({ name: 'x' });
  });
});
