import { describe, expect, it } from 'vitest';
import { isTruthy, parseTemplate, renderTemplate } from '../../src/core/template.ts';
import { TemplateError } from '../../src/core/errors/template-error.ts';

const scope = {
  input: { topic: 'rust', tags: ['a', 'b'], empty: [], zero: 0, name: '  Mixed Case  ' },
  steps: {
    search: { results: [{ snippet: 'one', score: 1, meta: { path: 'x.md' } }, { snippet: 'two', score: 2, meta: { path: 'y.md' } }] },
    summarize: { summary: 'short' },
  },
};

describe('parseTemplate', () => {
  it('lists references with their offsets', () => {
    expect(parseTemplate("{{steps.search.results | map: snippet | join: ', '}}")).toEqual({
      ok: true,
      refs: [{ root: 'steps', path: ['search', 'results'], offset: 2 }],
    });
    expect(parseTemplate('Topic: {{ input.topic }} and {{steps.s.items[0].name}}')).toEqual({
      ok: true,
      refs: [
        { root: 'input', path: ['topic'], offset: 10 },
        { root: 'steps', path: ['s', 'items', '0', 'name'], offset: 31 },
      ],
    });
    expect(parseTemplate('no templates here')).toEqual({ ok: true, refs: [] });
  });

  it('reports the first syntax error with its offset', () => {
    expect(parseTemplate('{{input.x | shout}}')).toEqual({ ok: false, error: { offset: 12, message: expect.stringContaining('unknown filter "shout"') } });
    expect(parseTemplate('abc {{input.x')).toEqual({ ok: false, error: { offset: 4, message: expect.stringContaining('unclosed') } });
    expect(parseTemplate('{{ }}')).toMatchObject({ ok: false, error: { offset: 3 } });
    expect(parseTemplate('{{input.x | map}}')).toMatchObject({ ok: false, error: { message: expect.stringContaining('needs an argument') } });
    expect(parseTemplate('{{input.x | upper: 1}}')).toMatchObject({ ok: false, error: { message: expect.stringContaining('takes no argument') } });
    expect(parseTemplate("{{input.x | join: 'abc}}")).toMatchObject({ ok: false, error: { offset: 18, message: 'unterminated string' } });
    expect(parseTemplate('{{input.x input.y}}')).toMatchObject({ ok: false, error: { offset: 10 } });
  });
});

describe('renderTemplate', () => {
  it('keeps raw values for a lone expression and builds text otherwise', () => {
    expect(renderTemplate('{{steps.search.results | map: snippet}}', scope)).toEqual(['one', 'two']);
    expect(renderTemplate('{{input.zero}}', scope)).toBe(0);
    expect(renderTemplate('n={{input.zero}} tags={{input.tags}}', scope)).toBe('n=0 tags=["a","b"]');
    expect(renderTemplate('missing: [{{input.nope}}]', scope)).toBe('missing: []');
  });

  it('keeps a key named __proto__ (from a parsed manifest) as a key of the rendered object, not its prototype', () => {
    const mapping = JSON.parse('{"__proto__": {"polluted": "{{input.zero}}"}, "plain": "{{input.zero}}"}') as Record<string, unknown>;
    const rendered = renderTemplate(mapping, scope) as Record<string, unknown>;
    expect(Object.getPrototypeOf(rendered)).toBe(Object.prototype);
    expect(Object.keys(rendered)).toEqual(['__proto__', 'plain']);
    expect(JSON.stringify(rendered)).toBe('{"__proto__":{"polluted":0},"plain":0}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('applies every filter', () => {
    expect(renderTemplate("{{steps.search.results | map: snippet | join: '\\n\\n'}}", scope)).toBe('one\n\ntwo');
    expect(renderTemplate('{{steps.search.results | map: meta.path | join}}', scope)).toBe('x.md, y.md');
    expect(renderTemplate("{{input.nope | default: 'fallback'}}", scope)).toBe('fallback');
    expect(renderTemplate('{{input.nope | default: 3}}', scope)).toBe(3);
    expect(renderTemplate('{{steps.search.results | first}}', scope)).toEqual(scope.steps.search.results[0]);
    expect(renderTemplate('{{steps.search.results | last | json}}', scope)).toBe(JSON.stringify(scope.steps.search.results[1]));
    expect(renderTemplate('{{steps.search.results | length}}', scope)).toBe(2);
    expect(renderTemplate('{{input.name | trim | upper}}', scope)).toBe('MIXED CASE');
    expect(renderTemplate('{{input.name | lower | trim}}', scope)).toBe('mixed case');
  });

  it('renders deeply and leaves non-strings alone', () => {
    expect(renderTemplate({ query: '{{input.topic}}', limit: 10, nested: [{ t: '{{input.tags | first}}' }], flag: true }, scope)).toEqual({
      query: 'rust',
      limit: 10,
      nested: [{ t: 'a' }],
      flag: true,
    });
  });

  it('never reaches inherited properties', () => {
    expect(renderTemplate('{{input.constructor}}', scope)).toBeUndefined();
    expect(renderTemplate('{{input.__proto__}}', scope)).toBeUndefined();
    expect(renderTemplate('{{steps.search.results.map}}', scope)).toBeUndefined();
  });

  it('throws TemplateError for a bad template', () => {
    expect(() => renderTemplate({ a: '{{input.x | nope}}' }, scope)).toThrow(TemplateError);
  });
});

describe('isTruthy', () => {
  it('treats empty, zero, false, null, undefined and [] as false', () => {
    for (const value of ['', false, 0, null, undefined, []]) expect(isTruthy(value)).toBe(false);
    for (const value of ['x', true, 1, [0], {}, 'false']) expect(isTruthy(value)).toBe(true);
  });
});
