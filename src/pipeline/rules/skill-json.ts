import { closest } from '../../core/suggest.ts';
import { PipelineStep, SkillJson } from '../../core/schemas/skill-json.ts';
import { defineRule, reportedRule, type FieldPath } from './rule.ts';

// The pure JSON parser (src/core/parse/json-file.ts) finds these while reading skill.json, with
// positions, and names them by id; the skill.json engine reports its problems under them.
const reportedBy = 'the JSON parser (src/core/parse/json-file.ts)';

export const skillJsonSyntax = reportedRule({
  id: 'skill-json/syntax',
  severity: 'error',
  description: 'skill.json is not valid JSON.',
  hint: 'check for a missing comma or quote, or a trailing comma, just before this point',
  reportedBy,
});

export const skillJsonTooDeep = reportedRule({
  id: 'skill-json/too-deep',
  severity: 'error',
  description: 'skill.json nests deeper than `limits.maxDepth`.',
  hint: 'flatten the structure; limits.maxDepth in skilldex.config.json sets how deep values may nest',
  reportedBy,
});

export const skillJsonForbiddenKey = reportedRule({
  id: 'skill-json/forbidden-key',
  severity: 'error',
  description: '`__proto__`, `constructor` and `prototype` keys are refused.',
  hint: 'rename the key; `__proto__`, `constructor` and `prototype` are refused to prevent prototype pollution',
  reportedBy,
});

function hasPath(data: unknown, path: readonly PropertyKey[]): boolean {
  let node = data;
  for (const key of path) {
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, key)) return false;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return true;
}

/** The fields the meta-schema allows in the object at `path`: the top level, or a pipeline step. */
function fieldsAt(path: readonly (string | number)[]): string[] {
  if (path.length === 0) return Object.keys(SkillJson.shape);
  return path.length === 2 && path[0] === 'pipeline' ? Object.keys(PipelineStep.shape) : [];
}

// Name and description have rules of their own. A skill.json that is not an object at all is
// reported under this rule by the engine, before any rule can look inside it.
export const skillJsonMetaSchema = defineRule({
  id: 'skill-json/meta-schema',
  severity: 'error',
  scope: 'skill-json',
  description: 'skill.json does not match the skill.json meta-schema (`schemas/skill-json.schema.json`).',
  hint: 'see the field table in docs/skill-json.md#fields',
  check({ data, fieldIssues }, report) {
    for (const issue of fieldIssues) {
      const path = issue.path as (string | number)[];
      if (path[0] === 'name' || path[0] === 'description') continue;
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          // `verison` or `Description` is a field mistyped: removing it, the general advice, would lose it.
          const meant = closest(key, fieldsAt(path));
          report([...path, key], `unknown field '${key}' (the skill.json meta-schema has additionalProperties: false)`, {
            hint: meant ? `did you mean "${meant}"? field names are case-sensitive and spelled exactly` : 'remove it, or keep custom data in another file',
          });
        }
      } else if (!hasPath(data, path)) {
        // zod words an absent enum field "Invalid option": it is missing, and these are its values.
        const values = issue.code === 'invalid_value' ? ` (one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')})` : '';
        report(path, `missing required field '${path.join('.')}'${values}`);
      } else {
        report(path, `${path.join('.') || 'skill.json'}: ${issue.message}`);
      }
    }
  },
});

/** What each mode needs beside skill.json, and where it is missing. */
export const skillJsonBodyMissing = defineRule({
  id: 'skill-json/body-missing',
  severity: 'error',
  scope: 'function-skill',
  description: 'The mode needs its body: code → index.ts, llm → prompt.md, composite → pipeline or index.ts.',
  hint: 'add the file the mode runs',
  check({ manifest, src }, report) {
    const has = (p: string) => src.files.some((f) => f.path === p);
    const at: FieldPath = ['mode'];
    if (manifest.mode === 'code' && !has('index.ts') && !has('index.js')) {
      report(at, 'mode "code" needs index.ts (or index.js) beside skill.json', { hint: 'add index.ts exporting `execute(input, ctx)`' });
    }
    if (manifest.mode === 'llm' && !has('prompt.md')) {
      report(at, 'mode "llm" needs prompt.md beside skill.json', { hint: 'add prompt.md holding the system prompt' });
    }
    if (manifest.mode === 'composite' && !manifest.pipeline && !has('index.ts') && !has('index.js')) {
      report(at, 'mode "composite" needs a "pipeline" or index.ts', { hint: 'declare the steps in "pipeline"' });
    }
  },
});
