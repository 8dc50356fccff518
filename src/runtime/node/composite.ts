import type { SkillManifest } from '../../core/schemas/manifest.ts';
import type { SkillExecutionOutcome, StepTrace } from '../../core/schemas/outcome.ts';
import { isTruthy, renderTemplate } from '../../core/template.ts';
import { TemplateError } from '../../core/errors/template-error.ts';
import { valueSizeExceeds } from '../../core/json-depth.ts';
import { type Attempt, failed } from './attempt.ts';
import { MAX_OUTPUT_BYTES } from './bounded-process.ts';

/** Runs one pipeline step's skill through the full runtime (validation, limits, retries). */
export type CallSkill = (name: string, input: unknown) => Promise<SkillExecutionOutcome>;

/**
 * Runs a skill.json declarative pipeline (docs/skill-json.md). Each step's `condition` and `input` are rendered against
 * `{input, steps}`; a step whose condition renders falsy is skipped (and recorded as skipped).
 * Every step lands in `intermediateSteps` with its duration, including the one that failed, so a
 * broken pipeline shows how far it got. The output is `outputMapping` rendered at the end, or the
 * last step's output when there is no mapping.
 *
 * @example
 * await runPipeline(manifest, { topic: 'rust' }, (name, input) => registry.run(name, input));
 */
export async function runPipeline(manifest: SkillManifest, input: unknown, call: CallSkill): Promise<Attempt> {
  const pipeline = manifest.pipeline ?? [];
  if (pipeline.length === 0) return failed('INTERNAL_ERROR', `${manifest.name} is a composite skill without a pipeline`);
  const steps: Record<string, unknown> = {};
  const traces: StepTrace[] = [];
  const warnings: string[] = [];
  let last: unknown;
  const scope = { input, steps };
  // A nested composite's own steps follow its step in the trace, as `outer/inner`.
  const nested = (step: string, outcome: SkillExecutionOutcome): StepTrace[] => (outcome.intermediateSteps ?? []).map((t) => ({ ...t, stepId: `${step}/${t.stepId}` }));
  for (const step of pipeline) {
    const started = performance.now();
    const trace = (fields: Partial<StepTrace>): StepTrace => ({ stepId: step.step, stepName: step.skill, input: undefined, output: undefined, duration: Math.round(performance.now() - started), timestamp: Date.now(), ...fields });
    let stepInput: unknown;
    try {
      if (step.condition !== undefined && !isTruthy(renderTemplate(step.condition, scope))) {
        traces.push(trace({ output: null, skipped: true }));
        continue;
      }
      stepInput = renderTemplate(step.input, scope);
      if (valueSizeExceeds(stepInput, MAX_OUTPUT_BYTES)) {
        const message = `its input renders to more than ${MAX_OUTPUT_BYTES / 1024 / 1024} MB of JSON`;
        traces.push(trace({ error: { code: 'OUTPUT_TOO_LARGE', message } }));
        return { ok: false, error: { code: 'OUTPUT_TOO_LARGE', message: `${manifest.name}: step '${step.step}': ${message}` }, extras: { intermediateSteps: traces } };
      }
    } catch (error) {
      const message = error instanceof TemplateError ? error.message : String(error);
      traces.push(trace({ error: { code: 'INVALID_PARAM', message } }));
      return { ok: false, error: { code: 'INVALID_PARAM', message: `${manifest.name}: step '${step.step}': ${message}` }, extras: { intermediateSteps: traces } };
    }
    const outcome = await call(step.skill, stepInput);
    if (outcome.status === 'error') {
      traces.push(trace({ input: stepInput, output: null, error: outcome.error }));
      const cause = outcome.error ?? { code: 'INTERNAL_ERROR', message: 'failed' };
      return {
        ok: false,
        error: { code: cause.code, message: `${manifest.name}: step '${step.step}' (${step.skill}) failed: ${cause.message}`, details: { step: step.step, skill: step.skill, error: cause } },
        extras: { intermediateSteps: [...traces, ...nested(step.step, outcome)] },
      };
    }
    for (const warning of outcome.warnings ?? []) warnings.push(`${step.step}: ${warning}`);
    steps[step.step] = outcome.output;
    last = outcome.output;
    traces.push(trace({ input: stepInput, output: outcome.output }), ...nested(step.step, outcome));
  }
  let output = last;
  if (manifest.outputMapping) {
    try {
      output = renderTemplate(manifest.outputMapping, scope);
    } catch (error) {
      return { ok: false, error: { code: 'INVALID_OUTPUT', message: `${manifest.name}: outputMapping: ${(error as Error).message}` }, extras: { intermediateSteps: traces } };
    }
    // A script's result may not pass 10 MB; a mapping that repeats a step's output must not either.
    if (valueSizeExceeds(output, MAX_OUTPUT_BYTES)) {
      return { ok: false, error: { code: 'OUTPUT_TOO_LARGE', message: `${manifest.name}: outputMapping renders to more than ${MAX_OUTPUT_BYTES / 1024 / 1024} MB of JSON` }, extras: { intermediateSteps: traces } };
    }
  }
  return { ok: true, output, extras: { intermediateSteps: traces, ...(warnings.length > 0 ? { warnings } : {}) } };
}
