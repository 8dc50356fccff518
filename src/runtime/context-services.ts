/**
 * The services a running skill reaches through its context (docs/context.md): `ctx.memory`,
 * `ctx.session` and `ctx.scratch` in a skill.json module, the same three on the `context` argument
 * of a package's `execute(parameters, context, config)`.
 *
 * Each is a small interface so a library user can plug in their own (a vector store, a chat
 * session from their agent) through `registry.run(name, input, { memory, session, scratch })`.
 * The runtime's defaults: a file-backed memory store and session store under the cache folder
 * (`node/file-memory.ts`, `node/file-session.ts`) and a fresh in-memory scratch per run.
 *
 * The skill itself runs in another, sandboxed process; it never holds these objects. Its calls
 * travel as requests over a channel to the runner, which calls the services here
 * (`node/service-channel.ts`). So every argument and result must be plain JSON.
 */
import { searchMemory } from '../core/memory-search.ts';
import type { MemoryEntry, MemoryHit, MemoryInput } from '../core/schemas/memory.ts';

/** Long-term memory: keyword search over entries, and writes. */
export interface MemoryService {
  /** The entries best matching `query`, best first, at most `limit` (default 5). */
  search(query: string, limit?: number): Promise<MemoryHit[]>;
  /** Keeps an entry and returns it with the id (and time) the store gave it. */
  write(entry: MemoryInput): Promise<MemoryEntry>;
}

/** A key-value store of JSON values: the session (one conversation) and the scratch (one run) share this shape. */
export interface KeyValueStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
  keys(): Promise<string[]>;
}

/** The services of one run. */
export interface ContextServices {
  memory: MemoryService;
  session: KeyValueStore;
  scratch: KeyValueStore;
}

/** The methods a skill may call on each service; anything else is refused at the channel. */
export const SERVICE_METHODS = {
  memory: ['search', 'write'],
  session: ['get', 'set', 'delete', 'keys'],
  scratch: ['get', 'set', 'delete', 'keys'],
} as const satisfies Record<keyof ContextServices, readonly string[]>;

/**
 * What an in-memory store holds at most, in characters of JSON: the scratch lives in the runner,
 * outside the sandbox's memory limit, so a skill must not be able to grow it without end.
 */
export const MAX_HELD_CHARS = 16 * 1024 * 1024;

/**
 * An in-memory key-value store of at most `maxChars` characters of JSON (keys and values). Values
 * are stored as JSON text, so a caller that changes an object after `set` does not change what is
 * stored, exactly as across the process boundary.
 *
 * @example
 * const scratch = memoryKeyValueStore();
 * await scratch.set('draft', { words: 120 });
 */
export function memoryKeyValueStore(maxChars = MAX_HELD_CHARS): KeyValueStore {
  const values = new Map<string, string>();
  let held = 0;
  return {
    get: async (key) => (values.has(key) ? JSON.parse(values.get(key) as string) : null),
    set: async (key, value) => {
      const text = JSON.stringify(value ?? null);
      const after = held - (values.has(key) ? key.length + (values.get(key) as string).length : 0) + key.length + text.length;
      if (after > maxChars) throw new Error(`the store would hold more than ${maxChars} characters; delete keys it no longer needs`);
      values.set(key, text);
      held = after;
    },
    delete: async (key) => {
      const text = values.get(key);
      if (text === undefined) return false;
      held -= key.length + text.length;
      return values.delete(key);
    },
    keys: async () => [...values.keys()].sort(),
  };
}

/**
 * An in-memory memory store, ranked like the file store: for a host without a cache folder, for a
 * browser, and for tests.
 *
 * @example
 * const memory = memoryStore();
 * await memory.write({ content: 'prefers tea' });
 */
export function memoryStore(maxChars = MAX_MEMORY_CHARS): MemoryService {
  const entries: MemoryEntry[] = [];
  let held = 0;
  return {
    search: async (query, limit) => searchMemory(entries, query, limit),
    write: async (input) => {
      const entry = { ...input, id: `m-${entries.length + 1}`, createdAt: new Date().toISOString() };
      const size = JSON.stringify(entry).length;
      if (held + size > maxChars) throw new Error(memoryFull(`${maxChars} characters`));
      entries.push(entry);
      held += size;
      return entry;
    },
  };
}

/**
 * What a memory store keeps at most (characters of JSON in memory, bytes in the file store). A
 * store is shared by every skill that runs with it and outlives the runs, so one skill must not
 * be able to fill the disk with it, nor make every later search read gigabytes.
 */
export const MAX_MEMORY_CHARS = 64 * 1024 * 1024;

/** The refusal of a write to a full memory store. */
export const memoryFull = (size: string): string => `the memory store is full (it holds ${size}); remove entries it no longer needs`;
