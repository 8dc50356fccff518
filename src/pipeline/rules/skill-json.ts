import { parseTemplate } from '../../core/template.ts';
import { SkillJson } from '../../core/schemas/skill-json.ts';
import type { RegistryConfig } from '../../core/schemas/config.ts';
import type { SkillSource } from '../model.ts';
import type { DiagnosticSink } from '../diagnostics.ts';
import { parseJsonFile } from '../../core/parse/json-file.ts';
import { decodeUtf8, positionAt, type Position } from '../../core/parse/source-text.ts';
import { checkDescription, checkName } from './names.ts';
import { checkControlChars } from './text.ts';
import { checkSchemaField } from './schemas.ts';
import type { ReportAt, ValidatorRuleId } from './catalog.ts';

export interface ParsedSkillJson {
  manifest: SkillJson;
  /** prompt.md, for llm mode. */
  prompt?: string;
  /** Position of a value in skill.json, for registry-wide rules reported later. */
  locate: (path: readonly (string | number)[]) => Position;
}

/**
 * Every skill.json rule (docs/skill-json.md): JSON syntax with positions, the meta-schema, names, the
 * input/output JSON Schemas, the body each mode needs, and the pipeline's calls and templates.
 */
export function checkSkillJson(src: SkillSource, config: RegistryConfig, sink: DiagnosticSink): ParsedSkillJson | undefined {
  const file = `${src.dir}/skill.json`;
  const entry = src.files.find((f) => f.path === 'skill.json');
  if (!entry) return undefined;
  const decoded = decodeUtf8(entry.bytes);
  if (!decoded.ok) return undefined;
  const parsed = parseJsonFile(decoded.source, config.limits);
  for (const p of parsed.problems) {
    // The pure parsers in src/core/parse name only rules of this catalog (rules.test.ts covers each).
    sink.report(p.rule as ValidatorRuleId, file, positionAt(decoded.source, p.offset), p.message, { ...(p.hint ? { hint: p.hint } : {}), skill: src.folderName });
  }
  if (parsed.data === undefined) return undefined;
  if (!parsed.data || typeof parsed.data !== 'object' || Array.isArray(parsed.data)) {
    sink.report('skill-json/meta-schema', file, parsed.locate([]), 'skill.json must be a JSON object', { hint: 'wrap the fields in { … }; the fields are listed in docs/skill-json.md#fields', skill: src.folderName });
    return undefined;
  }
  const data = parsed.data as Record<string, unknown>;
  const skill = typeof data.name === 'string' ? data.name : src.folderName;
  const report = (rule: ValidatorRuleId, path: (string | number)[], message: string, hint?: string) =>
    sink.report(rule, file, parsed.locate(path), message, { ...(hint ? { hint } : {}), skill });

  const nameOk = checkName(data.name, 'skill-json', { file, at: parsed.locate(['name']), folderName: src.folderName, skill }, sink);
  const descriptionOk = checkDescription(data.description, { file, at: parsed.locate(['description']), skill }, sink);
  checkControlChars(data, report);

  const typed = SkillJson.safeParse(data);
  if (!typed.success) {
    for (const issue of typed.error.issues) {
      const path = issue.path as (string | number)[];
      if (path[0] === 'name' || path[0] === 'description') continue;
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) report('skill-json/meta-schema', [...path, key], `unknown field '${key}' (the skill.json meta-schema has additionalProperties: false)`, 'remove it, or keep custom data in another file');
      } else if (issue.code === 'invalid_type' && !hasPath(data, path)) {
        report('skill-json/meta-schema', path, `missing required field '${path.join('.')}'`, 'see the field table in docs/skill-json.md#fields');
      } else {
        report('skill-json/meta-schema', path, `${path.join('.') || 'skill.json'}: ${issue.message}`, 'see the field table in docs/skill-json.md#fields');
      }
    }
  }
  for (const field of ['input', 'output'] as const) {
    if (data[field] && typeof data[field] === 'object') checkSchemaField(data[field], [field], report);
  }
  if (!typed.success || !nameOk || !descriptionOk) return undefined;

  const manifest = typed.data;
  const has = (p: string) => src.files.some((f) => f.path === p);
  const prompt = src.files.find((f) => f.path === 'prompt.md');
  if (manifest.mode === 'code' && !has('index.ts') && !has('index.js')) {
    report('skill-json/body-missing', ['mode'], 'mode "code" needs index.ts (or index.js) beside skill.json', 'add index.ts exporting `execute(input, ctx)`');
  }
  if (manifest.mode === 'llm' && !prompt) {
    report('skill-json/body-missing', ['mode'], 'mode "llm" needs prompt.md beside skill.json', 'add prompt.md holding the system prompt');
  }
  if (manifest.mode === 'composite' && !manifest.pipeline && !has('index.ts') && !has('index.js')) {
    report('skill-json/body-missing', ['mode'], 'mode "composite" needs a "pipeline" or index.ts', 'declare the steps in "pipeline"');
  }
  if (manifest.pipeline) checkPipeline(manifest, report);

  const promptText = prompt ? decodeUtf8(prompt.bytes) : undefined;
  return { manifest, locate: parsed.locate, ...(promptText?.ok ? { prompt: promptText.source.text } : {}) };
}

