import type { MemoryEntry, MemoryInput } from '../../core/schemas/memory.ts';
import { MemoryWriteSuggestion } from '../../core/schemas/outcome.ts';
import type { MemoryService } from '../context-services.ts';

/**
 * Commits a result's `memoryWrites` to the memory service and returns what was written, for the
 * outcome's `memoryCommitted`. Both forms of a suggestion are accepted (docs/context.md#memory-writes):
 *
 * - the package outcome form: `{ownerType, ownerId, type, importance (1–5), content, metadata?}`;
 * - the ABP form: `{type, content, importance (0–1), metadata?}`, with no owner; the owner is then
 *   the run context's `user_id` / `userId`, when there is one.
 *
 * Type and importance are kept as the skill gave them. A suggestion that is not of either form is
 * not written; it becomes a warning, so one bad entry does not lose the others.
 */
export async function commitMemoryWrites(
  suggestions: readonly unknown[],
  memory: MemoryService,
  run: { skill: string; context?: Record<string, unknown> },
): Promise<{ committed: MemoryEntry[]; warnings: string[] }> {
  const committed: MemoryEntry[] = [];
  const warnings: string[] = [];
  const contextUser = run.context?.user_id ?? run.context?.userId;
  for (const [index, raw] of suggestions.entries()) {
    const parsed = MemoryWriteSuggestion.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      warnings.push(`${run.skill}: memoryWrites[${index}] was not written: ${issue ? `${issue.path.join('.') || 'entry'}: ${issue.message}` : 'not a memory write'} (see docs/context.md#memory-writes)`);
      continue;
    }
    const { ownerType, ownerId, type, importance, content, metadata } = parsed.data;
    const owner = ownerId !== undefined ? { ownerType, ownerId } : typeof contextUser === 'string' ? { ownerType: 'user' as const, ownerId: contextUser } : {};
    const entry: MemoryInput = { content, type, importance, skill: run.skill, ...owner, ...(metadata ? { metadata } : {}) };
    try {
      committed.push(await memory.write(entry));
    } catch (error) {
      warnings.push(`${run.skill}: memoryWrites[${index}] was not written: the memory service failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { committed, warnings };
}
