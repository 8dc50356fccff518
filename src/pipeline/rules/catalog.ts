/**
 * Every validation rule, with its stable id and default severity. With the scanner's rules it
 * makes the one list in ./all-rules.ts, which docs/rules.md is generated from (`npm run
 * schemas`); a registry overrides severities in `skilldex.config.json` under `rules`.
 */
export interface RuleInfo {
  id: string;
  severity: 'error' | 'warning';
  description: string;
}

const rule = <const Id extends string>(id: Id, severity: RuleInfo['severity'], description: string) => ({ id, severity, description }) satisfies RuleInfo;

export const RULES = [
  // Discovery
  rule('discovery/ambiguous', 'error', 'A folder holds both SKILL.md and skill.json.'),
  rule('discovery/nested-skill', 'warning', 'A skill folder sits inside another skill; it is published as part of the outer skill only.'),
  rule('discovery/too-deep', 'error', 'A skill sits deeper than one category folder below skills/.'),
  // Files
  rule('files/symlink', 'error', 'Symbolic links are never followed or published.'),
  rule('files/special', 'error', 'Only regular files and folders may appear in a skill.'),
  rule('files/path', 'error', 'File paths must be relative, printable ASCII, without `..`, `\\ ? # [ ]` (discovery RFC).'),
  rule('files/too-large', 'error', 'A file exceeds `limits.maxFileBytes`.'),
  rule('files/skill-too-large', 'error', 'The skill exceeds `limits.maxSkillBytes` in total.'),
  rule('files/too-many', 'error', 'The skill has more than `limits.maxFiles` files.'),
  rule('files/executable-binary', 'error', 'Compiled executables (ELF, PE, Mach-O, WebAssembly) are not accepted.'),
  rule('files/encoding', 'error', 'A text file is not valid UTF-8.'),
  rule('files/bidi', 'error', 'Bidirectional control characters can hide what text really says.'),
  rule('files/unicode-tag', 'error', 'Unicode tag characters (U+E0000–E007F) smuggle invisible instructions.'),
  rule('files/zero-width', 'warning', 'Zero-width characters can hide text.'),
  // SKILL.md frontmatter
  rule('frontmatter/missing', 'error', 'SKILL.md must start with YAML frontmatter.'),
  rule('frontmatter/unclosed', 'error', 'The frontmatter needs a closing `---` on a line of its own.'),
  rule('frontmatter/language', 'error', 'Only YAML frontmatter is read (`---js` and friends are refused, never evaluated).'),
  rule('frontmatter/too-large', 'error', 'Frontmatter exceeds `limits.maxFrontmatterBytes`.'),
  rule('frontmatter/yaml', 'error', 'The frontmatter is not valid YAML (including duplicate keys).'),
  rule('frontmatter/alias-limit', 'error', 'YAML aliases expand beyond `limits.maxAliases` (billion-laughs guard).'),
  rule('frontmatter/too-deep', 'error', 'Frontmatter nests deeper than `limits.maxDepth`.'),
  rule('frontmatter/forbidden-key', 'error', '`__proto__`, `constructor` and `prototype` keys are refused.'),
  rule('frontmatter/not-a-map', 'error', 'Frontmatter must be a mapping.'),
  rule('frontmatter/field-type', 'error', 'A known field has a value of the wrong type.'),
  rule('frontmatter/unknown-field', 'warning', 'A field outside the Agent Skills, extended package and Claude Code sets.'),
  rule('name/required', 'error', '`name` is required.'),
  rule('name/charset', 'error', 'Names use only a-z, 0-9 and `-` (skill.json: snake_case).'),
  rule('name/length', 'error', 'Names are 1–64 characters.'),
  rule('name/hyphens', 'error', 'Names must not start or end with `-` or contain `--`.'),
  rule('name/folder-mismatch', 'error', 'A SKILL.md name must equal its folder name.'),
  rule('description/required', 'error', '`description` is required and not empty.'),
  rule('description/length', 'error', 'Descriptions are at most 1024 characters.'),
  rule('text/control-chars', 'error', 'Names, descriptions and tags may not contain control characters (ESC, CR, …); terminals act on them.'),
  rule('compatibility/length', 'error', '`compatibility` is 1–500 characters.'),
  rule('metadata/nested', 'warning', '`metadata` should map strings to strings; nested values are accepted.'),
  rule('body/empty', 'warning', 'The SKILL.md body is empty; agents get no instructions.'),
  rule('body/too-long', 'warning', 'The body is longer than `limits.maxBodyLines` lines; move detail into references/.'),
  rule('body/too-large', 'warning', 'The body is more than `limits.maxBodyTokens` estimated tokens (default 5,000); move detail into references/.'),
  // Extended SKILL.md package
  rule('package/version', 'error', '`version` must be a semantic version.'),
  rule('package/required-field', 'error', 'A field the registry config lists in `requiredPackageFields` is missing.'),
  rule('package/resource-missing', 'error', 'A `resources` path does not exist in the skill.'),
  rule('package/resource-escape', 'error', 'A `resources` path points outside the skill folder.'),
  rule('package/code-outside-scripts', 'error', 'A skill that declares `resources` keeps executable code under scripts/ only.'),
  rule('package/entry-missing', 'error', 'An extended package with scripts needs a `resources.entry` when it has several entry candidates.'),
  rule('package/legacy-permissions', 'warning', '`permissions` is the legacy field; migrate it into `security`.'),
  // JSON Schemas inside skills
  rule('schema/invalid', 'error', 'An input/output schema is not a valid JSON Schema.'),
  rule('schema/remote-ref', 'error', 'Schemas may not `$ref` remote documents.'),
  rule('schema/unsafe-pattern', 'error', 'A `pattern` is not a valid RE2 expression (catastrophic-backtracking guard).'),
  // skill.json function skills
  rule('skill-json/syntax', 'error', 'skill.json is not valid JSON.'),
  rule('skill-json/too-deep', 'error', 'skill.json nests deeper than `limits.maxDepth`.'),
  rule('skill-json/forbidden-key', 'error', '`__proto__`, `constructor` and `prototype` keys are refused.'),
  rule('skill-json/meta-schema', 'error', 'skill.json does not match the skill.json meta-schema (`schemas/skill-json.schema.json`).'),
  rule('skill-json/body-missing', 'error', 'The mode needs its body: code → index.ts, llm → prompt.md, composite → pipeline or index.ts.'),
  rule('pipeline/undeclared-call', 'error', 'A pipeline step calls a skill that `calls` does not list.'),
  rule('pipeline/duplicate-step', 'error', 'Two pipeline steps share an id.'),
  rule('pipeline/template', 'error', 'A template is malformed or refers to an undeclared input or a later step.'),
  rule('pipeline/not-composite', 'warning', 'A `pipeline` on a skill whose mode is not composite is ignored.'),
  // Across the registry
  rule('registry/duplicate-name', 'error', 'Two skills share a name after case-folding and NFC normalisation.'),
  rule('registry/unknown-call', 'error', 'A `calls` entry names no skill in the registry.'),
  rule('registry/call-cycle', 'error', '`calls` form a cycle.'),
  rule('registry/cross-format-collision', 'error', 'Two skills are published under one discovery name (`code_review` and `code-review`); neither is published.'),
  // Security scan
  rule('security/blocked', 'error', 'The security scan verdict is at or above `scan.blockOn`.'),
  rule('security/finding', 'warning', 'A security scan finding at `warn` or above that does not block; the message names the scanner rule.'),
  // Earlier versions, from git history (docs/registry-format.md#versions)
  rule('versions/history-incomplete', 'warning', 'The registry is built from a shallow clone or a repository git cannot read: only current versions are published.'),
  rule('versions/version-rejected', 'warning', 'An earlier version, as of the last commit it was published from, fails validation or the security scan, or is not a semantic version; it is left out.'),
] as const satisfies readonly RuleInfo[];

/** Every validator rule id, checked by the compiler wherever a rule reports. */
export type ValidatorRuleId = (typeof RULES)[number]['id'];

export const RULES_BY_ID: ReadonlyMap<ValidatorRuleId, RuleInfo> = new Map(RULES.map((r) => [r.id, r]));

/** How a per-skill rule reports a problem at a path of the parsed declaration (`['name']`, `['resources', 0]`). */
export type ReportAt = (rule: ValidatorRuleId, path: (string | number)[], message: string, hint?: string) => void;
