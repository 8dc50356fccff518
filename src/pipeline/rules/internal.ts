import { isAbsolute, relative, sep } from 'node:path';
import type { RegistryConfig } from '../../core/schemas/config.ts';
import type { ValidatorDiagnostic } from '../../core/schemas/diagnostic.ts';
import { type DiagnosticOptions, DiagnosticSink, resolveDiagnostic, START } from '../diagnostics.ts';
import type { Position } from '../../core/parse/source-text.ts';
import type { SkillSource } from '../model.ts';
import { reportedRule, type ValidatorRule } from './rule.ts';
import { isPermissionDenied } from '../../core-node/permission-denied.ts';

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
  reportedBy: 'discovery for a folder that cannot be listed, and the per-skill phase (src/pipeline/phases/prepare.ts)',
});

/**
 * A skill that a problem keeps out although the registry's config turned the rule that found it
 * off or down to a warning: a declaration that cannot be parsed, or a name or description that
 * cannot be read or published, leaves nothing to publish at any severity. Without this error such
 * a skill vanished from the build with no reason given and a build that was not lenient passed.
 * Its own severity cannot be changed (the config loader refuses an override), nor can
 * `internal/check-failed`'s: silencing "the checks could not run" would hide the skill the same way.
 */
export const internalHeldBack = reportedRule({
  id: 'internal/held-back',
  severity: 'error',
  description: 'A problem that keeps a skill out at any severity (a declaration that cannot be parsed, a name or description that cannot be published, a linked, misnamed or too deep declaration, a duplicate name) was found by a rule skilldex.config.json turns off or makes a warning; the skill is held back all the same.',
  hint: 'remove the override of the rules it names from skilldex.config.json to see the problems, then fix them',
  reportedBy: 'the per-skill phase, discovery and the registry-wide rules, through heldBack and reportExclusion (src/pipeline/rules/internal.ts)',
});

/**
 * The `internal/held-back` error of a skill left without a draft by problems the registry turned
 * off or downgraded, naming those rules. Always an error: overriding it would hide the skill again.
 */
export function heldBack(source: Pick<SkillSource, 'dir' | 'declaration' | 'folderName'>, weakened: ReadonlySet<string>): ValidatorDiagnostic[] {
  const rules = [...weakened].sort().map((id) => `'${id}'`);
  const why = rules.length === 0 ? 'for a problem no rule reported' : `for problems found by ${rules.join(', ')}, which skilldex.config.json turns off or makes ${rules.length === 1 ? 'a warning' : 'warnings'}`;
  const held = resolveDiagnostic(internalHeldBack, {}, `${source.dir}/${source.declaration}`, START, `'${source.dir}' cannot be published ${why}: it has no readable declaration, name or description to publish`, { skill: source.folderName });
  return held ? [held] : [];
}

/**
 * Reports a problem that keeps a folder or a skill out of the registry (a linked or misnamed
 * declaration, a folder too deep, a duplicate name). Where the config turned `rule` off or made it a
 * warning, the skill would vanish with no error and a strict build would pass: `internal/held-back`
 * then says so, whatever the config.
 */
export function reportExclusion(sink: DiagnosticSink, rule: ValidatorRule, file: string, at: Position, message: string, options: DiagnosticOptions = {}): void {
  if (sink.report(rule, file, at, message, options) === 'error') return;
  const held = resolveDiagnostic(internalHeldBack, {}, file, at, `not published: ${message} ('${rule.meta.id}', which skilldex.config.json turns off or makes a warning)`, {
    hint: `remove the override of '${rule.meta.id}' from skilldex.config.json, then fix the problem`,
    ...(options.skill ? { skill: options.skill } : {}),
  });
  if (held) sink.diagnostics.push(held);
}

/**
 * The `internal/check-failed` error of a skill whose checks did not run to the end, saying why.
 * The config loader refuses to change the rule's severity; a config built in code that turns it
 * off gets none, and the skill, with no draft, is held back all the same.
 */
export function checkFailed(config: RegistryConfig, source: Pick<SkillSource, 'dir' | 'declaration' | 'folderName'>, reason: string, place?: { file: string; hint: string }): ValidatorDiagnostic[] {
  const sink = new DiagnosticSink(config.rules);
  sink.report(internalCheckFailed, place?.file ?? `${source.dir}/${source.declaration}`, START, `the skill could not be checked: ${reason}`, { skill: source.folderName, ...(place ? { hint: place.hint } : {}) });
  return sink.diagnostics;
}

/**
 * {@link checkFailed}'s reason and place for an error the file system gave while a skill was read:
 * a file or folder of the registry this user may not read is named (from the registry root), with
 * how to make it readable, instead of the system's message and a hint to report a bug.
 */
export function readFailure(error: unknown, root: string): { reason: string; place?: { file: string; hint: string } } {
  const { code, path } = (error ?? {}) as NodeJS.ErrnoException;
  if (isPermissionDenied(code) && typeof path === 'string') {
    const rel = relative(root, path).split(sep).join('/');
    if (rel && !rel.startsWith('..') && !isAbsolute(rel)) return { reason: `'${rel}' cannot be read (permission denied, ${code})`, place: { file: rel, hint: `make it readable (chmod a+rX ${rel}), or remove it` } };
  }
  return { reason: error instanceof Error ? error.message : String(error) };
}
