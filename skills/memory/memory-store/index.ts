/**
 * memory_store: writes one entry to the agent's long-term memory through ctx.memory
 * (docs/context.md). The owner defaults to the run context's user, so "remember that I …" needs
 * no id from the model.
 */

type MemoryType = 'preference' | 'fact' | 'event' | 'summary';

interface Input {
  content: string;
  type?: MemoryType;
  importance?: number;
  ownerType?: 'user' | 'household' | 'task' | 'group';
  ownerId?: string;
}

interface Ctx {
  context?: { user_id?: unknown; userId?: unknown };
  memory: { write(entry: Record<string, unknown>): Promise<{ id: string }> };
}

export async function execute(input: Input, ctx: Ctx): Promise<{ id: string; path: string; stored: boolean }> {
  const contextUser = ctx.context?.user_id ?? ctx.context?.userId;
  const ownerId = input.ownerId ?? (typeof contextUser === 'string' ? contextUser : undefined);
  const entry = {
    content: input.content.trim(),
    type: input.type ?? 'fact',
    importance: input.importance ?? 3,
    ...(ownerId === undefined ? {} : { ownerType: input.ownerType ?? 'user', ownerId }),
  };
  const { id } = await ctx.memory.write(entry);
  return { id, path: `memory/${id}`, stored: true };
}
