import { z } from 'zod';
import { MemoryEntry } from './memory.ts';

/** The script protocol's standard error codes, plus Skilldex's own for the process boundary. */
export const ProtocolErrorCode = z.enum([
  'INVALID_JSON', 'UNKNOWN_ACTION', 'MISSING_PARAM', 'INVALID_PARAM', 'TIMEOUT', 'PERMISSION_DENIED',
  'DATA_NOT_FOUND', 'EXTERNAL_SERVICE_ERROR', 'INTERNAL_ERROR',
  // Skilldex additions
  'OUTPUT_TOO_LARGE', 'INVALID_OUTPUT', 'VERIFICATION_FAILED', 'SKILL_NOT_FOUND', 'BLOCKED_BY_SCAN',
  'SANDBOX_UNAVAILABLE', 'INTERPRETER_NOT_FOUND', 'CANCELLED',
]);
export type ProtocolErrorCode = z.infer<typeof ProtocolErrorCode>;
/**
 * The codes a skill itself may report (the script protocol's standard set); the rest are the
 * runtime's. The module harness lets a thrown error keep one of these and turns any other into
 * INTERNAL_ERROR.
 */
export const SkillErrorCode = ProtocolErrorCode.extract([
  'INVALID_JSON', 'UNKNOWN_ACTION', 'MISSING_PARAM', 'INVALID_PARAM', 'TIMEOUT', 'PERMISSION_DENIED',
  'DATA_NOT_FOUND', 'EXTERNAL_SERVICE_ERROR', 'INTERNAL_ERROR',
]);
export type SkillErrorCode = z.infer<typeof SkillErrorCode>;

/** What a protocol script reads on stdin (docs/script-protocol.md). */
export const ProtocolRequest = z.object({
  action: z.string(),
  params: z.record(z.string(), z.unknown()).optional(),
  context: z.record(z.string(), z.unknown()).optional(),
});
export type ProtocolRequest = z.infer<typeof ProtocolRequest>;

export const ProtocolError = z.object({
  code: z.string(),
  message: z.string(),
  details: z.unknown().optional(),
});
export type ProtocolError = z.infer<typeof ProtocolError>;

/** The one JSON envelope a protocol script writes to stdout. */
export const ProtocolEnvelope = z.union([
  z.looseObject({
    success: z.literal(true),
    action: z.string().optional(),
    data: z.unknown(),
    message: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
  z.looseObject({
    success: z.literal(false),
    action: z.string().optional(),
    error: ProtocolError,
  }),
]);
export type ProtocolEnvelope = z.infer<typeof ProtocolEnvelope>;

/** A memory write suggestion (extended package outcome). */
export const MemoryWriteSuggestion = z.looseObject({
  ownerType: z.enum(['user', 'household', 'task', 'group']).optional(),
  ownerId: z.string().optional(),
  type: z.enum(['preference', 'fact', 'event', 'summary']),
  importance: z.number(),
  content: z.string(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type MemoryWriteSuggestion = z.infer<typeof MemoryWriteSuggestion>;

/** A step trace (extended package outcome). */
export const StepTrace = z.looseObject({
  stepId: z.string(),
  stepName: z.string(),
  input: z.unknown(),
  output: z.unknown(),
  /** Milliseconds. */
  duration: z.number(),
  error: z.unknown().optional(),
  timestamp: z.number().optional(),
});
export type StepTrace = z.infer<typeof StepTrace>;

/** `SkillExecutionOutcome` (docs/runtime.md#outcomes): what `run()` returns for every mode. */
export const SkillExecutionOutcome = z
  .object({
    output: z.unknown(),
    format: z.enum(['object', 'text', 'markdown', 'json']).optional(),
    status: z.enum(['success', 'error', 'partial']).optional(),
    message: z.string().optional(),
    /** A protocol script's own envelope `metadata` (source, counts…), kept as the script wrote it. */
    metadata: z.record(z.string(), z.unknown()).optional(),
    tokenUsage: z.number().optional(),
    warnings: z.array(z.string()).optional(),
    memoryWrites: z.array(MemoryWriteSuggestion).optional(),
    intermediateSteps: z.array(StepTrace).optional(),
    /** Present when status is `error`. */
    error: ProtocolError.optional(),
    /** The `memoryWrites` the runtime wrote to the memory service, as stored (docs/context.md#memory-writes). */
    memoryCommitted: z.array(MemoryEntry).optional(),
    /** For a `cacheable` skill: whether this result came from the results cache, and until when it is kept (ISO 8601). */
    cache: z.object({ hit: z.boolean(), storedAt: z.string(), expiresAt: z.string() }).optional(),
  })
  .meta({ id: 'SkillExecutionOutcome' });
export type SkillExecutionOutcome = z.infer<typeof SkillExecutionOutcome>;
