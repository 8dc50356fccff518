import type { RegistryConfig } from '../../../core/schemas/config.ts';
import type { Frontmatter } from '../../../core/parse/frontmatter.ts';
import type { SourceText } from '../../../core/parse/source-text.ts';
import type { SkillSource } from '../../model.ts';
import type { DiagnosticSink } from '../../diagnostics.ts';
import { RULES_BY_ID, type RuleInfo, type ValidatorRuleId } from '../catalog.ts';

/** What a SKILL.md rule sees: the folder, the split file and its frontmatter as data. */
export interface SkillMdContext {
  src: SkillSource;
  /** `skills/<dir>/SKILL.md`. */
  file: string;
  source: SourceText;
  fm: Frontmatter;
  data: Record<string, unknown>;
  config: RegistryConfig;
  /** True when a field makes this an extended package. */
  isPackage: boolean;
  /** The skill's name for diagnostics. */
  skill: string;
  sink: DiagnosticSink;
}

/**
 * One SKILL.md rule module, ESLint style: its metadata (id, default severity, description from
 * the catalog, and the hint it gives) and a check that reports through `report`, which places a
 * problem at a frontmatter path. Registered in `SKILL_MD_RULES` (./index.ts).
 */
export interface SkillMdRule {
  meta: RuleInfo & { id: ValidatorRuleId; hint: string };
  /** `report` places a problem at a frontmatter path; `hint` replaces the rule's own for this one problem. */
  check(ctx: SkillMdContext, report: (path: (string | number)[], message: string, hint?: string) => void): void;
}

export function defineSkillMdRule(id: ValidatorRuleId, hint: string, check: SkillMdRule['check']): SkillMdRule {
  return { meta: { ...(RULES_BY_ID.get(id) as RuleInfo), id, hint }, check };
}
