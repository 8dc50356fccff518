import { describe, expect, it } from 'vitest';
import { docsExample, runExampleOf } from '../../src/site/catalog/run-example.ts';

const csvSchema = {
  type: 'object',
  required: ['csv'],
  properties: {
    csv: { type: 'string', description: 'The CSV text.' },
    hasHeader: { type: 'boolean', default: true },
  },
};

describe('runExampleOf', () => {
  it("prefers the schema's own examples over the docs and the generator", () => {
    const schema = { ...csvSchema, examples: [{ csv: 'a,b\n1,2\n' }] };
    expect(runExampleOf(schema, '```json\n{"csv":"from docs"}\n```').input).toEqual({ csv: 'a,b\n1,2\n' });
    const withProperty = { ...csvSchema, properties: { ...csvSchema.properties, csv: { type: 'string', examples: ['x,y\n'] } } };
    expect(runExampleOf(withProperty, '```json\n{"csv":"from docs"}\n```').input).toEqual({ csv: 'x,y\n' });
  });

  it('uses a JSON block from the docs when the required inputs have no example, not the placeholder', () => {
    const docs = ['# CSV', '', 'Output:', '```json', '{"rowCount": 2}', '```', '', 'Input:', '```json', '{"csv": "name,age\\nAda,36\\n", "hasHeader": true}', '```'].join('\n');
    expect(runExampleOf(csvSchema, docs).input).toEqual({ csv: 'name,age\nAda,36\n', hasHeader: true });
  });

  it('falls back to a generated value when the docs hold nothing that fits', () => {
    expect(runExampleOf(csvSchema, '```json\n{"other": 1}\n```\n```json\nnot json\n```').input).toEqual({ csv: 'example' });
    expect(runExampleOf(csvSchema, undefined).input).toEqual({ csv: 'example' });
  });

  it('skips blocks missing a required input and ignores non-json fences', () => {
    expect(docsExample(csvSchema, '```json\n{"hasHeader": false}\n```')).toBeUndefined();
    expect(docsExample(csvSchema, '```js\n{"csv": "a"}\n```')).toBeUndefined();
    expect(docsExample(csvSchema, '~~~json\n{"csv": "a"}\n~~~')).toEqual({ csv: 'a' });
    // A fence closes only with the same character, at least as long, and nothing after but spaces.
    expect(docsExample(csvSchema, '````json\n{"csv": "a"}\n```\n````\n')).toBeUndefined();
    expect(docsExample(csvSchema, '```json\n{"csv": "b"}\n``` x\n```\n')).toBeUndefined();
    expect(docsExample(csvSchema, '```JSON\n{"csv": "c"}\n```  \n')).toEqual({ csv: 'c' });
  });

  it('reads 200 kB of json fences that never close at once (one pattern over the text took minutes)', () => {
    const started = performance.now();
    expect(docsExample(csvSchema, '```json\n'.repeat(25_000))).toBeUndefined();
    expect(docsExample(csvSchema, `${'```json\n{}\n'.repeat(10_000)}`)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('says when the input was made up from the types rather than given by the author', () => {
    expect(runExampleOf(csvSchema, undefined).placeholder).toBe(true);
    expect(runExampleOf(csvSchema, '```json\n{"csv": "a,b"}\n```').placeholder).toBe(false);
    expect(runExampleOf({ ...csvSchema, examples: [{ csv: 'a' }] }, undefined).placeholder).toBe(false);
  });
});
