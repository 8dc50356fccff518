import semver from 'semver';
import type { RegistryConfig } from '../../core/schemas/config.ts';
import { estimateTokens } from '../../core/tokens.ts';
import { EXTENDED_FIELDS, KNOWN_FRONTMATTER_FIELDS, PACKAGE_FIELDS, SkillMdFrontmatter } from '../../core/schemas/skill-md.ts';
import type { SkillSource } from '../discover.ts';
import type { DiagnosticSink } from '../diagnostics.ts';
import { parseFrontmatter, type Frontmatter } from '../../core/parse/frontmatter.ts';
import { decodeUtf8, positionAt, type SourceText } from '../../core/parse/source-text.ts';
import { CODE_EXTENSIONS, extensionOf } from './files.ts';
import { checkDescription, checkName } from './names.ts';
import { checkSchemaField } from './schemas.ts';
import { checkControlChars } from './text.ts';
import type { ReportAt, ValidatorRuleId } from './catalog.ts';

export interface ParsedSkillMd {
  frontmatter: SkillMdFrontmatter;
  body: string;
  /** True when the frontmatter uses a field that makes it an extended package (PACKAGE_FIELDS). */
  isPackage: boolean;
  source: SourceText;
  /** Position of a frontmatter value, for registry-wide rules reported later. */
  locate: Frontmatter['locate'];
}

/**
 * Every SKILL.md rule: frontmatter syntax, the Agent Skills fields, the extended package fields
 * by type, resources, and the body. Returns the parsed skill when nothing blocks normalising it.
 */
export function checkSkillMd(src: SkillSource, config: RegistryConfig, sink: DiagnosticSink): ParsedSkillMd | undefined {
  const file = `${src.dir}/SKILL.md`;
  const entry = src.files.find((f) => f.path === 'SKILL.md');
  if (!entry) return undefined; // unreadable (too large, …): already reported by file rules
  const decoded = decodeUtf8(entry.bytes);
  if (!decoded.ok) return undefined; // reported by files/encoding
  const source = decoded.source;
  const fm = parseFrontmatter(source, config.limits);
  for (const p of fm.problems) {
    // The pure parsers in src/core/parse name only rules of this catalog (rules.test.ts covers each).
    sink.report(p.rule as ValidatorRuleId, file, positionAt(source, p.offset), p.message, { ...(p.hint ? { hint: p.hint } : {}), skill: src.folderName });
  }
  if (!fm.data) return undefined;
  const data = fm.data;
  const skill = typeof data.name === 'string' ? data.name : src.folderName;
  const at = (path: (string | number)[]) => fm.locate(path);
  const report = (rule: ValidatorRuleId, path: (string | number)[], message: string, hint?: string) =>
    sink.report(rule, file, at(path), message, { ...(hint ? { hint } : {}), skill });

  const nameOk = checkName(data.name, 'skill-md', { file, at: at(['name']), folderName: src.folderName, skill }, sink);
  const descriptionOk = checkDescription(data.description, { file, at: at(['description']), skill }, sink);
  checkControlChars(data, report);

  if (data.compatibility !== undefined && typeof data.compatibility === 'string' && (data.compatibility.length === 0 || data.compatibility.length > 500)) {
    report('compatibility/length', ['compatibility'], `compatibility must be 1–500 characters (${data.compatibility.length} chars)`, 'state the required environment briefly');
  }
  if (data.metadata && typeof data.metadata === 'object' && !Array.isArray(data.metadata)) {
    for (const [key, value] of Object.entries(data.metadata)) {
      if (typeof value !== 'string') report('metadata/nested', ['metadata', key], `metadata.${key} is ${Array.isArray(value) ? 'a list' : typeof value}, not a string`, 'metadata maps strings to strings; quote the value or flatten it');
    }
  }
  for (const key of Object.keys(data)) {
    if (!KNOWN_FRONTMATTER_FIELDS.has(key)) {
      report('frontmatter/unknown-field', [key], `unknown frontmatter field '${key}'`, 'move custom data under `metadata:`, or set the rule to off in skilldex.config.json');
    }
  }

  let typed = SkillMdFrontmatter.safeParse(data);
  if (!typed.success) {
    const seen = new Set<string>();
    const tolerated = new Set<string>();
    let blocking = false;
    for (const issue of typed.error.issues) {
      const path = issue.path as (string | number)[];
      if (path[0] === 'name' || path[0] === 'description') {
        blocking = true; // reported by their own rules above
        continue;
      }
      const key = path.join('.');
      if (seen.has(key)) continue;
      seen.add(key);
      const severity = sink.report('frontmatter/field-type', file, at(path), `${key || 'frontmatter'}: ${issue.message}`, { hint: `see the field table in ${fieldTable(path[0])}`, skill });
      if (severity === 'error') blocking = true;
      else tolerated.add(String(path[0]));
    }
    // A registry that downgrades field-type problems still gets a manifest: without the bad fields.
    if (!blocking) typed = SkillMdFrontmatter.safeParse(Object.fromEntries(Object.entries(data).filter(([k]) => !tolerated.has(k))));
  }

  // Checked for every SKILL.md: the version is published whether or not the skill is a package.
  if (typeof data.version === 'string' && !semver.valid(data.version)) {
    report('package/version', ['version'], `version '${data.version}' is not a semantic version`, 'use MAJOR.MINOR.PATCH, e.g. 1.0.0');
  }
  const isPackage = PACKAGE_FIELDS.some((f) => f in data);
  if (isPackage) checkPackage(src, fm, config, report, sink, skill);

  const bodyLines = fm.body.replace(/\r?\n$/, '').split('\n').length;
  if (fm.body.trim() === '') report('body/empty', [], 'the SKILL.md body is empty', 'write the instructions an agent follows after loading the skill');
  else if (bodyLines > config.limits.maxBodyLines) {
    sink.report('body/too-long', file, positionAt(source, fm.bodyOffset), `the body has ${bodyLines} lines (guidance: under ${config.limits.maxBodyLines})`, { hint: 'move detail into references/ and link to it', skill });
  }
  // Lines alone miss a body of one 2 MB line, which an agent still loads whole.
  const bodyTokens = estimateTokens(fm.body);
  if (bodyTokens > config.limits.maxBodyTokens) {
    sink.report('body/too-large', file, positionAt(source, fm.bodyOffset), `the body is about ${bodyTokens.toLocaleString('en-US')} tokens (guidance: under ${config.limits.maxBodyTokens.toLocaleString('en-US')}); agents load all of it`, { hint: 'keep the instructions short; move detail into references/ files the body links to, which agents read only when needed', skill });
  }

  if (!typed.success || !nameOk || !descriptionOk) return undefined;
  return { frontmatter: typed.data, body: fm.body, isPackage, source, locate: fm.locate };
}

