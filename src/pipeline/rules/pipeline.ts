import { parseTemplate } from '../../core/template.ts';
import type { SkillJson } from '../../core/schemas/skill-json.ts';
import { defineRule, type FieldPath, type Report } from './rule.ts';

/**
 * The pipeline the skill runs: none unless its mode is composite. Any other mode ignores the
 * pipeline (pipeline/not-composite warns of it), so the other pipeline rules do not check it: a
 * pipeline that never runs must not hold the skill back.
 */
const pipelineRun = (manifest: SkillJson) => (manifest.mode === 'composite' ? manifest.pipeline : undefined);

export const pipelineNotComposite = defineRule({
  id: 'pipeline/not-composite',
  severity: 'warning',
  scope: 'function-skill',
  description: 'A `pipeline` on a skill whose mode is not composite is ignored (the other pipeline rules do not check it).',
  hint: 'set "mode": "composite" or remove the pipeline',
  check({ manifest }, report) {
    if (manifest.pipeline && manifest.mode !== 'composite') report(['pipeline'], `a pipeline on a "${manifest.mode}" skill is ignored`);
  },
});

export const pipelineUndeclaredCall = defineRule({
  id: 'pipeline/undeclared-call',
  severity: 'error',
  scope: 'function-skill',
  description: 'A pipeline step calls a skill that `calls` does not list.',
  hint: 'add the skill to "calls"',
  check({ manifest }, report) {
    (pipelineRun(manifest) ?? []).forEach((step, i) => {
      if (!manifest.calls.includes(step.skill)) {
        report(['pipeline', i, 'skill'], `step '${step.step}' calls '${step.skill}', which "calls" does not list`, { hint: `add "${step.skill}" to "calls"` });
      }
    });
  },
});

export const pipelineDuplicateStep = defineRule({
  id: 'pipeline/duplicate-step',
  severity: 'error',
  scope: 'function-skill',
  description: 'Two pipeline steps share an id.',
  hint: 'give each step a unique id',
  check({ manifest }, report) {
    const earlier = new Set<string>();
    (pipelineRun(manifest) ?? []).forEach((step, i) => {
      if (earlier.has(step.step)) report(['pipeline', i, 'step'], `step id '${step.step}' is used twice`);
      earlier.add(step.step);
    });
  },
});

export const pipelineTemplate = defineRule({
  id: 'pipeline/template',
  severity: 'error',
  scope: 'function-skill',
  description: 'A template is malformed or refers to an undeclared input or a later step.',
  hint: "templates look like {{input.x}} or {{steps.s.y | map: f | join: ', '}}",
  check({ manifest }, report) {
    const pipeline = pipelineRun(manifest);
    if (!pipeline) return;
    const inputs = new Set(Object.keys(((manifest.input as { properties?: object }).properties ?? {}) as object));
    const earlier = new Set<string>();
    pipeline.forEach((step, i) => {
      checkTemplates(step.input, ['pipeline', i, 'input'], { inputs, earlier, stepIndex: i }, report);
      if (step.condition !== undefined) checkTemplates(step.condition.includes('{{') ? step.condition : `{{${step.condition}}}`, ['pipeline', i, 'condition'], { inputs, earlier, stepIndex: i }, report);
      earlier.add(step.step);
    });
    if (manifest.outputMapping) checkTemplates(manifest.outputMapping, ['outputMapping'], { inputs, earlier, stepIndex: pipeline.length }, report);
  },
});

interface TemplateScope {
  /** Inputs the input schema declares. */
  inputs: ReadonlySet<string>;
  /** Steps that run before this point. */
  earlier: ReadonlySet<string>;
  stepIndex: number;
}

/** Every template string in a step's value, checked against what exists at that step. */
function checkTemplates(value: unknown, path: FieldPath, scope: TemplateScope, report: Report): void {
  if (typeof value === 'string') {
    if (!value.includes('{{')) return;
    const result = parseTemplate(value);
    if (!result.ok) {
      report(path, `template error at character ${result.error.offset + 1}: ${result.error.message}`);
      return;
    }
    for (const ref of result.refs) {
      const [head] = ref.path;
      if (ref.root === 'input') {
        if (head !== undefined && !scope.inputs.has(head)) report(path, `{{input.${ref.path.join('.')}}} refers to '${head}', which the input schema does not declare`, { hint: `declare '${head}' under input.properties` });
      } else if (ref.root === 'steps') {
        if (head === undefined || !scope.earlier.has(head)) {
          report(path, `{{steps.${ref.path.join('.')}}} refers to step '${head ?? ''}', which does not run before this point`, { hint: `only steps before #${scope.stepIndex + 1} can be referenced` });
        }
      } else {
        report(path, `template root '${ref.root}' is unknown`, { hint: 'use input.… or steps.…' });
      }
    }
  } else if (Array.isArray(value)) value.forEach((v, i) => checkTemplates(v, [...path, i], scope, report));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) checkTemplates(v, [...path, k], scope, report);
}
