import type { RegistryConfig } from '../../core/schemas/config.ts';
import type { ValidatorDiagnostic } from '../../core/schemas/diagnostic.ts';
import type { DraftManifest, SkillSource } from '../model.ts';
import { DiagnosticSink, START } from '../diagnostics.ts';
import { manifestFromSkillJson, manifestFromSkillMd } from '../normalize.ts';
import { checkSkillFiles, checkSkillJson, checkSkillMd } from '../rules/check-skill.ts';
import type { RegistryMember } from '../rules/rule.ts';

/** What one skill folder's own rules found, and its draft manifest when it parsed. */
export interface ParsedSkill {
  diagnostics: ValidatorDiagnostic[];
  draft?: DraftManifest;
  locate: RegistryMember['locate'];
}

/**
 * The parse phase: every per-skill rule over a folder already in memory, and the draft manifest.
 * Pure: no disk, no clock, so the build cache can stand in for it.
 *
 * @example
 * const { draft, diagnostics } = parseSkill(source, RegistryConfig.parse({}));
 */
export function parseSkill(source: SkillSource, config: RegistryConfig, sink = new DiagnosticSink(config.rules)): ParsedSkill {
  checkSkillFiles(source, config, sink);
  if (source.declaration === 'SKILL.md') {
    const parsed = checkSkillMd(source, config, sink);
    if (parsed) return { diagnostics: sink.diagnostics, draft: manifestFromSkillMd(source, parsed), locate: parsed.locate };
  } else {
    const parsed = checkSkillJson(source, config, sink);
    if (parsed) return { diagnostics: sink.diagnostics, draft: manifestFromSkillJson(source, parsed), locate: parsed.locate };
  }
  return { diagnostics: sink.diagnostics, locate: () => START };
}
