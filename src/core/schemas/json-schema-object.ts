import { z } from 'zod';

/**
 * A skill's input or output schema. JSON Schema objects arrive as data, so ajv checks them,
 * not zod: here they are only "an object".
 */
export const JsonSchemaObject = z.record(z.string(), z.unknown()).meta({ description: 'A JSON Schema (draft-07 or 2020-12, chosen by $schema).' });
