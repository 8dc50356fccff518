import type { MemoryEntry, MemoryHit } from './schemas/memory.ts';
import { createSearchIndex, searchIndex } from './search.ts';

/** Longest snippet a hit carries; the whole entry stays in the store. */
const SNIPPET_CHARS = 280;

/**
 * Ranks memory entries against a query with the catalog's own BM25F ranking (so `skilldex search`
 * and memory search agree, CJK included), over the content, the type and the owner id.
 *
 * @example
 * searchMemory(entries, 'oat milk', 3); // [{ id, snippet: 'prefers oat milk', score, path: 'memory/…' }]
 */
export function searchMemory(entries: readonly MemoryEntry[], query: string, limit = 5): MemoryHit[] {
  const docs = entries.map((entry) => ({ name: entry.id, description: entry.content, tags: entry.type ? [entry.type] : [], keywords: entry.ownerId ? [entry.ownerId] : [], entry }));
  const hits = searchIndex(createSearchIndex(docs), query, { limit: Math.max(1, Math.min(Math.floor(limit), 100)) });
  return hits.map(({ doc: { entry }, score }) => ({
    id: entry.id,
    snippet: entry.content.length > SNIPPET_CHARS ? `${entry.content.slice(0, SNIPPET_CHARS)}…` : entry.content,
    score: Math.round(score * 1000) / 1000,
    path: `memory/${entry.id}`,
    ...(entry.type ? { type: entry.type } : {}),
    ...(entry.importance === undefined ? {} : { importance: entry.importance }),
  }));
}
