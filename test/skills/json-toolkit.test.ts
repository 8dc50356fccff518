import { describe, expect, it } from 'vitest';
import { ok, runScript } from './_protocol.ts';

const SCRIPT = 'data/json-toolkit/scripts/json_tool.py';
const run = (req: unknown, env?: Record<string, string>) => runScript('python3', SCRIPT, req, env);

describe('json-toolkit (python3, seed 004)', () => {
  it('validate: accepts well-formed JSON and reports its type', () => {
    const data = ok(run({ action: 'validate', params: { text: '{"a": [1, 2]}' } }), 'validate');
    expect(data).toEqual({ valid: true, type: 'object', schemaErrors: [] });
  });

  it('validate: a syntax error is a result with line and column, not a failure', () => {
    const data = ok(run({ action: 'validate', params: { text: '{\n  "a": 1,\n}' } }), 'validate');
    expect(data.valid).toBe(false);
    expect(data.syntaxError).toMatchObject({ line: 3, column: 1 });
  });

  it('validate: checks a schema and points at each violation', () => {
    const schema = {
      type: 'object',
      required: ['name', 'age'],
      additionalProperties: false,
      properties: { name: { type: 'string', minLength: 2 }, age: { type: 'integer', minimum: 0 }, tags: { type: 'array', items: { enum: ['a', 'b'] } } },
    };
    const data = ok(run({ action: 'validate', params: { text: '{"name":"X","age":-1,"tags":["a","z"],"extra":true}', schema } }), 'validate');
    expect(data.valid).toBe(false);
    expect(data.schemaErrors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/name', keyword: 'minLength' }),
        expect.objectContaining({ path: '/age', keyword: 'minimum' }),
        expect.objectContaining({ path: '/tags/1', keyword: 'enum' }),
        expect.objectContaining({ path: '', keyword: 'additionalProperties' }),
      ]),
    );
    expect(data.schemaErrors).toHaveLength(4);
  });

  it('format: indents, sorts keys, keeps non-ASCII, and compacts', () => {
    expect(ok(run({ action: 'format', params: { text: '{"b":1,"a":{"z":"中文"}}', sort_keys: true, indent: 2 } }), 'format').text).toBe(
      '{\n  "a": {\n    "z": "中文"\n  },\n  "b": 1\n}',
    );
    expect(ok(run({ action: 'format', params: { value: { b: [1, 2], a: null }, compact: true } }), 'format').text).toBe('{"b":[1,2],"a":null}');
  });

  it('format: unparseable text is INVALID_PARAM with the position', () => {
    const r = run({ action: 'format', params: { text: '[1, 2' } });
    expect(r.envelope).toMatchObject({ success: false, action: 'format', error: { code: 'INVALID_PARAM' } });
    expect(r.envelope.error.details).toMatchObject({ param: 'text', line: 1 });
  });

  it('query: dotted paths, brackets, negative indexes, quoted keys', () => {
    const data = { users: [{ name: 'Ada', langs: ['en', 'fr'] }, { name: 'Lin' }], 'a.b': { c: 3 } };
    expect(ok(run({ action: 'query', params: { data, path: 'users[0].langs[-1]' } }), 'query')).toEqual({
      path: 'users[0].langs[-1]',
      pointer: '/users/0/langs/1',
      value: 'fr',
      type: 'string',
    });
    expect(ok(run({ action: 'query', params: { data, path: 'users.1.name' } }), 'query').value).toBe('Lin');
    expect(ok(run({ action: 'query', params: { data, path: '["a.b"].c' } }), 'query').value).toBe(3);
    expect(ok(run({ action: 'query', params: { text: '{"x":{"y":[true]}}', path: '$.x.y[0]' } }), 'query').value).toBe(true);
    expect(ok(run({ action: 'query', params: { data, path: '' } }), 'query').value).toEqual(data);
  });

  it('query: a missing key is DATA_NOT_FOUND naming where the walk stopped', () => {
    const r = run({ action: 'query', params: { data: { a: { b: 1 } }, path: 'a.c.d' } });
    expect(r.envelope).toMatchObject({ success: false, action: 'query', error: { code: 'DATA_NOT_FOUND', details: { missingAt: '/a/c', available: ['b'] } } });
    expect(r.status).toBe(0);
  });

  it('diff: lists add/remove/replace with JSON Pointers', () => {
    const data = ok(
      run({ action: 'diff', params: { left: { a: 1, b: [1, 2], c: true, 'x/y': 0 }, right: { a: 1.0, b: [1], c: 1, d: null, 'x/y': 1 } } }),
      'diff',
    );
    expect(data.equal).toBe(false);
    expect(data.changes).toEqual([
      { op: 'remove', path: '/b/1', old: 2 },
      { op: 'replace', path: '/c', old: true, new: 1 },
      { op: 'replace', path: '/x~1y', old: 0, new: 1 },
      { op: 'add', path: '/d', new: null },
    ]);
    expect(data.summary).toEqual({ add: 1, remove: 1, replace: 2 });
    expect(ok(run({ action: 'diff', params: { left_text: '[1,{"a":2}]', right_text: '[1, {"a": 2}]' } }), 'diff')).toMatchObject({ equal: true, changes: [] });
  });

  it('unknown action → UNKNOWN_ACTION with the supported list', () => {
    const r = run({ action: 'transmogrify', params: {} });
    expect(r.envelope).toMatchObject({ success: false, action: 'transmogrify', error: { code: 'UNKNOWN_ACTION' } });
    expect(r.envelope.error.details.supported_actions).toEqual(['validate', 'format', 'query', 'diff']);
  });

  it('missing params → MISSING_PARAM', () => {
    expect(run({ action: 'validate', params: {} }).envelope).toMatchObject({ success: false, error: { code: 'MISSING_PARAM', details: { param: 'text' } } });
    expect(run({ action: 'query', params: { data: {} } }).envelope.error).toMatchObject({ code: 'MISSING_PARAM', details: { param: 'path' } });
    expect(run({ action: 'diff', params: { left: 1 } }).envelope.error).toMatchObject({ code: 'MISSING_PARAM', details: { param: 'right' } });
    const noAction = run({ params: {} });
    expect(noAction.envelope).toMatchObject({ success: false, error: { code: 'MISSING_PARAM' } });
    expect(noAction.envelope).not.toHaveProperty('action');
  });

  it('invalid JSON on stdin → INVALID_JSON and exit status 1', () => {
    const r = run('{"action": "validate",');
    expect(r.envelope).toMatchObject({ success: false, error: { code: 'INVALID_JSON' } });
    expect(r.status).toBe(1);
    expect(run('[1, 2]').envelope.error.code).toBe('INVALID_JSON');
  });

  it('keeps stdout for the envelope; SKILL_DEBUG=1 adds request logging on stderr', () => {
    const quiet = run({ action: 'validate', params: { text: '1' } });
    const loud = run({ action: 'validate', params: { text: '1' } }, { SKILL_DEBUG: '1' });
    expect(quiet.stderr).not.toContain('debug');
    expect(loud.stderr).toContain('debug: request');
    expect(loud.envelope).toEqual(quiet.envelope);
  });
});
