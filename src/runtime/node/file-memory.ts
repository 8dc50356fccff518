import { randomUUID } from 'node:crypto';
import { appendFile, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { searchMemory } from '../../core/memory-search.ts';
import { MemoryEntry, type MemoryInput } from '../../core/schemas/memory.ts';
import { MAX_MEMORY_CHARS, memoryFull, type MemoryService } from '../context-services.ts';
import { makeFolder } from '../../core-node/make-folder.ts';

/**
 * The default memory store: one JSON line per entry in `<cacheDir>/memory/entries.jsonl`, at most
 * `maxBytes` ({@link MAX_MEMORY_CHARS}), searched with `searchMemory` (the catalog's own ranking).
 * Appending one line per write keeps concurrent runs from overwriting each other's entries; a line
 * that does not parse (a torn write, a hand edit) is skipped rather than failing every search.
 *
 * @example
 * const memory = fileMemoryStore(join(cacheDir, 'memory'));
 * await memory.write({ type: 'preference', importance: 3, content: 'prefers oat milk' });
 * await memory.search('milk'); // [{ id, snippet: 'prefers oat milk', score, path: 'memory/…' }]
 */
export function fileMemoryStore(dir: string, maxBytes = MAX_MEMORY_CHARS): MemoryService & { entries(): Promise<MemoryEntry[]> } {
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
    search: async (query, limit = 5) => searchMemory(await entries(), query, limit),
    async write(input: MemoryInput) {
      const entry = MemoryEntry.parse({ ...input, id: `m-${randomUUID().slice(0, 13)}`, createdAt: new Date().toISOString() });
      const line = `${JSON.stringify(entry)}\n`;
      const size = (await stat(file).catch(() => undefined))?.size ?? 0;
      if (size + Buffer.byteLength(line) > maxBytes) throw new Error(memoryFull(`${Math.round(size / 1024 / 1024)} MB in ${file}`));
      makeFolder(dirname(file));
      await appendFile(file, line);
      return entry;
    },
  };
}
