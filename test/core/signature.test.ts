import { describe, expect, it } from 'vitest';
import { functionSignature, typeExpression } from '../../src/core/signature.ts';

const input = {
  type: 'object',
  required: ['code'],
  properties: {
    code: { type: 'string', description: 'Source code.' },
    language: { type: 'string', enum: ['typescript', 'python', 'go', 'rust', 'java'] },
    severity: { type: 'string', enum: ['all', 'warning', 'error'], default: 'all' },
  },
};
const output = {
  type: 'object',
  required: ['issues', 'passed'],
  properties: {
    issues: { type: 'array', items: { type: 'object', properties: { line: { type: 'integer' }, message: { type: 'string' } } } },
    passed: { type: 'boolean' },
    summary: { type: 'string' },
  },
};

describe('functionSignature', () => {
  it('reads like a function declaration: optional parameters, enums, defaults, the return shape', () => {
    expect(functionSignature('code_review', input, output)).toBe(
      'code_review(code: string, language?: "typescript" | "python" | "go" | "rust" | …, severity?: "all" | "warning" | "error" = "all") → { issues: object[], passed: boolean, summary?: string }',
    );
  });

  it('survives schemas that are not schemas', () => {
    expect(functionSignature('f', undefined, undefined)).toBe('f() → any');
    expect(functionSignature('f', { type: 'object', properties: 'code' }, [1, 2])).toBe('f() → any');
    expect(functionSignature('f', { type: 'object' }, { type: 'array', items: { type: 'string' } })).toBe('f() → string[]');
    expect(typeExpression({ type: 42 })).toBe('any');
    expect(typeExpression({ type: ['string', 7, 'null'] })).toBe('string | null');
  });

  it('is bounded on deep nesting and long unions', () => {
    // A schema of 100k nested arrays or unions is a few megabytes of JSON: it must not overflow the stack.
    let arrays: unknown = { type: 'string' };
    let unions: unknown = { type: 'string' };
    for (let i = 0; i < 100_000; i++) {
      arrays = { type: 'array', items: arrays };
      unions = { anyOf: [unions, { type: 'null' }] };
    }
    expect(typeExpression(arrays)).toBe('…[][][][][][][][][]');
    expect(typeExpression(unions).length).toBeLessThan(200);
    const many = { anyOf: Array.from({ length: 1000 }, (_, i) => ({ const: i })) };
    expect(typeExpression(many)).toBe('0 | 1 | 2 | 3 | …');
  });
});
