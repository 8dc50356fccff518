import { z } from 'zod';
import { JsonSchemaObject } from './json-schema-object.ts';
import { MAX_RETRY, MAX_TIMEOUT_MS } from './run-limits.ts';
import { SEMVER_PATTERN } from './semver-pattern.ts';

/**
 * `skill.json`: a skill as a typed function (docs/skill-json.md). This mirrors the draft-07
 * skill.json meta-schema field for field, including `additionalProperties: false` and its defaults.
 */

export const PipelineStep = z
  .strictObject({
    /** Step id, referenced later as `{{steps.<step>.field}}`. */
    step: z.string().min(1),
    /** The skill this step calls; must be listed in `calls`. */
    skill: z.string().min(1),
    /** The callee's input; string values may hold `{{…}}` templates. */
    input: z.record(z.string(), z.unknown()),
    /** A template; the step is skipped when it renders falsy. */
    condition: z.string().optional(),
  })
  .meta({ id: 'PipelineStep' });
export type PipelineStep = z.infer<typeof PipelineStep>;

export const FUNCTION_MODES = ['code', 'llm', 'composite'] as const;
export const FunctionMode = z.enum(FUNCTION_MODES);
export type FunctionMode = z.infer<typeof FunctionMode>;

export const SkillJson = z
  .strictObject({
    name: z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be snake_case: a lowercase letter, then a-z, 0-9 or _').describe('Function name, snake_case, unique in the registry.'),
    description: z.string().min(1).describe('What the function does, for the model and for people.'),
    category: z.string().describe('Group, e.g. 记忆 / 代码 / 文本 / 搜索 / 工作流.'),
    input: JsonSchemaObject.describe('JSON Schema of the parameters.'),
    output: JsonSchemaObject.describe('JSON Schema of the return value.'),
    mode: FunctionMode,
    calls: z.array(z.string()).default([]).describe('Skills this one calls (composite mode).'),
    pipeline: z.array(PipelineStep).optional(),
    outputMapping: z.record(z.string(), z.unknown()).optional(),
    // The build publishes, and clients resolve ranges over, semantic versions only; a SKILL.md's
    // version is held to the same grammar (package/version).
    version: z.string().regex(SEMVER_PATTERN, 'must be a semantic version (MAJOR.MINOR.PATCH, e.g. 1.0.0)').default('1.0.0'),
    tags: z.array(z.string()).default([]),
    author: z.string().optional(),
    timeout: z
      .number()
      .int()
      .positive()
      .max(MAX_TIMEOUT_MS, `at most ${MAX_TIMEOUT_MS} ms (10 minutes)`)
      .default(30000)
      .describe(`Execution timeout in milliseconds, retries included; 1 to ${MAX_TIMEOUT_MS}.`),
    retry: z
      .number()
      .int()
      .min(0)
      .max(MAX_RETRY, `at most ${MAX_RETRY} retries`)
      .default(0)
      .describe(`How many times a failed run is retried; 0 to ${MAX_RETRY}.`),
  })
  .meta({ id: 'SkillJson', title: 'skill.json (Skilldex function skill)' });
export type SkillJson = z.infer<typeof SkillJson>;
