import type { z } from 'zod';
import type { SchemaProblem } from '../../core/schema-problems.ts';
import type { Frontmatter } from '../../core/parse/frontmatter.ts';
import type { DecodeResult, Position, SourceText } from '../../core/parse/source-text.ts';
import { anchorOf, type RuleMeta } from '../../core/rule.ts';
import type { RegistryConfig } from '../../core/schemas/config.ts';
import type { RelatedLocation, ValidatorDiagnostic, ValidatorSeverity } from '../../core/schemas/diagnostic.ts';
import type { SkillJson } from '../../core/schemas/skill-json.ts';
import type { ScannerRuleId } from '../../scanner/catalog.ts';
import type { HiddenRun } from '../../scanner/rules/hidden-unicode.ts';
import type { DraftManifest, SkillSource, SkillSourceFile } from '../model.ts';
import type { OutwardLink } from '../references.ts';

/**
 * The validator's rule modules, in the one rule shape (src/core/rule.ts): `meta` plus a `check`
 * over what its scope gives it. Checks are pure: they read the context and report, so a rule
 * runs the same on a folder read from disk, a cache entry or a worker's copy.
 */

/** A path into a skill's declaration: `['name']`, `['resources', 'scripts', 0]`. */
export type FieldPath = readonly (string | number)[];

/** What a declaration's value is, as a message says it: `null`, `a list`, `a mapping`, `a number`… */
export const valueKind = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'a mapping' : `a ${typeof value}`;

/** A place in one of the skill's files, for a problem that is not at a declared field. */
export interface FilePlace extends Position {
  /** The file, inside the skill folder (`scripts/run.py`). */
  file: string;
}

export interface ReportOptions {
  /** A hint more specific than the rule's own `meta.hint`. */
  hint?: string;
  /** Other places involved in the same problem. */
  related?: RelatedLocation[];
}

/** How a per-skill check reports a problem: at a field of the declaration or at a place in a file. */
export type Report = (where: FieldPath | FilePlace, message: string, options?: ReportOptions) => void;

/** What every per-skill rule sees. */
export interface SkillContext {
  src: SkillSource;
  config: RegistryConfig;
}

/** The `files` scope: every file of the skill, each decoded at most once for all the rules. */
export interface FilesContext extends SkillContext {
  /** The kind of compiled executable a file is (`an ELF executable`), or undefined. */
  executable(file: SkillSourceFile): string | undefined;
  /** The file decoded as UTF-8, or undefined when it is not read as text (an executable, a binary extension). */
  decoded(file: SkillSourceFile): DecodeResult | undefined;
  /** The runs of hidden characters in a file that decoded (src/scanner/rules/hidden-unicode.ts). */
  hiddenRuns(file: SkillSourceFile): readonly HiddenRun[];
}

/** The `declaration` scope: SKILL.md frontmatter or skill.json, as data, before its schema is applied. */
export interface DeclarationContext extends SkillContext {
  format: 'skill-md' | 'skill-json';
  /** The declaring file from the registry root: `skills/pdf/SKILL.md`. */
  file: string;
  data: Record<string, unknown>;
  /** The skill's name for diagnostics: the declared name, else the folder's. */
  skill: string;
  /** The problems of each JSON Schema the skill declares for its input and output, found once for every schema rule. */
  schemas: readonly { field: FieldPath; problems: readonly SchemaProblem[] }[];
}

/** Where a declaration's data does not match its zod schema. */
export type FieldIssue = z.core.$ZodIssue;

/** The `skill-md` scope: a SKILL.md whose frontmatter parsed. */
export interface SkillMdContext extends DeclarationContext {
  format: 'skill-md';
  source: SourceText;
  fm: Frontmatter;
  /** True when a field makes this an extended package. */
  isPackage: boolean;
  /** Where the frontmatter does not match its schema (name and description have rules of their own). */
  fieldIssues: readonly FieldIssue[];
}

/** The `skill-json` scope: a skill.json that parsed as a JSON object. */
export interface SkillJsonContext extends DeclarationContext {
  format: 'skill-json';
  /** Where skill.json does not match the meta-schema (name and description have rules of their own). */
  fieldIssues: readonly FieldIssue[];
}

/** The `function-skill` scope: a skill.json that matched its meta-schema, with a valid name and description. */
export interface FunctionSkillContext extends SkillJsonContext {
  manifest: SkillJson;
}

/** One skill taking part in the registry-wide rules. */
export interface RegistryMember {
  draft: DraftManifest;
  /** File that declared the skill, relative to the registry root. */
  file: string;
  locate: (path: FieldPath) => Position;
}

/**
 * A skill folder the registry read, whether or not its declaration gave a skill. One without a
 * member takes no part in the registry rules (its declaration did not parse, or did not yield a
 * skill: a missing field, a name outside the published grammar), but a call may still name it.
 */
export interface RegistryFolder {
  /** The folder from the registry root: `skills/text/text-stats`. */
  dir: string;
  /** Its declaration from the registry root: `skills/text/text-stats/skill.json`. */
  file: string;
  /** The skill it holds; none when its own errors left nothing to check across skills. */
  member?: RegistryMember;
  /** Without a member: its first error (its first diagnostic, when every one was downgraded to a warning). */
  problem?: ValidatorDiagnostic;
  /**
   * Without a member: every name a `calls` entry may give it (those its diagnostics carry, its
   * folder's, for a skill.json that in snake_case); by default its folder's.
   */
  names?: readonly string[];
  /** Its files, inside the folder (`references/guide.md`); absent when not known, and then any file may be there. */
  files?: readonly string[];
  /** Links in its Markdown into other skills' folders. */
  links?: readonly OutwardLink[];
}