function checkPipeline(manifest: SkillJson, report: ReportAt): void {
  if (manifest.mode !== 'composite') {
    report('pipeline/not-composite', ['pipeline'], `a pipeline on a "${manifest.mode}" skill is ignored`, 'set "mode": "composite" or remove the pipeline');
  }
  const inputs = new Set(Object.keys(((manifest.input as { properties?: object }).properties ?? {}) as object));
  const earlier = new Set<string>();
  const checkTemplates = (value: unknown, path: (string | number)[], stepIndex: number) => {
    if (typeof value === 'string') {
      if (!value.includes('{{')) return;
      const result = parseTemplate(value);
      if (!result.ok) {
        report('pipeline/template', path, `template error at character ${result.error.offset + 1}: ${result.error.message}`, 'templates look like {{input.x}} or {{steps.s.y | map: f | join: \', \'}}');
        return;
      }
      for (const ref of result.refs) {
        const [head] = ref.path;
        if (ref.root === 'input') {
          if (head !== undefined && !inputs.has(head)) report('pipeline/template', path, `{{input.${ref.path.join('.')}}} refers to '${head}', which the input schema does not declare`, `declare '${head}' under input.properties`);
        } else if (ref.root === 'steps') {
          if (head === undefined || !earlier.has(head)) {
            report('pipeline/template', path, `{{steps.${ref.path.join('.')}}} refers to step '${head ?? ''}', which does not run before this point`, `only steps before #${stepIndex + 1} can be referenced`);
          }
        } else {
          report('pipeline/template', path, `template root '${ref.root}' is unknown`, 'use input.… or steps.…');
        }
      }
    } else if (Array.isArray(value)) value.forEach((v, i) => checkTemplates(v, [...path, i], stepIndex));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) checkTemplates(v, [...path, k], stepIndex);
  };

  (manifest.pipeline ?? []).forEach((step, i) => {
    if (!manifest.calls.includes(step.skill)) {
      report('pipeline/undeclared-call', ['pipeline', i, 'skill'], `step '${step.step}' calls '${step.skill}', which "calls" does not list`, `add "${step.skill}" to "calls"`);
    }
    if (earlier.has(step.step)) report('pipeline/duplicate-step', ['pipeline', i, 'step'], `step id '${step.step}' is used twice`, 'give each step a unique id');
    checkTemplates(step.input, ['pipeline', i, 'input'], i);
    if (step.condition !== undefined) checkTemplates(step.condition.includes('{{') ? step.condition : `{{${step.condition}}}`, ['pipeline', i, 'condition'], i);
    earlier.add(step.step);
  });
  if (manifest.outputMapping) checkTemplates(manifest.outputMapping, ['outputMapping'], manifest.pipeline?.length ?? 0);
}

function hasPath(data: unknown, path: readonly PropertyKey[]): boolean {
  let node = data;
  for (const key of path) {
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, key)) return false;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return true;
}
