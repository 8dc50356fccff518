import type { ProtocolError, ProtocolErrorCode, SkillExecutionOutcome } from '../../core/schemas/outcome.ts';

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

/** A failed try with one of the protocol's codes: the runner never invents a code a caller cannot look up. */
export const failed = (code: ProtocolErrorCode, message: string, details?: unknown): Attempt => ({ ok: false, error: details === undefined ? { code, message } : { code, message, details } });
