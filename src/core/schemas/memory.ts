import { z } from 'zod';

/** Memory types of the memory-write format (docs/context.md#memory). */
const MEMORY_TYPES = ['preference', 'fact', 'event', 'summary'] as const;

/** One entry in a memory store: what `ctx.memory.write` takes once the store has given it an id. */
export const MemoryEntry = z
  .object({
    id: z.string(),
    content: z.string(),
    type: z.enum(MEMORY_TYPES).optional(),
    /** As the writer gave it: 1–5 in the package outcome form, 0–1 in the ABP form. */
    importance: z.number().optional(),
    ownerType: z.enum(['user', 'household', 'task', 'group']).optional(),
    ownerId: z.string().optional(),
    /** The skill that wrote it, when the runtime committed it. */
    skill: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    /** ISO 8601, when the store received it. */
    createdAt: z.string().optional(),
  })
  .meta({ id: 'MemoryEntry' });
export type MemoryEntry = z.infer<typeof MemoryEntry>;

/** What a skill may ask a memory store to keep (`ctx.memory.write`, or a result's memoryWrites). */
export const MemoryInput = MemoryEntry.omit({ id: true, createdAt: true });
export type MemoryInput = z.infer<typeof MemoryInput>;

/** A search hit: the shape the memory search example skill returns. */
export const MemoryHit = z.object({
  id: z.string(),
  snippet: z.string(),
  score: z.number(),
  /** `memory/<id>`: where the hit lives, for a caller that cites it. */
  path: z.string(),
  type: z.enum(MEMORY_TYPES).optional(),
  importance: z.number().optional(),
});
export type MemoryHit = z.infer<typeof MemoryHit>;
