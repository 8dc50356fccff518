import { createRequire } from 'node:module';
import type { SchemaProblem } from '../../core/schema-problems.ts';
import { moduleExtension } from '../../core/module-file.ts';
import { oncePer } from '../../core/once-per.ts';
import { PUBLISHED_NAME } from '../../core/names.ts';
import { parseFrontmatter, type Frontmatter, type FrontmatterRuleId, type ParseProblem } from '../../core/parse/frontmatter.ts';
import { parseJsonFile, type JsonFileRuleId } from '../../core/parse/json-file.ts';
import { decodeUtf8, positionAt, type DecodeResult, type Position, type SourceText } from '../../core/parse/source-text.ts';
import type { RegistryConfig } from '../../core/schemas/config.ts';
import { SkillJson } from '../../core/schemas/skill-json.ts';
import { PACKAGE_FIELDS, SkillMdFrontmatter } from '../../core/schemas/skill-md.ts';
import { hiddenCharacterRuns, type HiddenRun } from '../../scanner/rules/hidden-unicode.ts';
import { extensionOf } from '../../scanner/magic.ts';
import type { SkillSource, SkillSourceFile } from '../model.ts';
import { START, type DiagnosticSink } from '../diagnostics.ts';
import { ruleById, rulesOfScope } from './all-rules.ts';
import { executableKind, isTextByName } from './files.ts';
import { frontmatterFieldType } from './skill-md/frontmatter.ts';
import { skillJsonMetaSchema } from './skill-json.ts';
import type {
  CheckedRule, DeclarationContext, FieldPath, FilesContext, FunctionSkillContext, Report, Scope, SkillJsonContext, SkillMdContext,
} from './rule.ts';

/**
 * The per-skill engine: runs the rule modules of each scope (./all-rules.ts) over one skill folder
 * already in memory, and turns what they report into diagnostics. Parsing and schema checks run
 * once here, so each rule only reads data.
 */

export interface ParsedSkillMd {
  frontmatter: SkillMdFrontmatter;
  body: string;
  /** True when the frontmatter uses a field that makes it an extended package (PACKAGE_FIELDS). */
  isPackage: boolean;
  source: SourceText;
  /** Position of a frontmatter value, for registry-wide rules reported later. */
  locate: Frontmatter['locate'];
}

export interface ParsedSkillJson {
  manifest: SkillJson;
  /** prompt.md, for llm mode. */
  prompt?: string;
  /** Position of a value in skill.json, for registry-wide rules reported later. */
  locate: (path: FieldPath) => Position;
}

const FILE_RULES = rulesOfScope('files');
const DECLARATION_RULES = rulesOfScope('declaration');
const SKILL_MD_RULES = rulesOfScope('skill-md');
const SKILL_JSON_RULES = rulesOfScope('skill-json');
const FUNCTION_SKILL_RULES = rulesOfScope('function-skill');

/** Where a declaration's rules report, and what they found at `error`. */
interface Reporting {
  sink: DiagnosticSink;
  src: SkillSource;
  /** The declaring file from the registry root. */
  file: string;
  locate: (path: FieldPath) => Position;
  /** The skill's name for diagnostics. */
  skill: string;
  /** Ids of the rules that reported an error here, for the engine's own decisions (a name that blocks). */
  errors: Set<string>;
}

function run<S extends Scope>(rules: readonly CheckedRule<string, S>[], ctx: Parameters<CheckedRule<string, S>['check']>[0], to: Reporting): void {
  for (const rule of rules) {
    const report: Report = (where, message, options = {}) => {
      const [file, at] = 'file' in where ? [`${to.src.dir}/${where.file}`, { line: where.line, column: where.column }] : [to.file, to.locate(where)];
      if (to.sink.report(rule, file, at, message, { ...options, skill: to.skill }) === 'error') to.errors.add(rule.meta.id);
    };
    (rule.check as (ctx: unknown, report: Report) => void)(ctx, report);
  }
}

