import { describe, expect, it } from 'vitest';
import { exampleValue, schemaRows, typeLabel } from '../../src/site/catalog/json-schema-view.ts';

const input = {
  type: 'object',
  required: ['code'],
  properties: {
    severity: { type: 'string', enum: ['all', 'warning', 'error'], default: 'all' },
    language: { type: 'string', enum: ['typescript', 'python', 'go', 'rust'] },
    code: { type: 'string', description: 'Source code.' },
  },
};
const output = {
  type: 'object',
  required: ['issues', 'passed', 'summary'],
  properties: {
    issues: { type: 'array', items: { type: 'object', properties: { line: { type: 'integer' }, message: { type: 'string' } } } },
    passed: { type: 'boolean' },
    summary: { type: 'string' },
  },
};

describe('schemaRows', () => {
  it('flattens nested properties and array items in order', () => {
    const rows = schemaRows(output);
    expect(rows.map((r) => [r.path, r.depth, r.type, r.required])).toEqual([
      ['issues', 0, 'object[]', true],
      ['issues[].line', 1, 'integer', false],
      ['issues[].message', 1, 'string', false],
      ['passed', 0, 'boolean', true],
      ['summary', 0, 'string', true],
    ]);
  });

  it('reports enum, default and description', () => {
    const severity = schemaRows(input).find((r) => r.name === 'severity')!;
    expect(severity.enumValues).toEqual(['"all"', '"warning"', '"error"']);
    expect(severity.defaultValue).toBe('"all"');
  });

  it('is bounded on deep and cyclic-looking schemas', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 50; i++) deep = { type: 'object', properties: { x: deep } };
    expect(schemaRows(deep).length).toBeLessThan(20);
    expect(typeLabel({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe('string | null');
  });
});

describe('exampleValue', () => {
  it('fills required properties with defaults, enums or typed placeholders', () => {
    expect(exampleValue(input)).toEqual({ code: 'example' });
    expect(exampleValue({ type: 'object', required: ['n', 'tags'], properties: { n: { type: 'integer', minimum: 3 }, tags: { type: 'array', items: { type: 'string', enum: ['a'] } } } })).toEqual({ n: 3, tags: ['a'] });
    // Nothing required: the properties with a default or enum, else only the first one.
    expect(exampleValue({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string', default: 'x' } } })).toEqual({ b: 'x' });
    expect(exampleValue({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } })).toEqual({ a: 'example' });
    expect(exampleValue({ type: 'object', properties: { q: { type: 'string', examples: ['hello'] } }, required: ['q'] })).toEqual({ q: 'hello' });
  });
});
