import type { ProtocolEnvelope, SkillExecutionOutcome } from '../core/schemas/outcome.ts';

/**
 * The script protocol's stdout envelope for an outcome (docs/script-protocol.md), for agents that speak the script protocol:
 * `{success: true, action, data, message?, metadata}` or `{success: false, action, error}`.
 *
 * @example
 * toProtocolEnvelope(await registry.run('semver-tool', { version: '1.2.3' }, { action: 'parse' }), 'parse', 12);
 */
export function toProtocolEnvelope(outcome: SkillExecutionOutcome, action: string, executionTimeMs: number): ProtocolEnvelope {
  // What a pipeline did and what it suggests remembering matter on failure too (how far it got).
  const traces = {
    ...(outcome.memoryWrites?.length ? { memoryWrites: outcome.memoryWrites } : {}),
    ...(outcome.intermediateSteps?.length ? { intermediateSteps: outcome.intermediateSteps } : {}),
  };
  if (outcome.status === 'error') {
    return { success: false, action, error: outcome.error ?? { code: 'INTERNAL_ERROR', message: outcome.message ?? 'the skill failed' }, ...traces };
  }
  // The script's own metadata first; the runner's measurements win on the keys it owns.
  const metadata: Record<string, unknown> = { ...outcome.metadata, execution_time_ms: executionTimeMs };
  if (outcome.tokenUsage !== undefined) metadata.token_usage = outcome.tokenUsage;
  if (outcome.warnings?.length) metadata.warnings = outcome.warnings;
  return { success: true, action, data: outcome.output, ...(outcome.message ? { message: outcome.message } : {}), metadata, ...traces };
}
