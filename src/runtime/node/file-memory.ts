import { randomUUID } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { MemoryEntry, type MemoryHit, type MemoryInput } from '../../core/schemas/memory.ts';
import { createSearchIndex, searchIndex } from '../../core/search.ts';
import type { MemoryService } from '../context-services.ts';

/** Longest snippet a hit carries; the whole entry stays in the store. */
const SNIPPET_CHARS = 280;

/**
 * The default memory store: one JSON line per entry in `<cacheDir>/memory/entries.jsonl`, searched
 * with the catalog's own BM25F ranking (src/core/search.ts) over content, type and owner.
 * Appending one line per write keeps concurrent runs from overwriting each other's entries; a line
 * that does not parse (a torn write, a hand edit) is skipped rather than failing every search.
 *
 * @example
 * const memory = fileMemoryStore(join(cacheDir, 'memory'));
 * await memory.write({ type: 'preference', importance: 3, content: 'prefers oat milk' });
 * await memory.search('milk'); // [{ id, snippet: 'prefers oat milk', score, path: 'memory/…' }]
 */
export function fileMemoryStore(dir: string): MemoryService & { entries(): Promise<MemoryEntry[]> } {
  const file = join(dir, 'entries.jsonl');
  const entries = async (): Promise<MemoryEntry[]> => {
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    const out: MemoryEntry[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const parsed = MemoryEntry.safeParse(JSON.parse(line));
        if (parsed.success) out.push(parsed.data);
      } catch {
        // skipped: see above
      }
    }
    return out;
  };
  return {
    entries,
    async search(query, limit = 5) {
      const all = await entries();
      const docs = all.map((entry) => ({ name: entry.id, description: entry.content, tags: entry.type ? [entry.type] : [], keywords: entry.ownerId ? [entry.ownerId] : [], entry }));
      const hits = searchIndex(createSearchIndex(docs), query, { limit: Math.max(1, Math.min(Math.floor(limit), 100)) });
      return hits.map(({ doc, score }): MemoryHit => ({
        id: doc.entry.id,
        snippet: doc.entry.content.length > SNIPPET_CHARS ? `${doc.entry.content.slice(0, SNIPPET_CHARS)}…` : doc.entry.content,
        score: Math.round(score * 1000) / 1000,
        path: `memory/${doc.entry.id}`,
        ...(doc.entry.type ? { type: doc.entry.type } : {}),
        ...(doc.entry.importance === undefined ? {} : { importance: doc.entry.importance }),
      }));
    },
    async write(input: MemoryInput) {
      const entry = MemoryEntry.parse({ ...input, id: `m-${randomUUID().slice(0, 13)}`, createdAt: new Date().toISOString() });
      await mkdir(dirname(file), { recursive: true });
      await appendFile(file, `${JSON.stringify(entry)}\n`);
      return entry;
    },
  };
}
