import { randomUUID } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { appendFile, open, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { memoryIndex, searchMemory, type MemoryIndex } from '../../core/memory-search.ts';
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
  /** The file's entries, and the identity of the file they were read from (see `search`). */
  const read = async (): Promise<{ entries: MemoryEntry[]; identity: string }> => {
    let handle;
    try {
      handle = await open(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], identity: 'none' };
      throw error;
    }
    try {
      // Stat and read through one descriptor, so the identity is that of the bytes read (or older).
      const info = await handle.stat({ bigint: true });
      return { entries: parseEntries(await handle.readFile('utf8')), identity: identityOf(info) };
    } finally {
      await handle.close();
    }
  };
  // Indexing a full store (64 MB) took ~3.5 s, and every search did it again: a run could spend
  // its whole deadline re-reading the same file. The index is kept until the file changes.
  let cached: { identity: string; index: MemoryIndex } | undefined;
  const currentIdentity = async (): Promise<string> => {
    const info = await stat(file, { bigint: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    return info ? identityOf(info) : 'none';
  };
  return {
    entries: async () => (await read()).entries,
    async search(query, limit = 5) {
      if (!cached || cached.identity !== (await currentIdentity())) {
        const { entries, identity } = await read();
        cached = { identity, index: memoryIndex(entries) };
      }
      return searchMemory(cached.index, query, limit);
    },
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

/** Which file, and which version of it: an append changes its size, a rewrite its inode or mtime. */
const identityOf = (info: BigIntStats): string => `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}`;

/** One entry per JSON line; a line that does not parse (a torn write, a hand edit) is skipped. */
function parseEntries(text: string): MemoryEntry[] {
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
}
