import type { RegistryConfig } from '../../core/schemas/config.ts';
import type { ValidatorDiagnostic } from '../../core/schemas/diagnostic.ts';
import { DiagnosticSink, START } from '../diagnostics.ts';
import type { SkillSource } from '../model.ts';
import { reportedRule } from './rule.ts';

/**
 * A skill whose checks could not run to the end: a file vanished or could not be read while it
 * was being read, or a check failed on something it should have reported (a bug in Skilldex), or
 * the worker thread checking it stopped. The skill is held back, the other skills are unaffected,
 * and the message says what failed.
 */
export const internalCheckFailed = reportedRule({
  id: 'internal/check-failed',
  severity: 'error',
  description: 'The skill could not be read or checked to the end; it is held back, and the other skills are checked as usual.',
  hint: "if the message names a file of the skill, fix or remove that file; otherwise run 'skilldex validate' on the skill alone and report the message as a Skilldex bug",
  reportedBy: 'the per-skill phase (src/pipeline/phases/prepare.ts)',
});

/**
 * The `internal/check-failed` error of a skill whose checks did not run to the end, saying why
 * (none if the registry turned the rule off: the skill, with no draft, is held back all the same).
 */
export function checkFailed(config: RegistryConfig, source: Pick<SkillSource, 'dir' | 'declaration' | 'folderName'>, reason: string): ValidatorDiagnostic[] {
  const sink = new DiagnosticSink(config.rules);
  sink.report(internalCheckFailed, `${source.dir}/${source.declaration}`, START, `the skill could not be checked: ${reason}`, { skill: source.folderName });
  return sink.diagnostics;
}
