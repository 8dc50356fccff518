import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { SkillExecutionOutcome } from '../../core/schemas/outcome.ts';
import type { SkillManifest } from '../../core/schemas/manifest.ts';
import { writeFileAtomic } from './atomic-write.ts';

/** How long a result is kept when a skill says `cacheable: true` without a `ttl`. */
const DEFAULT_TTL_SECONDS = 300;
/** A longer `ttl` is clamped to a day: a hostile manifest cannot pin a result forever. */
const MAX_TTL_SECONDS = 86_400;

const CachedResult = z.object({
  key: z.string(),
  storedAt: z.number(),
  expiresAt: z.number(),
  outcome: SkillExecutionOutcome,
});

/**
 * JSON with every object's keys sorted, so `{"b":1,"a":2}` and `{"a":2,"b":1}` are one input.
 *
 * @example
 * canonicalJson({ b: 1, a: [2, { d: 0, c: 1 }] }); // '{"a":[2,{"c":1,"d":0}],"b":1}'
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Seconds a skill's results are kept, or 0 when they are not cached. */
export const ttlSeconds = (manifest: SkillManifest): number =>
  manifest.cacheable === true && manifest.mode !== 'instructions' ? Math.min(Math.max(0, manifest.ttl ?? DEFAULT_TTL_SECONDS), MAX_TTL_SECONDS) : 0;

/**
 * Finished results of `cacheable` skills in `<cacheDir>/results/<key>.json` (docs/context.md#the-results-cache).
 * The key is a sha256 over the skill's tree digest and the canonical JSON of what the run was
 * given: the validated input, the action, the context and the config (each can change the
 * result, so each is part of "the input"). A new version of the skill has a new digest, so it
 * never sees an old version's results. Only successes are stored (see `runSkill`).
 */
export function resultCache(cacheDir: string, now: () => number = Date.now) {
  const pathOf = (key: string) => join(cacheDir, 'results', `${key}.json`);
  return {
    key: (digest: string, given: { input: unknown; action?: string; context?: unknown; config?: unknown }): string =>
      createHash('sha256').update(`${digest}\n${canonicalJson(given)}`).digest('hex'),
    /** The stored result for `key` if it has not expired; an expired or unreadable one is removed. */
    async get(key: string): Promise<{ outcome: SkillExecutionOutcome; storedAt: number; expiresAt: number } | undefined> {
      let text: string;
      try {
        text = await readFile(pathOf(key), 'utf8');
      } catch {
        return undefined;
      }
      let parsed;
      try {
        parsed = CachedResult.safeParse(JSON.parse(text));
      } catch {
        parsed = undefined;
      }
      if (!parsed?.success || parsed.data.key !== key || parsed.data.expiresAt <= now()) {
        // Best effort: a result that cannot be removed is still never used.
        await rm(pathOf(key), { force: true }).catch(() => {});
        return undefined;
      }
      return parsed.data;
    },
    async put(key: string, outcome: SkillExecutionOutcome, ttl: number): Promise<{ storedAt: number; expiresAt: number }> {
      const storedAt = now();
      const record = { key, storedAt, expiresAt: storedAt + ttl * 1000, outcome };
      await writeFileAtomic(pathOf(key), JSON.stringify(record));
      return record;
    },
  };
}
