import { EXTENDED_FIELDS, KNOWN_FRONTMATTER_FIELDS } from '../../../core/schemas/skill-md.ts';
import { closest } from '../../../core/suggest.ts';
import { defineRule, reportedRule } from '../rule.ts';

// The pure frontmatter parser (src/core/parse/frontmatter.ts) finds these while splitting and
// reading the YAML, and names them by id; the SKILL.md engine reports its problems under them.
const reportedBy = 'the frontmatter parser (src/core/parse/frontmatter.ts)';

export const frontmatterMissing = reportedRule({
  id: 'frontmatter/missing',
  severity: 'error',
  description: 'SKILL.md must start with YAML frontmatter.',
  hint: 'begin the file with a line `---`, the name and description fields, and a closing `---` line',
  reportedBy,
});

export const frontmatterUnclosed = reportedRule({
  id: 'frontmatter/unclosed',
  severity: 'error',
  description: 'The frontmatter needs a closing `---` on a line of its own.',
  hint: 'add a line containing only `---` after the last frontmatter field',
  reportedBy,
});

export const frontmatterLanguage = reportedRule({
  id: 'frontmatter/language',
  severity: 'error',
  description: 'Only YAML frontmatter is read (`---js` and friends are refused, never evaluated).',
  hint: 'replace the opening line with a plain `---` and write the fields as YAML',
  reportedBy,
});

export const frontmatterTooLarge = reportedRule({
  id: 'frontmatter/too-large',
  severity: 'error',
  description: 'Frontmatter exceeds `limits.maxFrontmatterBytes`.',
  hint: 'move long content into the Markdown body or a references/ file',
  reportedBy,
});

export const frontmatterYaml = reportedRule({
  id: 'frontmatter/yaml',
  severity: 'error',
  description: 'The frontmatter is not valid YAML (including duplicate keys).',
  hint: 'fix the YAML syntax; quote values that contain `: ` or start with a special character',
  reportedBy,
});

export const frontmatterAliasLimit = reportedRule({
  id: 'frontmatter/alias-limit',
  severity: 'error',
  description: 'YAML aliases expand beyond `limits.maxAliases` (billion-laughs guard).',
  hint: 'write the values out instead of repeating them through aliases',
  reportedBy,
});

export const frontmatterTooDeep = reportedRule({
  id: 'frontmatter/too-deep',
  severity: 'error',
  description: 'Frontmatter nests deeper than `limits.maxDepth`.',
  hint: 'flatten the structure; limits.maxDepth in skilldex.config.json sets how deep values may nest',
  reportedBy,
});

export const frontmatterForbiddenKey = reportedRule({
  id: 'frontmatter/forbidden-key',
  severity: 'error',
  description: '`__proto__`, `constructor` and `prototype` keys are refused.',
  hint: 'rename the key; `__proto__`, `constructor` and `prototype` are refused to prevent prototype pollution',
  reportedBy,
});

export const frontmatterNotAMap = reportedRule({
  id: 'frontmatter/not-a-map',
  severity: 'error',
  description: 'Frontmatter must be a mapping.',
  hint: 'write one `field: value` per line',
  reportedBy,
});

/** The docs page whose field table describes a frontmatter key. */
const fieldTable = (key: unknown): string =>
  (EXTENDED_FIELDS as readonly unknown[]).includes(key) ? 'docs/extended-package.md#fields' : 'docs/skill-md.md#fields';

// Name and description have rules of their own. A registry that downgrades this rule still gets
// a manifest, without the mistyped fields (the SKILL.md engine leaves them out).
export const frontmatterFieldType = defineRule({
  id: 'frontmatter/field-type',
  severity: 'error',
  scope: 'skill-md',
  description: 'A known field has a value of the wrong type.',
  hint: 'see the field table in docs/skill-md.md#fields',
  check({ data, fieldIssues }, report) {
    const seen = new Set<string>();
    for (const issue of fieldIssues) {
      const path = issue.path as (string | number)[];
      if (path[0] === 'name' || path[0] === 'description') continue;
      const key = path.join('.');
      if (seen.has(key)) continue;
      seen.add(key);
      report(path, `${key || 'frontmatter'}: ${issue.message}`, { hint: `see the field table in ${fieldTable(path[0])}` });
    }
    // YAML has .inf and .nan, JSON has neither: the manifest would hold null, and a schema with
    // `maximum: null` fails to compile when the skill runs.
    for (const path of nonFiniteNumbers(data)) {
      const key = path.join('.');
      if (seen.has(key)) continue;
      report(path, `${key}: .inf and .nan cannot be published, as JSON has no such numbers (the manifest would hold null)`, { hint: 'write a finite number, or quote the value to keep it as text' });
    }
  },
});

/** Where a value holds an infinite or NaN number. */
function nonFiniteNumbers(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'number') return Number.isFinite(value) ? [] : [path];
  if (typeof value !== 'object' || value === null) return [];
  return (Array.isArray(value) ? [...value.entries()] : Object.entries(value)).flatMap(([key, child]) => nonFiniteNumbers(child, [...path, key]));
}

export const frontmatterUnknownField = defineRule({
  id: 'frontmatter/unknown-field',
  severity: 'warning',
  scope: 'skill-md',
  description: 'A field outside the Agent Skills, extended package and Claude Code sets.',
  hint: 'move custom data under `metadata:`, or set the rule to off in skilldex.config.json',
  check({ data }, report) {
    for (const key of Object.keys(data)) {
      if (KNOWN_FRONTMATTER_FIELDS.has(key)) continue;
      // `Description:` or `allowed_tools:` is a known field mistyped, not custom data: moving it
      // under metadata, the general advice, would leave the skill without it.
      const meant = closest(key, KNOWN_FRONTMATTER_FIELDS);
      report([key], `unknown frontmatter field '${key}'`, meant ? { hint: `did you mean \`${meant}\`? field names are case-sensitive and spelled exactly` } : {});
    }
  },
});
