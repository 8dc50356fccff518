import { bodyEmpty, bodyTooLarge, bodyTooLong } from './body.ts';
import { compatibilityLength, metadataNested, packageVersion, unknownField } from './fields.ts';
import { codeOutsideScripts, entryMissing, legacyPermissions, requiredField, resourceEscape, resourceMissing } from './package.ts';
import type { SkillMdRule } from './rule.ts';

export type { SkillMdContext, SkillMdRule } from './rule.ts';

/**
 * The SKILL.md rules that look at one concern each, registered here and run in this order over
 * every SKILL.md whose frontmatter parsed. (Name, description, control characters, field types and
 * schemas are shared with skill.json and live in ../names.ts, ../text.ts and ../schemas.ts.)
 */
export const SKILL_MD_RULES: readonly SkillMdRule[] = [
  compatibilityLength, metadataNested, unknownField, packageVersion,
  requiredField, legacyPermissions, entryMissing, resourceEscape, resourceMissing, codeOutsideScripts,
  bodyEmpty, bodyTooLong, bodyTooLarge,
];
