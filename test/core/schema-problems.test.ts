import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv, type AnySchema, type ErrorObject } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { META_SCHEMA_VALIDATORS_FILE, metaSchemaValidatorsModule } from '../../scripts/generate/meta-schema-validators.ts';
import { draft07, draft2020 } from '../../src/core/meta-schema-validators.ts';
import { compileSchema } from '../../src/core/json-schema.ts';
import { schemaProblems } from '../../src/core/schema-problems.ts';

const root = join(import.meta.dirname, '..', '..');
const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

// ajv compiling its meta-schemas at run time, with the options the validator checks schemas
// under: what the validators compiled ahead of time must answer exactly like.
const OPTIONS = { allErrors: true, strict: false, validateFormats: false } as const;
const atRunTime = { draft07: new Ajv(OPTIONS), draft2020: new Ajv2020(OPTIONS) };

/** Schemas that pass and schemas that break each kind of meta-schema rule, in both drafts. */
const SCHEMAS: readonly [string, unknown][] = [
  ['an object with properties', { type: 'object', properties: { q: { type: 'string', minLength: 1 } }, required: ['q'] }],
  ['a misspelt type', { type: 'object', properties: { q: { type: 'strin' } } }],
  ['a type list with a repeat', { type: ['string', 'string'] }],
  ['an enum of equal objects (deep equality)', { enum: [{ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }] }],
  ['an enum of distinct objects', { enum: [{ a: 1 }, { a: 2 }] }],
  ['an empty enum', { enum: [] }],
  ['a negative minLength', { type: 'string', minLength: -1 }],
  ['required that is not a list', { type: 'object', required: 'q' }],
  ['properties that are not schemas', { properties: { q: 3 } }],
  ['nested broken schemas', { items: { properties: { a: { minimum: 'zero' } } }, additionalProperties: { type: 7 } }],
  ['a boolean schema inside', { properties: { a: true, b: false } }],
  ['local definitions', { definitions: { s: { type: 'string' } }, properties: { a: { $ref: '#/definitions/s' } } }],
  ['2020-12: $defs and prefixItems', { $schema: DRAFT_2020, $defs: { s: { type: 'string' } }, prefixItems: [{ $ref: '#/$defs/s' }], items: false }],
  ['2020-12: a broken prefixItems', { $schema: DRAFT_2020, prefixItems: { type: 'string' } }],
  ['2020-12: a broken keyword under $dynamicRef recursion', { $schema: DRAFT_2020, properties: { a: { properties: { b: { maxItems: -2 } } } } }],
  ['2020-12: a misspelt type in dependentSchemas', { $schema: DRAFT_2020, dependentSchemas: { a: { type: 'numbr' } } }],
  ['2020-12: an $anchor outside its grammar', { $schema: DRAFT_2020, $defs: { a: { $anchor: '1-bad anchor' } } }],
  ['2020-12: unevaluatedProperties that is not a schema', { $schema: DRAFT_2020, unevaluatedProperties: 'no' }],
];

describe('the meta-schema validators compiled ahead of time', () => {
  it(`${META_SCHEMA_VALIDATORS_FILE} is what ajv compiles today (run \`npm run schemas\` when this fails)`, async () => {
    expect(await readFile(join(root, META_SCHEMA_VALIDATORS_FILE), 'utf8')).toBe(metaSchemaValidatorsModule());
  });

  it.each(SCHEMAS)('answer %s exactly as ajv compiling the meta-schema at run time', (_, schema) => {
    const is2020 = /2020-12/.test(String((schema as { $schema?: unknown }).$schema));
    const reference = is2020 ? atRunTime.draft2020 : atRunTime.draft07;
    const compiled = (is2020 ? draft2020 : draft07) as ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
    const expected = reference.validateSchema(schema as AnySchema) as boolean;
    expect(compiled(schema)).toBe(expected);
    expect(compiled.errors ?? null).toEqual(reference.errors ?? null);
  });

  it('find the faults the validator reports, and pass the schemas that serve', () => {
    expect(schemaProblems({ type: 'object', properties: { q: { type: 'string' } } })).toEqual([]);
    expect(schemaProblems({ type: 'object', properties: { q: { type: 'strin' } } })).toEqual([
      { rule: 'schema/invalid', path: ['properties', 'q', 'type'], message: '/properties/q/type must be equal to one of the allowed values' },
    ]);
    // Equal members are found by deep equality, which the compiled code imports from ajv's runtime.
    expect(schemaProblems({ enum: [{ a: [1] }, { a: [1] }] })).toEqual([
      { rule: 'schema/invalid', path: ['enum'], message: '/enum must NOT have duplicate items (items ## 0 and 1 are identical)' },
    ]);
    expect(schemaProblems({ $schema: DRAFT_2020, prefixItems: { type: 'string' } }).map((p) => p.path)).toEqual([['prefixItems']]);
    // A string $id is not checked (it is stripped before compiling), in either draft.
    expect(schemaProblems({ $schema: DRAFT_2020, $id: '#not-a-plain-fragment', type: 'string' })).toEqual([]);
  });

  it('accept exactly the $schema values the runtime compiles, and name the near misses', () => {
    for (const id of ['http://json-schema.org/draft-07/schema#', 'http://json-schema.org/draft-07/schema', 'https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2020-12/schema#']) {
      expect(schemaProblems({ $schema: id, type: 'string' })).toEqual([]);
      expect(compileSchema({ $schema: id, type: 'string' })('text')).toBe(true);
    }
    for (const id of ['https://json-schema.org/draft-07/schema#', 'http://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2019-09/schema', 'xhttps://json-schema.org/draft-07/schema/x']) {
      expect(() => compileSchema({ $schema: id, type: 'string' })).toThrow(/no schema with key or ref/);
      expect(schemaProblems({ $schema: id, type: 'string' })).toEqual([
        { rule: 'schema/invalid', path: ['$schema'], message: `unsupported $schema '${id}'; use draft-07 or 2020-12 (http://json-schema.org/draft-07/schema# or https://json-schema.org/draft/2020-12/schema#)` },
      ]);
    }
  });
});
