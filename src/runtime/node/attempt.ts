import type { ProtocolError, SkillExecutionOutcome } from '../../core/schemas/outcome.ts';

/** What one try of a skill produced, before retries and output validation turn it into an outcome. */
export type Attempt =
  | {
      ok: true;
      output: unknown;
      /** The raw script-protocol envelope, for protocol skills whose output schema describes the envelope. */
      envelope?: Record<string, unknown>;
      extras?: Omit<SkillExecutionOutcome, 'output'>;
    }
  | { ok: false; error: ProtocolError; extras?: Omit<SkillExecutionOutcome, 'output'> };

export const failed = (code: string, message: string, details?: unknown): Attempt => ({ ok: false, error: details === undefined ? { code, message } : { code, message, details } });