/** The `registry` scope: every member, sorted by file, and what earlier rules rejected. */
export interface RegistryContext {
  members: readonly RegistryMember[];
  /** Every skill folder read, sorted by folder, a member or not. */
  folders: readonly RegistryFolder[];
  /** The first member (by file) of each case-folded, NFC-normalised name. */
  unique: readonly RegistryMember[];
  /** Members rejected so far; a rule reads it (a caller of a rejected skill), and each report adds to it. */
  rejected: ReadonlySet<RegistryMember>;
  /** The folders without a member, by each name a call may give them (the first folder by file keeps a name). */
  unreadable: ReadonlyMap<string, RegistryFolder>;
}

/** How a registry-wide check reports a problem: at a field of one member's declaration. Every reported member is rejected. */
export type RegistryReport = (member: RegistryMember, path: FieldPath, message: string, options?: ReportOptions) => void;

/** The `registry-links` scope: every skill folder read, with its files and its links into the other folders. */
export interface RegistryLinksContext {
  folders: readonly RegistryFolder[];
}

/**
 * How a check of the links between skills reports a problem: at a place in one folder's files.
 * Unlike {@link RegistryReport} it rejects nothing by itself: the problem keeps the skill out
 * only at the severity `error`, as a skill's own rules do.
 */
export type RegistryLinksReport = (folder: RegistryFolder, at: FilePlace, message: string, options?: ReportOptions) => void;

interface Scopes {
  files: { ctx: FilesContext; report: Report };
  declaration: { ctx: DeclarationContext; report: Report };
  'skill-md': { ctx: SkillMdContext; report: Report };
  'skill-json': { ctx: SkillJsonContext; report: Report };
  'function-skill': { ctx: FunctionSkillContext; report: Report };
  registry: { ctx: RegistryContext; report: RegistryReport };
  'registry-links': { ctx: RegistryLinksContext; report: RegistryLinksReport };
}

/** What a check is given, which decides when its engine runs it. */
export type Scope = keyof Scopes;

export interface ValidatorRuleMeta<Id extends string = string> extends RuleMeta<Id, ValidatorSeverity> {
  engine: 'validator' | 'publish';
  /** The scope whose engine runs `check`; absent for a rule a shared pass reports (`reportedBy`). */
  scope?: Scope;
  /**
   * Scanner rules that find the same problem as this rule. A build's scan leaves those problems
   * to this rule, so one problem gives one diagnostic; `skilldex scan` on its own still reports
   * them under the scanner's ids.
   */
  covers?: readonly ScannerRuleId[];
}

/** A validator rule with a check of its own. */
export interface CheckedRule<Id extends string = string, S extends Scope = Scope> {
  meta: ValidatorRuleMeta<Id> & { scope: S };
  // Method syntax on purpose: a list of rules of every scope holds each one's own check.
  check(ctx: Scopes[S]['ctx'], report: Scopes[S]['report']): void;
}

/** A validator or pull-request rule that a shared pass (a parser, discovery, the scan gate) reports under its id. */
export interface ReportedRule<Id extends string = string> {
  meta: ValidatorRuleMeta<Id> & { reportedBy: string };
}

export type ValidatorRule<Id extends string = string> = CheckedRule<Id> | ReportedRule<Id>;

interface MetaFields<Id extends string> {
  id: Id;
  severity: ValidatorSeverity;
  /** One sentence for the rules reference. */
  description: string;
  hint: string;
  messages?: Readonly<Record<string, string>>;
  covers?: readonly ScannerRuleId[];
}

const metaOf = <Id extends string>({ id, severity, description, hint, messages, covers }: MetaFields<Id>, engine: ValidatorRuleMeta['engine']): ValidatorRuleMeta<Id> => ({
  id,
  engine,
  severity,
  docs: { description, url: `docs/rules.md#${anchorOf(id)}` },
  hint,
  ...(messages ? { messages } : {}),
  ...(covers ? { covers } : {}),
});

/**
 * A validator rule module with its own check, run by the engine of its scope.
 *
 * @example
 * export const bodyEmpty = defineRule({
 *   id: 'body/empty', severity: 'warning', scope: 'skill-md',
 *   description: 'The SKILL.md body is empty; agents get no instructions.',
 *   hint: 'write the instructions an agent follows after loading the skill',
 *   check(ctx, report) { if (ctx.fm.body.trim() === '') report([], 'the SKILL.md body is empty'); },
 * });
 */
export function defineRule<const Id extends string, S extends Scope>(
  rule: MetaFields<Id> & { scope: S; check(ctx: Scopes[S]['ctx'], report: Scopes[S]['report']): void },
): CheckedRule<Id, S> {
  return { meta: { ...metaOf(rule, 'validator'), scope: rule.scope }, check: rule.check };
}

/**
 * A rule module without a check of its own: `reportedBy` names the shared pass that reports it
 * (the frontmatter parser, discovery, the scan gate, the pull-request checks).
 */
export function reportedRule<const Id extends string>(rule: MetaFields<Id> & { reportedBy: string; engine?: ValidatorRuleMeta['engine'] }): ReportedRule<Id> {
  return { meta: { ...metaOf(rule, rule.engine ?? 'validator'), reportedBy: rule.reportedBy } };
}
