import { SCANNER_RULES } from '../../scanner/catalog.ts';
import type { ScannerRule } from '../../scanner/rule.ts';
import { REGISTRY_RULES } from './cross-skill.ts';
import { LINK_RULES } from './links.ts';
import { discoveryAmbiguous, discoveryMisnamedDeclaration, discoveryNestedSkill, discoveryNoDeclaration, discoveryTooDeep } from './discovery.ts';
import {
  filesBidi, filesCaseCollision, filesEncoding, filesExecutableBinary, filesPath, filesSkillTooLarge, filesSpecial, filesSymlink, filesTooLarge, filesTooMany,
  filesTypescriptSyntax, filesUnicodeTag, filesZeroWidth,
} from './files.ts';
import { internalCheckFailed, internalHeldBack } from './internal.ts';
import { descriptionLength, descriptionPlaceholder, descriptionRequired, nameCharset, nameFolderMismatch, nameHyphens, nameLength, nameRequired, nameWindowsDevice } from './names.ts';
import { pipelineDuplicateStep, pipelineNotComposite, pipelineTemplate, pipelineUndeclaredCall } from './pipeline.ts';
import { publishMixedChange, publishVersionLowered, publishVersionNotBumped } from './publish.ts';
import type { CheckedRule, Scope, ValidatorRule } from './rule.ts';
import { schemaInvalid, schemaRemoteRef, schemaUnsafePattern } from './schemas.ts';
import { securityBlocked, securityFinding } from './security.ts';
import { skillJsonBodyMissing, skillJsonForbiddenKey, skillJsonMetaSchema, skillJsonSyntax, skillJsonTooDeep } from './skill-json.ts';
import { bodyBrokenLink, bodyEmpty, bodyTooLarge, bodyTooLong } from './skill-md/body.ts';
import { compatibilityLength, metadataNested, packageVersion } from './skill-md/fields.ts';
import {
  frontmatterAliasLimit, frontmatterFieldType, frontmatterForbiddenKey, frontmatterLanguage, frontmatterMissing, frontmatterNotAMap,
  frontmatterTooDeep, frontmatterTooLarge, frontmatterUnclosed, frontmatterUnknownField, frontmatterYaml,
} from './skill-md/frontmatter.ts';
import { reservedEnvironment } from './skill-md/environment.ts';
import { codeOutsideScripts, entryMissing, entryNotRunnable, legacyPermissions, requiredField, resourceEscape, resourceMissing } from './skill-md/package.ts';
import { tagsTooMany } from './tags.ts';
import { textControlChars } from './text.ts';
import { versionsHistoryIncomplete, versionsVersionRejected } from './versions.ts';

/**
 * The one list of rules: every rule Skilldex reports, each a module in the one rule shape
 * (src/core/rule.ts). docs/rules.md, the rule sections of docs/security.md, CONTRIBUTING's rule
 * table, the site's security reference, SARIF's rule descriptors and the typed {@link RuleId}
 * all come from here, and the per-skill engine (./check-skill.ts) runs the checks of each scope
 * in this order.
 *
 * The validator's rules come first, in the order it meets them, then the pull-request rules, then
 * the scanner's. Two families are registered as their own lists, because their engines must run
 * without loading every rule: the registry rules (./cross-skill.ts), which a rebuild of cached
 * skills runs alone, and the scanner's (src/scanner/catalog.ts), which runs without the build
 * pipeline (`skilldex scan`, the site, worker threads).
 */
export const ALL_RULES = [
  // Discovery
  discoveryAmbiguous, discoveryMisnamedDeclaration, discoveryNestedSkill, discoveryNoDeclaration, discoveryTooDeep,
  // Files
  filesSymlink, filesSpecial, filesPath, filesTooLarge, filesSkillTooLarge, filesTooMany,
  filesCaseCollision, filesExecutableBinary, filesEncoding, filesTypescriptSyntax, filesBidi, filesUnicodeTag, filesZeroWidth,
  // SKILL.md frontmatter and body
  frontmatterMissing, frontmatterUnclosed, frontmatterLanguage, frontmatterTooLarge, frontmatterYaml, frontmatterAliasLimit,
  frontmatterTooDeep, frontmatterForbiddenKey, frontmatterNotAMap, frontmatterFieldType, frontmatterUnknownField,
  nameRequired, nameCharset, nameLength, nameHyphens, nameFolderMismatch, nameWindowsDevice,
  descriptionRequired, descriptionLength, descriptionPlaceholder,
  textControlChars, compatibilityLength, metadataNested, tagsTooMany,
  bodyEmpty, bodyTooLong, bodyTooLarge, bodyBrokenLink,
  // Extended SKILL.md package
  packageVersion, requiredField, resourceMissing, resourceEscape, codeOutsideScripts, entryMissing, entryNotRunnable, legacyPermissions, reservedEnvironment,
  // JSON Schemas inside skills
  schemaInvalid, schemaRemoteRef, schemaUnsafePattern,
  // skill.json function skills
  skillJsonSyntax, skillJsonTooDeep, skillJsonForbiddenKey, skillJsonMetaSchema, skillJsonBodyMissing,
  pipelineUndeclaredCall, pipelineDuplicateStep, pipelineTemplate, pipelineNotComposite,
  // A skill whose checks could not run to the end
  internalCheckFailed,
  internalHeldBack,
  // Across the registry, in the order they run (their engine runs them from these family lists)
  ...LINK_RULES,
  ...REGISTRY_RULES,
  // Earlier versions, from git history (docs/registry-format.md#versions)
  versionsHistoryIncomplete, versionsVersionRejected,
  // Security scan
  securityBlocked, securityFinding,
  // Pull requests
  publishVersionNotBumped, publishVersionLowered, publishMixedChange,
  // The security scanner
  ...SCANNER_RULES,
] as const satisfies readonly (ValidatorRule | ScannerRule)[];

/** Every rule id Skilldex reports, checked by the compiler wherever a rule is named. */
export type RuleId = (typeof ALL_RULES)[number]['meta']['id'];

/** One rule of the list. */
export type AnyRule = (typeof ALL_RULES)[number];

const BY_ID: ReadonlyMap<string, AnyRule> = new Map(ALL_RULES.map((r) => [r.meta.id, r]));

/** The rule registered under `id`. */
export const ruleById = <Id extends RuleId>(id: Id): Extract<AnyRule, { meta: { id: Id } }> => BY_ID.get(id) as Extract<AnyRule, { meta: { id: Id } }>;

/** The validator rules whose check runs in `scope`, in the order of the list. */
export const rulesOfScope = <S extends Scope>(scope: S): CheckedRule<string, S>[] =>
  ALL_RULES.filter((r): r is Extract<AnyRule, CheckedRule> & CheckedRule<string, S> => r.meta.engine !== 'scanner' && 'scope' in r.meta && r.meta.scope === scope);

/**
 * Scanner rules whose problem a validator rule reports in a build (its `meta.covers`), and that
 * rule: the build's scan leaves these to the validator, so one problem gives one diagnostic.
 */
export const COVERED_SCANNER_RULES: ReadonlyMap<string, ValidatorRule> = new Map(
  ALL_RULES.flatMap((r) => (r.meta.engine !== 'scanner' && 'covers' in r.meta && r.meta.covers ? r.meta.covers.map((id): [string, ValidatorRule] => [id, r as ValidatorRule]) : [])),
);
