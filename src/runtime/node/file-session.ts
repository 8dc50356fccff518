import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { KeyValueStore } from '../context-services.ts';
import { writeFileAtomic } from './atomic-write.ts';

/**
 * The most a session file holds. Every `set` rewrites the whole file, and the file outlives the
 * run: a skill setting 1 MB values wrote a 61 MB session, rewritten on each set, and left it.
 */
export const MAX_SESSION_BYTES = 4 * 1024 * 1024;

/**
 * The default session store: one JSON object per session id in `<cacheDir>/sessions/<sha256>.json`,
 * at most {@link MAX_SESSION_BYTES}. The file name is a digest of the id, so a hostile id (`../../x`)
 * names no other path. Each `set` rewrites the file atomically; two runs of one session writing at
 * once keep the last writer's keys.
 *
 * @example
 * const session = fileSessionStore(join(cacheDir, 'sessions'), 'chat-42');
 * await session.set('language', 'fr');
 */
export function fileSessionStore(dir: string, sessionId: string): KeyValueStore {
  const file = join(dir, `${createHash('sha256').update(sessionId).digest('hex')}.json`);
  // A Map, not an object: a key named `__proto__` must stay a key.
  const load = async (): Promise<Map<string, unknown>> => {
    try {
      const value: unknown = JSON.parse(await readFile(file, 'utf8'));
      return new Map(value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : []);
    } catch {
      return new Map();
    }
  };
  const save = async (values: Map<string, unknown>) => {
    const text = JSON.stringify(Object.fromEntries(values));
    if (Buffer.byteLength(text) > MAX_SESSION_BYTES) throw new Error(`the session would hold more than ${MAX_SESSION_BYTES / 1024 / 1024} MB; delete keys it no longer needs`);
    await writeFileAtomic(file, text);
  };
  return {
    get: async (key) => (await load()).get(key) ?? null,
    set: async (key, value) => {
      const values = await load();
      values.set(key, value ?? null);
      await save(values);
    },
    delete: async (key) => {
      const values = await load();
      if (!values.delete(key)) return false;
      await save(values);
      return true;
    },
    keys: async () => [...(await load()).keys()].sort(),
  };
}
