import { abpParametersSchema, abpReturnsSchema, type AbpToolDeclaration } from '../../core/abp-schema.ts';
import type { SkillManifest } from '../../core/schemas/manifest.ts';
import { RegistryError } from '../../core/errors/registry-error.ts';
import type { MemoryWriteSuggestion, ProtocolError, SkillExecutionOutcome, StepTrace } from '../../core/schemas/outcome.ts';
import { type RunHost, type RunOptions, runSkill } from './run.ts';
import { checkInput, checkOutput } from './schema-check.ts';

/**
 * The ABP result of one tool call (docs/extended-package.md#abp-tools): `result` on success (the
 * outcome's output and what came with it), `error` on failure, never both.
 */
export interface AbpToolResult {
  id: string;
  tool: string;
  result?: {
    output: unknown;
    format?: SkillExecutionOutcome['format'];
    status?: 'success' | 'partial';
    message?: string;
    /** A protocol script's own envelope metadata. */
    metadata?: Record<string, unknown>;
    warnings?: string[];
    tokenUsage?: number;
    memoryWrites?: MemoryWriteSuggestion[];
    intermediateSteps?: StepTrace[];
  };
  error?: ProtocolError;
}

export interface AbpCallOptions extends Omit<RunOptions, 'action' | 'script'> {
  /** The call's id, echoed in the result (the caller's, e.g. from the model's tool call); default `abp_<uuid>`. */
  callId?: string;
}

/**
 * Calls one of a skill's ABP tools: finds the tool in `abp.tools` (UNKNOWN_ACTION, with the tools
 * it has, when there is none by that name), checks the arguments against the tool's declaration
 * converted to JSON Schema (MISSING_PARAM / INVALID_PARAM; defaults filled in), and dispatches to the
 * skill through the normal run (sandbox, limits, input and output schemas):
 * - a module entry gets the arguments as `parameters`, plus `parameters.tool` (the tool's name)
 *   unless the tool declares a parameter of that name; `context.abp` is `{tool, id}` either way;
 * - a protocol script gets the tool's name as the `action` and the arguments as `params`.
 * The result is checked against the tool's `returns` type (INVALID_OUTPUT).
 *
 * @example
 * await callAbpTool(registry, 'unit-converter', 'convert', { value: 5, from: 'mi', to: 'km' });
 * // { id: 'abp_…', tool: 'convert', result: { output: { result: 8.04672, … }, format: 'object', status: 'success' } }
 */
export async function callAbpTool(host: RunHost, name: string, toolName: string, args: unknown, options: AbpCallOptions = {}): Promise<AbpToolResult> {
  const id = options.callId ?? `abp_${crypto.randomUUID()}`;
  const fail = (error: ProtocolError): AbpToolResult => ({ id, tool: toolName, error });
  if (!host.find(name)) return fail({ code: 'SKILL_NOT_FOUND', message: `no skill named '${name}' in the registry` });
  let manifest: SkillManifest;
  try {
    manifest = await host.manifest(name);
  } catch (error) {
    return fail({ code: error instanceof RegistryError && error.code === 'VERIFICATION_FAILED' ? error.code : 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error) });
  }
  const tools = (manifest.abp?.tools ?? []) as AbpToolDeclaration[];
  const tool = tools.find((t) => t.name === toolName) ?? tools.find((t) => t.name.toLowerCase() === toolName.toLowerCase());
  if (!tool) {
    const names = tools.map((t) => t.name);
    return fail({
      code: 'UNKNOWN_ACTION',
      message: names.length > 0 ? `${manifest.name} has no ABP tool '${toolName}'; it has ${names.join(', ')}` : `${manifest.name} declares no ABP tools (abp.tools)`,
      details: { supported_tools: names },
    });
  }
  const checked = checkInput(abpParametersSchema(tool), args ?? {});
  if (!checked.ok) return { id, tool: tool.name, error: { ...checked.error, message: checked.error.message.replace("the skill's input schema", `the parameters of ABP tool ${tool.name}`) } };
  const params = checked.value as Record<string, unknown>;
  const module = manifest.entry?.runner === 'module';
  const input = module && !Object.hasOwn(tool.parameters ?? {}, 'tool') ? { ...params, tool: tool.name } : params;
  const outcome = await runSkill(host, manifest.name, input, { ...options, action: module ? undefined : tool.name, context: { ...options.context, abp: { tool: tool.name, id } } });
  if (outcome.status === 'error') return { id, tool: tool.name, error: outcome.error ?? { code: 'INTERNAL_ERROR', message: outcome.message ?? 'the tool failed' } };
  const returns = abpReturnsSchema(tool);
  const check = checkOutput(returns, outcome.output);
  if (!check.ok) return { id, tool: tool.name, error: { ...check.error, message: `${manifest.name}: ABP tool ${tool.name} declares returns.type '${tool.returns?.type}': ${check.error.message}` } };
  const { output, format, status, message, metadata, warnings, tokenUsage, memoryWrites, intermediateSteps } = outcome;
  return {
    id,
    tool: tool.name,
    result: {
      output,
      ...(format ? { format } : {}),
      ...(status === 'partial' || status === 'success' ? { status } : {}),
      ...(message ? { message } : {}),
      ...(metadata ? { metadata } : {}),
      ...(warnings?.length ? { warnings } : {}),
      ...(tokenUsage !== undefined ? { tokenUsage } : {}),
      ...(memoryWrites?.length ? { memoryWrites } : {}),
      ...(intermediateSteps?.length ? { intermediateSteps } : {}),
    },
  };
}
