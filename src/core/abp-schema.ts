/**
 * ABP tool declarations (the extended package's `abp.tools`) as JSON Schema, so a tool call's
 * arguments are checked by the same validator as every skill input. Pure and browser-safe.
 */

/** A tool as the package declares it (the `AbpTool` schema in schemas/skill-md.ts). */
export interface AbpToolDeclaration {
  name: string;
  description?: string;
  parameters?: Record<string, { type?: string; description?: string; required?: boolean; default?: unknown; [key: string]: unknown }>;
  returns?: { type?: string; description?: string };
}

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
/** Names other tool formats use for the JSON types. */
const TYPE_ALIASES: Readonly<Record<string, string>> = { int: 'integer', float: 'number', double: 'number', bool: 'boolean', list: 'array', dict: 'object', map: 'object', str: 'string' };

/** The JSON Schema type an ABP `type` names, or undefined for one it does not (then any value is accepted). */
function jsonType(type: string | undefined): string | undefined {
  if (type === undefined) return undefined;
  const lower = type.trim().toLowerCase();
  return JSON_TYPES.has(lower) ? lower : TYPE_ALIASES[lower];
}

/**
 * The JSON Schema of a tool's arguments: one property per parameter with its type, description and
 * default; `required: true` parameters are required; any other argument is refused
 * (`additionalProperties: false`), since a misspelt argument would otherwise be silently dropped.
 *
 * @example
 * abpParametersSchema({ name: 'getWeather', parameters: { location: { type: 'string', required: true } } });
 * // { type: 'object', properties: { location: { type: 'string' } }, required: ['location'], additionalProperties: false }
 */
export function abpParametersSchema(tool: AbpToolDeclaration): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, spec] of Object.entries(tool.parameters ?? {})) {
    const type = jsonType(spec.type);
    Object.defineProperty(properties, name, {
      value: { ...(type ? { type } : {}), ...(spec.description ? { description: spec.description } : {}), ...(spec.default !== undefined ? { default: spec.default } : {}) },
      enumerable: true,
      writable: true,
      configurable: true,
    });
    if (spec.required === true) required.push(name);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/** The JSON Schema of a tool's result (`returns`), or undefined when it declares no known type. */
export function abpReturnsSchema(tool: AbpToolDeclaration): Record<string, unknown> | undefined {
  const type = jsonType(tool.returns?.type);
  return type ? { type } : undefined;
}

/**
 * A one-line signature of a tool, as `info` and the skill page show it.
 *
 * @example
 * abpToolSignature(tool); // 'addDays(date: string, days: integer, businessDays?: boolean) → object'
 */
export const abpToolSignature = (tool: AbpToolDeclaration): string =>
  `${tool.name}(${Object.entries(tool.parameters ?? {}).map(([name, spec]) => `${name}${spec.required ? '' : '?'}: ${spec.type ?? 'any'}`).join(', ')})${tool.returns?.type ? ` → ${tool.returns.type}` : ''}`;
