import type { RuleInfo } from '../pipeline/rules/catalog.ts';
import type { RegistryConfig } from '../core/schemas/config.ts';
import type { Diagnostic } from '../core/schemas/diagnostic.ts';
import { resolveDiagnostic } from '../pipeline/diagnostics.ts';

/**
 * Rules that only make sense for a pull request: they compare the working tree with a base
 * (a git ref or a published index.json), so they live beside the publish flow rather than in the
 * build's catalog; they are registered in the one rule list (src/pipeline/rules/all-rules.ts) and
 * reported through the same `Diagnostic` shape and formatters, and a
 * registry overrides their severity in `skilldex.config.json` `rules` like any other rule.
 */
export const PUBLISH_RULES = [
  {
    id: 'publish/version-not-bumped',
    severity: 'error',
    description: 'A published skill version is immutable: content changed since the base (git ref or published index.json) but `version` did not.',
  },
  {
    id: 'publish/version-lowered',
    severity: 'error',
    description: '`version` is lower than in the base; versions only move forward.',
  },
  {
    id: 'publish/mixed-change',
    severity: 'warning',
    description: 'The pull request changes build code or workflows together with skills; a maintainer must review it.',
  },
] as const satisfies readonly RuleInfo[];

/** The publish rules' ids, part of the one typed rule id union in src/pipeline/rules/all-rules.ts. */
export type PublishRuleId = (typeof PUBLISH_RULES)[number]['id'];

const BY_ID: ReadonlyMap<string, RuleInfo> = new Map(PUBLISH_RULES.map((r): [string, RuleInfo] => [r.id, r]));

/**
 * Makes a publish diagnostic, resolving the configured severity exactly as the build's
 * `DiagnosticSink` does. Returns undefined when the registry turned the rule off.
 *
 * @example
 * publishDiagnostic('publish/version-lowered', 'skills/x/SKILL.md', { line: 4, column: 10 }, 'version 1.0.0 is lower than 1.2.0', {}, { skill: 'x' })
 */
export function publishDiagnostic(
  rule: PublishRuleId,
  file: string,
  at: { line: number; column: number },
  message: string,
  overrides: RegistryConfig['rules'] = {},
  options: { hint?: string; skill?: string } = {},
): Diagnostic | undefined {
  const info = BY_ID.get(rule);
  if (!info) throw new Error(`unknown publish rule id '${rule}' (add it to src/publish/rules.ts)`);
  return resolveDiagnostic(info, overrides, file, at, message, options);
}
