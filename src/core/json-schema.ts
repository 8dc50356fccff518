import { Ajv, type AnySchema, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { RE2JS } from 're2js';
import { withoutIds } from './schema-problems.ts';

/**
 * JSON Schemas that arrive as data (a skill's input and output schemas), compiled safely to
 * validate a skill's input and output with. Whether a schema can serve at all is
 * ./schema-problems.ts's question, which the validator asks without loading ajv.
 *
 * - The draft is chosen by `$schema`: one ajv instance cannot mix draft-07 and 2020-12.
 * - No `loadSchema`: a remote `$ref` fails closed.
 * - `pattern` runs on RE2 (linear time): `^(a+)+$` blocked V8 for 8 s on 28 characters.
 * - `$id`s are stripped before compiling: user ids would collide inside a shared instance.
 * - One shared instance per draft: compiling costs ~1 ms there against ~19 ms on a new one.
 */

/** ajv's `code.regExp`: RE2 behind the RegExp-like interface ajv calls. */
const re2RegExp = Object.assign(
  (pattern: string, flags: string) => {
    let f = 0;
    if (flags.includes('i')) f |= RE2JS.CASE_INSENSITIVE;
    const re = RE2JS.compile(pattern, f);
    return { test: (s: string) => re.matcher(s).find() };
  },
  // ajv keys its code cache on the function's source; give it one no other function has.
  { code: 'skilldex-re2js-regexp' },
);
re2RegExp.toString = () => 'skilldex-re2js-regexp';

const OPTIONS = {
  allErrors: true,
  strict: false,
  useDefaults: true,
  validateFormats: false,
  code: { regExp: re2RegExp as never },
} as const;

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

function instanceFor(schema: unknown): Ajv | Ajv2020 {
  const declared = schema && typeof schema === 'object' ? (schema as { $schema?: unknown }).$schema : undefined;
  if (typeof declared === 'string' && /2020-12/.test(declared)) return (draft2020 ??= new Ajv2020(OPTIONS));
  return (draft07 ??= new Ajv(OPTIONS));
}

/**
 * Compiles a schema already known to be valid. Defaults in the schema are applied to the data
 * in place when the returned function runs.
 */
export function compileSchema(schema: object): ValidateFunction {
  const ajv = instanceFor(schema);
  const clean = withoutIds(schema) as AnySchema;
  const validate = ajv.compile(clean);
  // Compiled validators stay usable after removal; dropping them from ajv's cache keeps a
  // 10,000-skill build from holding every schema.
  ajv.removeSchema(clean);
  return validate;
}

/** ajv errors as readable one-liners: `/limit must be <= 50`. */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath || '(root)';
    if (e.keyword === 'required') return `${where} is missing required property '${(e.params as { missingProperty: string }).missingProperty}'`;
    if (e.keyword === 'additionalProperties') return `${where} has unknown property '${(e.params as { additionalProperty: string }).additionalProperty}'`;
    if (e.keyword === 'enum') return `${where} must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
    return `${where} ${e.message ?? 'is invalid'}`;
  });
}