/** Reports what a pure parser found, under the rule each problem names. */
function reportParseProblems(problems: readonly ParseProblem<FrontmatterRuleId | JsonFileRuleId<'skill-json'>>[], source: SourceText, file: string, skill: string, sink: DiagnosticSink): void {
  for (const p of problems) {
    sink.report(ruleById(p.rule), file, positionAt(source, p.offset), p.message, { ...(p.hint ? { hint: p.hint } : {}), skill });
  }
}

/**
 * The `files` rules over every file of a skill: compiled executables, text encoding, and
 * characters that hide text. Each file is sniffed, decoded and searched for hidden characters
 * once, whatever the number of rules.
 */
export function checkSkillFiles(src: SkillSource, config: RegistryConfig, sink: DiagnosticSink): void {
  const executable = oncePer(executableKind);
  // Files with a binary extension are not read as text; files with none are tried.
  const decoded = oncePer((f: SkillSourceFile): DecodeResult | undefined => (executable(f) || (!isTextByName(f.path) && extensionOf(f.path) !== '') ? undefined : decodeUtf8(f.bytes)));
  const hiddenRuns = oncePer((f: SkillSourceFile): readonly HiddenRun[] => {
    const text = decoded(f);
    return text?.ok ? [...hiddenCharacterRuns(text.source.text)] : [];
  });
  const ctx: FilesContext = { src, config, executable, decoded, hiddenRuns };
  run(FILE_RULES, ctx, { sink, src, file: `${src.dir}/${src.declaration}`, locate: () => START, skill: src.folderName, errors: new Set() });
}

/**
 * The JSON Schema checker, loaded at the first schema to check: its compiled meta-schemas and the
 * RE2 engine are some 100 KB of code that most skills (every plain SKILL.md) never need. The
 * checks run synchronously (the parse phase is pure and has no await), hence `require`, which
 * loads this ES module in place.
 */
let jsonSchema: { schemaProblems(schema: unknown): SchemaProblem[] } | undefined;
const schemaProblems = (schema: unknown): SchemaProblem[] =>
  (jsonSchema ??= createRequire(import.meta.url)(`../../core/schema-problems${moduleExtension(import.meta.url)}`) as typeof jsonSchema & object).schemaProblems(schema);

/** The problems of each JSON Schema a declaration gives for its input and output. */
const schemasOf = (data: Record<string, unknown>, fields: readonly string[]): DeclarationContext['schemas'] =>
  fields.filter((field) => data[field] !== undefined).map((field) => ({ field: [field], problems: schemaProblems(data[field]) }));

/**
 * The name and description decide whether a declaration yields a skill: a missing one, a name
 * outside the published grammar (clients turn names into folder names and URL segments) or any
 * of their rules at `error` keeps it out, whatever the other rules say.
 */
function nameAndDescriptionOk(data: Record<string, unknown>, errors: ReadonlySet<string>): boolean {
  const { name, description } = data;
  const nameOk = typeof name === 'string' && name.trim() !== '' && PUBLISHED_NAME.test(name) && ![...errors].some((id) => id.startsWith('name/'));
  const descriptionOk = typeof description === 'string' && description.trim() !== '' && !errors.has('description/length');
  return nameOk && descriptionOk;
}

/**
 * Every SKILL.md rule: frontmatter syntax (the parser's), the Agent Skills fields, the extended
 * package fields by type, resources, schemas, and the body. Returns the parsed skill when nothing
 * blocks normalising it.
 */
