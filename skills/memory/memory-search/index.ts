/**
 * memory_search: keyword search over the agent's long-term memory. The memory itself is the
 * runtime's (or the agent's own) memory service, reached through ctx.memory (docs/context.md).
 */

interface MemoryHit {
  id: string;
  snippet: string;
  score: number;
  path: string;
  type?: string;
}

interface Ctx {
  memory: { search(query: string, limit?: number): Promise<MemoryHit[]> };
}

export async function execute(input: { query: string; limit?: number }, ctx: Ctx): Promise<{ results: Omit<MemoryHit, 'id'>[] }> {
  const limit = Math.max(1, Math.min(Math.floor(input.limit ?? 5), 100));
  const hits = await ctx.memory.search(input.query, limit);
  return { results: hits.map(({ snippet, score, path, type }) => (type ? { snippet, score, path, type } : { snippet, score, path })) };
}
