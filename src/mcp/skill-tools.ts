import type { SkillManifest } from '../core/schemas/manifest.ts';
import { assignToolNames } from './tool-names.ts';

type JsonSchema = Record<string, unknown>;

/** One typed skill entry point offered as an MCP tool of its own (`--expose-skills`). */
export interface SkillTool {
  /** The MCP tool name: valid, unique, stable (see `assignToolNames`). */
  name: string;
  description: string;
  /** Always `type: object`, as MCP requires. */
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  /** How a call becomes a run. */
  call: SkillToolCall;
}

export interface SkillToolCall {
  skill: string;
  /** The protocol action to send. */
  action?: string;
  /** The ABP tool to name in the input (`{tool, ...arguments}`). */
  abpTool?: string;
  /** The skill's input schema is not an object: the MCP arguments carry it as `input`. */
  wrapInput: boolean;
  /** The skill's output schema is not an object: structured content carries it as `result`. */
  wrapOutput: boolean;
}

const ANY_OBJECT: JsonSchema = { type: 'object' };
const MAX_DESCRIPTION = 1024;

const isObjectSchema = (schema: unknown): schema is JsonSchema =>
  typeof schema === 'object' && schema !== null && !Array.isArray(schema) && (schema as JsonSchema).type === 'object';

/**
 * A registry's schema without `$schema`: clients validate with their own JSON Schema dialect
 * (the SDK's is draft-07), and an unknown `$schema` URI makes validation fail outright.
 */
const withoutDialect = (schema: JsonSchema): JsonSchema => {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
};

function inputFor(schema: unknown): { inputSchema: JsonSchema; wrapInput: boolean } {
  if (schema === undefined) return { inputSchema: ANY_OBJECT, wrapInput: false };
  if (isObjectSchema(schema)) return { inputSchema: withoutDialect(schema), wrapInput: false };
  return { inputSchema: { type: 'object', properties: { input: withoutDialect(schema as JsonSchema) }, required: ['input'] }, wrapInput: true };
}

function outputFor(schema: unknown): { outputSchema: JsonSchema; wrapOutput: boolean } {
  if (isObjectSchema(schema)) return { outputSchema: withoutDialect(schema), wrapOutput: false };
  return { outputSchema: { type: 'object', properties: { result: schema === undefined ? {} : withoutDialect(schema as JsonSchema) }, required: ['result'] }, wrapOutput: true };
}

/** ABP parameters (`{name: {type, description, required, default}}`) as a JSON Schema object. */
function abpInputSchema(parameters: Record<string, Record<string, unknown>> | undefined): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, { required: isRequired, ...rest }] of Object.entries(parameters ?? {})) {
    properties[name] = rest;
    if (isRequired === true) required.push(name);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

const describe = (text: string | undefined, fallback: string, where: string): string => `${(text || fallback).slice(0, MAX_DESCRIPTION)} (${where})`;

interface Candidate extends Omit<SkillTool, 'name'> {
  key: string;
}

/** The entry points of one skill: its ABP tools, else its protocol actions, else the skill itself. */
function candidates(manifest: SkillManifest): Candidate[] {
  if (manifest.mode === 'instructions') return [];
  const name = manifest.name;
  const abpTools = manifest.abp?.tools ?? [];
  if (abpTools.length > 0) {
    const output = outputFor(manifest.outputSchema);
    return abpTools.map((tool) => ({
      key: `${name}__${tool.name}`,
      description: describe(tool.description, manifest.description, `skill ${name}, tool ${tool.name}`),
      inputSchema: abpInputSchema(tool.parameters as Record<string, Record<string, unknown>> | undefined),
      ...output,
      call: { skill: name, abpTool: tool.name, wrapInput: false, wrapOutput: output.wrapOutput },
    }));
  }
  const properties = (manifest.inputSchema?.properties ?? {}) as Record<string, unknown>;
  const actions = manifest.entry?.runner === 'protocol' ? (manifest.actions ?? []) : [];
  if (actions.length > 0) {
    // A protocol skill may describe the whole request ({action, params}); the tool takes the params.
    const input = inputFor(properties.action ? (properties.params ?? undefined) : manifest.inputSchema);
    // … and the whole envelope ({success, data}); then only `data` is known to be the output.
    const outputProperties = manifest.outputSchema?.properties as Record<string, unknown> | undefined;
    const output = outputFor(outputProperties?.success ? outputProperties.data : manifest.outputSchema);
    return actions.map((action) => ({
      key: `${name}__${action.name}`,
      description: describe(action.description, manifest.description, `skill ${name}, action ${action.name}`),
      ...input,
      ...output,
      call: { skill: name, action: action.name, wrapInput: input.wrapInput, wrapOutput: output.wrapOutput },
    }));
  }
  const input = inputFor(manifest.inputSchema);
  const output = outputFor(manifest.outputSchema);
  return [{ key: name, description: describe(undefined, manifest.description, `skill ${name}`), ...input, ...output, call: { skill: name, wrapInput: input.wrapInput, wrapOutput: output.wrapOutput } }];
}

/**
 * Every typed entry point of the given skills as an MCP tool: skill.json functions, protocol
 * actions and ABP tools, each with its input and output schema. Names are made valid and unique
 * against `reserved` (the server's own tools) deterministically.
 *
 * @example
 * skillTools([unitConverterManifest], new Set(['list_skills']));
 * // [{ name: 'unit-converter__convert', call: { skill: 'unit-converter', abpTool: 'convert' }, … }, …]
 */
export function skillTools(manifests: readonly SkillManifest[], reserved: ReadonlySet<string>): SkillTool[] {
  const all = manifests.flatMap(candidates);
  const names = assignToolNames(all.map((c) => c.key), reserved);
  const seen = new Set<string>();
  const tools: SkillTool[] = [];
  for (const { key, ...tool } of all) {
    // Two actions of one skill with the same name are one entry point.
    if (seen.has(key)) continue;
    seen.add(key);
    tools.push({ name: names.get(key) as string, ...tool });
  }
  return tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