export function checkSkillMd(src: SkillSource, config: RegistryConfig, sink: DiagnosticSink): ParsedSkillMd | undefined {
  const file = `${src.dir}/SKILL.md`;
  const entry = src.files.find((f) => f.path === 'SKILL.md');
  if (!entry) return undefined; // unreadable (too large, …): already reported by the file rules
  const decoded = decodeUtf8(entry.bytes);
  if (!decoded.ok) return undefined; // reported by files/encoding
  const source = decoded.source;
  const fm = parseFrontmatter(source, config.limits);
  reportParseProblems(fm.problems, source, file, src.folderName, sink);
  if (!fm.data) return undefined;
  const data = fm.data;
  const skill = typeof data.name === 'string' ? data.name : src.folderName;
  const isPackage = PACKAGE_FIELDS.some((f) => f in data);
  let typed = SkillMdFrontmatter.safeParse(data);
  const ctx: SkillMdContext = {
    src, config, format: 'skill-md', file, data, skill, source, fm, isPackage,
    schemas: isPackage ? schemasOf(data, ['input_schema', 'output_schema']) : [],
    fieldIssues: typed.success ? [] : typed.error.issues,
  };
  const to: Reporting = { sink, src, file, locate: fm.locate, skill, errors: new Set() };
  run(DECLARATION_RULES, ctx, to);
  run(SKILL_MD_RULES, ctx, to);

  if (!typed.success) {
    // Fields of the wrong type keep the skill out, unless the registry downgraded
    // frontmatter/field-type: then it gets a manifest without those fields.
    const others = typed.error.issues.filter((i) => i.path[0] !== 'name' && i.path[0] !== 'description');
    const blocking = others.length < typed.error.issues.length || (others.length > 0 && sink.severityOf(frontmatterFieldType) === 'error');
    const tolerated = new Set(others.map((i) => String(i.path[0])));
    if (!blocking) typed = SkillMdFrontmatter.safeParse(Object.fromEntries(Object.entries(data).filter(([k]) => !tolerated.has(k))));
  }
  if (!typed.success || !nameAndDescriptionOk(data, to.errors)) return undefined;
  return { frontmatter: typed.data, body: fm.body, isPackage, source, locate: fm.locate };
}

/**
 * Every skill.json rule (docs/skill-json.md): JSON syntax with positions (the parser's), the
 * meta-schema, names, the input/output JSON Schemas, and, once the declaration is sound, the body
 * each mode needs and the pipeline's calls and templates.
 */
export function checkSkillJson(src: SkillSource, config: RegistryConfig, sink: DiagnosticSink): ParsedSkillJson | undefined {
  const file = `${src.dir}/skill.json`;
  const entry = src.files.find((f) => f.path === 'skill.json');
  if (!entry) return undefined;
  const decoded = decodeUtf8(entry.bytes);
  if (!decoded.ok) return undefined;
  const parsed = parseJsonFile(decoded.source, config.limits);
  reportParseProblems(parsed.problems, decoded.source, file, src.folderName, sink);
  if (parsed.data === undefined) return undefined;
  if (!parsed.data || typeof parsed.data !== 'object' || Array.isArray(parsed.data)) {
    sink.report(skillJsonMetaSchema, file, parsed.locate([]), 'skill.json must be a JSON object', { hint: 'wrap the fields in { … }; the fields are listed in docs/skill-json.md#fields', skill: src.folderName });
    return undefined;
  }
  const data = parsed.data as Record<string, unknown>;
  const skill = typeof data.name === 'string' ? data.name : src.folderName;
  const typed = SkillJson.safeParse(data);
  const ctx: SkillJsonContext = {
    src, config, format: 'skill-json', file, data, skill,
    schemas: schemasOf(data, ['input', 'output'].filter((f) => data[f] && typeof data[f] === 'object')),
    fieldIssues: typed.success ? [] : typed.error.issues,
  };
  const to: Reporting = { sink, src, file, locate: parsed.locate, skill, errors: new Set() };
  run(DECLARATION_RULES, ctx, to);
  run(SKILL_JSON_RULES, ctx, to);
  if (!typed.success || !nameAndDescriptionOk(data, to.errors)) return undefined;

  const manifest = typed.data;
  const functionSkill: FunctionSkillContext = { ...ctx, manifest };
  run(FUNCTION_SKILL_RULES, functionSkill, to);
  const prompt = src.files.find((f) => f.path === 'prompt.md');
  const promptText = prompt ? decodeUtf8(prompt.bytes) : undefined;
  return { manifest, locate: parsed.locate, ...(promptText?.ok ? { prompt: promptText.source.text } : {}) };
}
