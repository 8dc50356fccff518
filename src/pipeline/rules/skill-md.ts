import type { RegistryConfig } from '../../core/schemas/config.ts';
import { EXTENDED_FIELDS, PACKAGE_FIELDS, SkillMdFrontmatter } from '../../core/schemas/skill-md.ts';
import type { SkillSource } from '../model.ts';
import type { DiagnosticSink } from '../diagnostics.ts';
import { parseFrontmatter, type Frontmatter } from '../../core/parse/frontmatter.ts';
import { decodeUtf8, positionAt, type SourceText } from '../../core/parse/source-text.ts';
import { SKILL_MD_RULES, type SkillMdContext } from './skill-md/index.ts';
import { checkDescription, checkName } from './names.ts';
import { checkSchemaField } from './schemas.ts';
import { checkControlChars } from './text.ts';
import type { ValidatorRuleId } from './catalog.ts';


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

  const isPackage = PACKAGE_FIELDS.some((f) => f in data);
  const ctx: SkillMdContext = { src, file, source, fm, data, config, isPackage, skill, sink };
  for (const rule of SKILL_MD_RULES) rule.check(ctx, (path, message, hint) => report(rule.meta.id, path, message, hint ?? rule.meta.hint));
  if (isPackage) {
    for (const field of ['input_schema', 'output_schema'] as const) {
      if (data[field] !== undefined) checkSchemaField(data[field], [field], report);
    }
  }

  if (!typed.success || !nameOk || !descriptionOk) return undefined;
  return { frontmatter: typed.data, body: fm.body, isPackage, source, locate: fm.locate };
}

/** The docs page whose field table describes a frontmatter key. */
const fieldTable = (key: unknown): string =>
  (EXTENDED_FIELDS as readonly unknown[]).includes(key) ? 'docs/extended-package.md#fields' : 'docs/skill-md.md#fields';
