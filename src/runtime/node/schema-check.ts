import type { ValidateFunction } from 'ajv';
import { compileSchema, describeErrors } from '../../core/json-schema.ts';
import type { ProtocolError } from '../../core/schemas/outcome.ts';
import { MAX_JSON_DEPTH, valueDepthExceeds } from '../../core/json-depth.ts';

/**
 * Validates skill input and output against the skill's own JSON Schemas (ajv, draft chosen by
 * `$schema`, defaults applied, no remote refs, RE2 patterns — see core/json-schema.ts). Compiled
 * validators are kept per schema text, so a skill run many times compiles once.
 */
const compiled = new Map<string, ValidateFunction>();
const MAX_COMPILED = 500;

/**
 * The compiled schema, or why the skill's schema cannot be used. A registry's manifest is not
 * trusted: a schema that does not compile (one a forged registry wrote, or a `maximum: null` left
 * where YAML's .inf met JSON) fails the run as a manifest that fails its checks does, never as an
 * exception.
 */
function validatorFor(schema: Record<string, unknown>, which: 'input' | 'output'): ValidateFunction | ProtocolError {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    try {
      validate = compileSchema(schema);
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);
      return { code: 'VERIFICATION_FAILED', message: `the skill's ${which} schema is not a usable JSON Schema (${reason})`, details: { hint: 'the registry published a schema the client cannot compile; report it to the registry' } };
    }
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, validate);
  }
  return validate;
}

export type SchemaCheck = { ok: true; value: unknown } | { ok: false; error: ProtocolError };

/**
 * Checks a skill's input. Defaults from the schema are filled into a copy, which is returned.
 * A missing required property is `MISSING_PARAM`; any other mismatch is `INVALID_PARAM`.
 *
 * @example
 * checkInput({ type: 'object', properties: { limit: { type: 'number', default: 5 } } }, {});
 * // { ok: true, value: { limit: 5 } }
 */
export function checkInput(schema: Record<string, unknown> | undefined, input: unknown): SchemaCheck {
  // The copy below and the validator recurse per level: input nested some thousands deep overflowed
  // the stack and threw out of run(), which answers every failure with an outcome.
  if (valueDepthExceeds(input, MAX_JSON_DEPTH)) return { ok: false, error: { code: 'INVALID_PARAM', message: `input nests deeper than ${MAX_JSON_DEPTH} levels` } };
  const value = structuredClone(input ?? {});
  if (!schema) return { ok: true, value };
  const validate = validatorFor(schema, 'input');
  if (typeof validate !== 'function') return { ok: false, error: validate };
  if (validate(value)) return { ok: true, value };
  const errors = validate.errors ?? [];
  const missing = errors.some((e) => e.keyword === 'required');
  const messages = describeErrors(errors);
  return {
    ok: false,
    error: { code: missing ? 'MISSING_PARAM' : 'INVALID_PARAM', message: `input does not match the skill's input schema: ${messages.join('; ')}`, details: { errors: messages } },
  };
}

/** Checks a skill's result against its output schema: `INVALID_OUTPUT` when it does not match. */
export function checkOutput(schema: Record<string, unknown> | undefined, output: unknown): SchemaCheck {
  if (!schema) return { ok: true, value: output };
  const validate = validatorFor(schema, 'output');
  if (typeof validate !== 'function') return { ok: false, error: validate };
  // Validate a copy: useDefaults would otherwise change the skill's real output.
  if (validate(structuredClone(output))) return { ok: true, value: output };
  const messages = describeErrors(validate.errors);
  return { ok: false, error: { code: 'INVALID_OUTPUT', message: `output does not match the skill's output schema: ${messages.join('; ')}`, details: { errors: messages } } };
}