/** The docs page whose field table describes a frontmatter key. */
const fieldTable = (key: unknown): string =>
  (EXTENDED_FIELDS as readonly unknown[]).includes(key) ? 'docs/extended-package.md#fields' : 'docs/skill-md.md#fields';

/** Programs directly under scripts/ (not helpers in subfolders): the candidates for a package's entry. */
export function entryCandidates(src: SkillSource): string[] {
  return src.files.map((f) => f.path).filter((p) => /^scripts\/[^/]+$/.test(p) && ENTRY_EXTENSIONS.has(extensionOf(p)));
}
const ENTRY_EXTENSIONS = new Set(['py', 'sh', 'bash', 'js', 'mjs', 'cjs', 'ts', 'mts']);

function checkPackage(src: SkillSource, fm: Frontmatter, config: RegistryConfig, report: ReportAt, sink: DiagnosticSink, skill: string): void {
  const data = fm.data as Record<string, unknown>;
  for (const field of config.requiredPackageFields) {
    if (!(field in data)) report('package/required-field', [], `this registry requires '${field}' in extended packages`, `add \`${field}:\` to the frontmatter`);
  }
  if (data.permissions !== undefined) report('package/legacy-permissions', ['permissions'], '`permissions` is the legacy field', 'move network and filesystem settings into `security` (skilldex migrate does this)');
  for (const field of ['input_schema', 'output_schema'] as const) {
    if (data[field] !== undefined) checkSchemaField(data[field], [field], report);
  }

  const resources = data.resources;
  if (!resources || typeof resources !== 'object') return;
  const candidates = entryCandidates(src);
  if (!(resources as { entry?: unknown }).entry && candidates.length > 1) {
    report('package/entry-missing', ['resources'], `scripts/ holds ${candidates.length} programs (${candidates.join(', ')}) and resources.entry names none`, 'set resources.entry to the script that runs the skill');
  }
  const paths = new Set(src.files.map((f) => f.path));
  const folders = new Set(src.files.flatMap((f) => f.path.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
  for (const [group, value] of Object.entries(resources)) {
    const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
    list.forEach((raw, i) => {
      if (typeof raw !== 'string') return;
      const where = typeof value === 'string' ? ['resources', group] : ['resources', group, i];
      const normal = normaliseResourcePath(raw);
      if (normal === undefined) {
        report('package/resource-escape', where, `resources.${group} '${raw}' points outside the skill folder`, 'use a path relative to the skill folder, like ./scripts/execute.ts');
      } else if (!paths.has(normal) && !folders.has(normal.replace(/\/$/, ''))) {
        report('package/resource-missing', where, `resources.${group} '${raw}' does not exist in the skill`, 'add the file or fix the path');
      }
    });
  }
  for (const f of src.files) {
    if (CODE_EXTENSIONS.has(extensionOf(f.path)) && !f.path.startsWith('scripts/') && !f.path.startsWith('tests/')) {
      sink.report('package/code-outside-scripts', `${src.dir}/${f.path}`, { line: 1, column: 1 }, `executable code '${f.path}' lies outside scripts/`, { hint: 'move it under scripts/; packages that declare resources keep all code there', skill });
    }
  }
}

/** `./scripts/x.ts` → `scripts/x.ts`; undefined for anything that leaves the folder. */
export function normaliseResourcePath(raw: string): string | undefined {
  if (raw.startsWith('/') || raw.includes('\\') || /^[a-z]+:/i.test(raw)) return undefined;
  const out: string[] = [];
  for (const part of raw.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.length > 0 ? out.join('/') : undefined;
}
