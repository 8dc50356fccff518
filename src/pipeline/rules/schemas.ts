import type { SchemaProblem } from '../../core/schema-problems.ts';
import { defineRule } from './rule.ts';

/**
 * The rules for the JSON Schemas a skill declares for its input and output. The engine checks
 * each schema once (src/core/schema-problems.ts: ajv's compiled meta-schemas for validity, RE2 for patterns) and hands every
 * rule the problems; each reports its own, at the problem's place inside the schema.
 */
const schemaRule = <const Id extends SchemaProblem['rule']>(meta: { id: Id; description: string; hint: string }) =>
  defineRule({
    ...meta,
    severity: 'error',
    scope: 'declaration',
    check({ schemas }, report) {
      for (const { field, problems } of schemas) {
        for (const problem of problems) if (problem.rule === meta.id) report([...field, ...problem.path], `${field.join('.')}: ${problem.message}`);
      }
    },
  });

export const schemaInvalid = schemaRule({
  id: 'schema/invalid',
  description: 'An input/output schema is not a valid JSON Schema.',
  hint: 'fix the schema; see https://json-schema.org/understanding-json-schema/',
});

export const schemaRemoteRef = schemaRule({
  id: 'schema/remote-ref',
  description: 'Schemas may not `$ref` remote documents.',
  hint: 'inline the referenced schema under `definitions` and use a local `#/definitions/…` $ref',
});

export const schemaUnsafePattern = schemaRule({
  id: 'schema/unsafe-pattern',
  description: 'A `pattern` is not a valid RE2 expression (catastrophic-backtracking guard).',
  hint: 'rewrite the pattern without backreferences or lookaround (RE2 syntax)',
});
