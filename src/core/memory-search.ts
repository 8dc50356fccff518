import type { MemoryEntry, MemoryHit } from './schemas/memory.ts';
import { createSearchIndex, searchIndex, type SearchIndex } from './search.ts';

/** Longest snippet a hit carries; the whole entry stays in the store. */
const SNIPPET_CHARS = 280;

/** Memory entries made searchable once, for any number of searches (see {@link searchMemory}). */
export type MemoryIndex = SearchIndex<{ name: string; description: string; tags: string[]; keywords: string[]; entry: MemoryEntry }>;

/** Indexes memory entries over their content, type and owner id. */
export function memoryIndex(entries: readonly MemoryEntry[]): MemoryIndex {
  return createSearchIndex(entries.map((entry) => ({ name: entry.id, description: entry.content, tags: entry.type ? [entry.type] : [], keywords: entry.ownerId ? [entry.ownerId] : [], entry })));
}

/**
 * Ranks memory entries against a query with the catalog's own BM25F ranking (so `skilldex search`
 * and memory search agree, CJK included), over the content, the type and the owner id. Takes the
 * entries, or an index of them from {@link memoryIndex} when several searches read the same entries.
 *
 * @example
 * searchMemory(entries, 'oat milk', 3); // [{ id, snippet: 'prefers oat milk', score, path: 'memory/…' }]
 */
export function searchMemory(entries: readonly MemoryEntry[] | MemoryIndex, query: string, limit = 5): MemoryHit[] {
  const index = 'postings' in entries ? entries : memoryIndex(entries);
  const hits = searchIndex(index, query, { limit: Math.max(1, Math.min(Math.floor(limit), 100)) });
  return hits.map(({ doc: { entry }, score }) => ({
    id: entry.id,
    snippet: entry.content.length > SNIPPET_CHARS ? `${entry.content.slice(0, SNIPPET_CHARS)}…` : entry.content,
    score: Math.round(score * 1000) / 1000,
    path: `memory/${entry.id}`,
    ...(entry.type ? { type: entry.type } : {}),
    ...(entry.importance === undefined ? {} : { importance: entry.importance }),
  }));
}
