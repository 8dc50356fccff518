import { join } from 'node:path';
import type { SkillManifest } from '../../core/schemas/manifest.ts';
import type { SkillExecutionOutcome } from '../../core/schemas/outcome.ts';
import { type ContextServices, type KeyValueStore, type MemoryService, memoryKeyValueStore, memoryStore } from '../context-services.ts';
import { fileMemoryStore } from './file-memory.ts';
import { fileSessionStore } from './file-session.ts';
import { commitMemoryWrites } from './memory-writes.ts';
import { resultCache, ttlSeconds } from './result-cache.ts';

/** The run options this file reads (a part of RunOptions in run.ts). */
export interface ContextRunOptions {
  /** Script-protocol `context` (agent_id, user_id, request_id…), passed to scripts and modules. */
  context?: Record<string, unknown>;
  /** The extended package's `config`, the third argument of a package's `execute`. */
  config?: Record<string, unknown>;
  /** Long-term memory for `ctx.memory` and for committing `memoryWrites`; default: the file store under the cache folder. */
  memory?: MemoryService;
  /** `ctx.session`; default: the file store of `sessionId` under the cache folder, or a store for this run only without one. */
  session?: KeyValueStore;
  /** Names the session whose stored values `ctx.session` sees (the default session store). */
  sessionId?: string;
  /** `ctx.scratch`, shared by the steps of one run; default: a fresh in-memory store per top-level run. */
  scratch?: KeyValueStore;
  /** `false` skips the results cache for this run: nothing is read from it or stored in it. */
  cache?: boolean;
}

/**
 * The options with every context service filled in, once per top-level run; a pipeline's steps
 * get these options, so they share one scratch and one session.
 */
export function withContextServices<T extends ContextRunOptions>(cacheDir: string | undefined, options: T): T & ContextServices {
  if (options.memory && options.session && options.scratch) return options as T & ContextServices;
  // Without a cache folder (a host that has none), memory lives as long as the run.
  const memory = options.memory ?? (cacheDir ? fileMemoryStore(join(cacheDir, 'memory')) : memoryStore());
  const session = options.session ?? (cacheDir && options.sessionId !== undefined ? fileSessionStore(join(cacheDir, 'sessions'), options.sessionId) : memoryKeyValueStore());
  return { ...options, memory, session, scratch: options.scratch ?? memoryKeyValueStore() };
}

/** The results cache for one run of `manifest`, or undefined when it does not apply. */
export function runCache(cacheDir: string | undefined, manifest: SkillManifest, options: ContextRunOptions, given: { input: unknown; action?: string }) {
  const ttl = ttlSeconds(manifest);
  if (!cacheDir || ttl <= 0 || options.cache === false) return undefined;
  const cache = resultCache(cacheDir);
  const key = cache.key(manifest.digest, { ...given, context: options.context ?? {}, config: options.config ?? {} });
  const stamp = (storedAt: number, expiresAt: number) => ({ storedAt: new Date(storedAt).toISOString(), expiresAt: new Date(expiresAt).toISOString() });
  return {
    /** A stored, unexpired result, marked `cache.hit: true`. */
    async lookup(): Promise<SkillExecutionOutcome | undefined> {
      const found = await cache.get(key);
      return found && { ...found.outcome, cache: { hit: true, ...stamp(found.storedAt, found.expiresAt) } };
    },
    /** Keeps a successful outcome (never a failure or a partial one) and marks it `cache.hit: false`. */
    async store(outcome: SkillExecutionOutcome): Promise<SkillExecutionOutcome> {
      if (outcome.status !== 'success') return outcome;
      // What was written to memory belongs to this run; a later hit writes nothing.
      const { memoryCommitted: _written, warnings: _warnings, ...kept } = outcome;
      try {
        const { storedAt, expiresAt } = await cache.put(key, kept, ttl);
        return { ...outcome, cache: { hit: false, ...stamp(storedAt, expiresAt) } };
      } catch (error) {
        // A full disk or a read-only cache folder costs the next run its shortcut, not this run its result.
        return { ...outcome, warnings: [...(outcome.warnings ?? []), `the result was not cached: ${error instanceof Error ? error.message : String(error)}`] };
      }
    },
  };
}

/** Commits a successful outcome's `memoryWrites` and reports them in `memoryCommitted`. */
export async function commitOutcomeMemory(outcome: SkillExecutionOutcome, manifest: SkillManifest, options: ContextRunOptions & ContextServices): Promise<SkillExecutionOutcome> {
  if (outcome.status === 'error' || !outcome.memoryWrites || outcome.memoryWrites.length === 0) return outcome;
  const { committed, warnings } = await commitMemoryWrites(outcome.memoryWrites, options.memory, { skill: manifest.name, context: options.context });
  const allWarnings = [...(outcome.warnings ?? []), ...warnings];
  return { ...outcome, memoryCommitted: committed, ...(allWarnings.length > 0 ? { warnings: allWarnings } : {}) };
}
