import { schemaProblems } from '../../core/json-schema.ts';
import type { ReportAt } from './catalog.ts';

/** Checks a skill's input or output schema and reports each problem at its own position. */
export function checkSchemaField(
  schema: unknown,
  path: (string | number)[],
  report: ReportAt,
): void {
  const hints: Record<string, string> = {
    'schema/invalid': 'fix the schema; see https://json-schema.org/understanding-json-schema/',
    'schema/remote-ref': 'inline the referenced schema under `definitions` and use a local `#/definitions/…` $ref',
    'schema/unsafe-pattern': 'rewrite the pattern without backreferences or lookaround (RE2 syntax)',
  };
  for (const problem of schemaProblems(schema)) {
    report(problem.rule, [...path, ...problem.path], `${path.join('.')}: ${problem.message}`, hints[problem.rule]);
  }
}
