import type { RegistryConfig } from '../../core/schemas/config.ts';
import type { ScanResult } from '../../core/schemas/scan.ts';
import { join, posix } from 'node:path';
import { createWorkerPool, defaultPoolSize, PoolUnavailableError, type WorkerPool } from '../../core-node/worker-pool.ts';
import type { ScanOptions } from '../../scanner/scan.ts';
import { siblingModule } from '../../core/module-file.ts';
import { cacheEntryOf, filesReadOnDemand, locateFrom, sourceFromCache, type BuildCache, type CachedSkill } from '../cache.ts';
import { plainListing, type FoundSkill } from '../discover.ts';
import type { PackedSkill } from '../emit/archive.ts';
import type { SkillSource } from '../model.ts';
import type { ParsedSkill } from './parse.ts';
import { checkFailed } from '../rules/internal.ts';
import type { PrepareRequest, PreparedSkill } from './prepare.ts';
import type { TextReferences } from '../references.ts';

/** A found skill folder, read and parsed. */
export interface ReadSkill extends ParsedSkill {
  source: SkillSource;
  /** The declaration's path from the registry root. */
  file: string;
  /** True when the build cache stood in for reading and parsing. */
  cached: boolean;
  /** The scan without the other skills' names, when the skill was scanned as it was read. */
  earlyScan?: ScanResult;
  /** Its archives, when the build packed them as it read the skill. */
  packed?: PackedSkill;
  /** The tool ids and links its Markdown holds, when it parsed (for "Used by"). */
  references?: TextReferences;
}

type Found = readonly FoundSkill[];

/** The cache's entry for each found folder that is unchanged since it was recorded. */
export function cacheHits(root: string, found: Found, cache: BuildCache | undefined): (CachedSkill | undefined)[] {
  return found.map(({ dir, declaration }) => cache?.lookup(root, dir, declaration));
}

/**
 * Below this many folders to read, worker threads cost more to start (each loads the parser and
 * the rules) than they save.
 */
export const POOL_MIN_SKILLS = 32;

export interface ReadOptions {
  cache?: BuildCache;
  /** {@link cacheHits} for `found`, when the caller needed them first. */
  hits?: readonly (CachedSkill | undefined)[];
  /** Scan each skill as it is read, with these options (the scan without the other skills' names). */
  scan?: ScanOptions;
  /** Keep every skill's bytes and pack its archives: the build is going to write them. */
  emit?: boolean;
  /**
   * Prepare only what a report needs (see {@link PrepareRequest.reportOnly}); a build (`emit`)
   * and the build cache always get every skill whole.
   */
  reportOnly?: boolean;
  /**
   * Worker threads for the per-skill phase: a number of them, or false to read and check every
   * skill on the calling thread. Default: one per core (at most four) when at least
   * {@link POOL_MIN_SKILLS} folders are to be read. The results are the same either way.
   */
  workers?: number | false;
  onProgress?: (done: number, total: number) => void;
  /**
   * Called with each skill as soon as it is read, in discovery order, while the workers read the
   * next ones: a build writes its content-addressed files meanwhile.
   */
  onRead?: (skill: ReadSkill) => void;
}

/**
 * The read and parse phases over every found folder (./prepare.ts), results in discovery order.
 * The build cache wraps exactly this: an unchanged folder's diagnostics and draft are taken from
 * the cache and nothing in it is read. The other folders are prepared on worker threads, all at
 * once, and taken in discovery order, so results do not depend on timing; or, for a few
 * folders, one after another on this thread.
 */
export async function readSkills(
  root: string,
  found: Found,
  config: RegistryConfig,
  { cache, scan, emit = false, reportOnly = false, workers, onProgress, onRead, hits = cacheHits(root, found, cache) }: ReadOptions = {},
): Promise<ReadSkill[]> {
  const misses = hits.filter((h) => !h).length;
  const size = workers === false ? 0 : (workers ?? (misses >= POOL_MIN_SKILLS ? defaultPoolSize() : 0));
  const pool = size > 0 ? tryCreatePool(size) : undefined;
  // The parser, the rules and the scanner load at the first folder prepared on this thread: a
  // no-op rebuild, or a build whose every folder a worker prepares, never loads them here.
  let prepareHere: typeof import('./prepare.ts').prepareSkill | undefined;
  const inline = async (request: PrepareRequest, listing: FoundSkill['listing']) => (prepareHere ??= (await import('./prepare.ts')).prepareSkill)(request, listing);

  const requestFor = ({ dir, declaration }: FoundSkill): PrepareRequest => ({ root, dir, declaration, config, stamps: cache !== undefined, ...(scan ? { scan } : {}), pack: emit, keepBytes: emit, reportOnly: reportOnly && !emit && cache === undefined });
  // Every miss is queued on the pool at once (the pool runs as many as it has workers).
  let closing = false;
  const pending = pool
    ? found.map((skill, i) => {
        if (hits[i]) return undefined;
        const request = requestFor(skill);
        return pool.run({ ...request, ...(skill.listing && !request.stamps ? { listing: plainListing(skill.listing) } : {}) }).catch(async (error: unknown): Promise<PreparedSkill> => {
          // A pool that could not run it at all (no worker could start): it is prepared here.
          if (error instanceof PoolUnavailableError && !closing) return inline(request, skill.listing);
          // A worker that died while on this skill: the skill is held back, with the reason.
          const source = { dir: skill.dir, absDir: join(root, skill.dir), folderName: posix.basename(skill.dir), declaration: skill.declaration, files: [] };
          return { source, diagnostics: checkFailed(config, source, `${error instanceof Error ? error.message : String(error)} while checking it`) };
        });
      })
    : [];

  const out: ReadSkill[] = [];
  try {
    for (const [i, skill] of found.entries()) {
      onProgress?.(i, found.length);
      const file = `${skill.dir}/${skill.declaration}`;
      const hit = hits[i];
      let read: ReadSkill;
      if (hit) {
        cache?.record(hit);
        read = { source: sourceFromCache(root, hit), file, cached: true, diagnostics: hit.diagnostics, ...(hit.draft ? { draft: hit.draft } : {}), locate: locateFrom(hit.positions), ...(hit.references ? { references: hit.references } : {}) };
      } else {
        const prepared = (await pending[i]) ?? (await inline(requestFor(skill), skill.listing));
        read = readSkillOf(root, prepared, file);
        if (cache && prepared.stamps) cache.record(cacheEntryOf(read.source, prepared.stamps, prepared.diagnostics, prepared.draft, prepared.positions, prepared.references));
      }
      onRead?.(read);
      out.push(read);
    }
  } finally {
    closing = true;
    await pool?.close();
  }
  onProgress?.(found.length, found.length);
  return out;
}

/** What the per-skill phase prepared, as the rest of validation takes it. */
function readSkillOf(root: string, prepared: PreparedSkill, file: string): ReadSkill {
  const { source, diagnostics, draft, positions, scan, packed, references } = prepared;
  // Bytes not handed back stay on disk until someone asks (a rescan), checked against their digest.
  const files = source.files.every((f) => f.bytes) ? (source.files as SkillSource['files']) : filesReadOnDemand(root, source.dir, source.files);
  return {
    source: { ...source, files },
    file,
    cached: false,
    diagnostics,
    ...(draft ? { draft } : {}),
    locate: locateFrom(positions),
    ...(scan ? { earlyScan: scan } : {}),
    ...(packed ? { packed } : {}),
    ...(references ? { references } : {}),
  };
}

/** A pool, or none where threads cannot start (every skill is then prepared inline, as a small build is). */
function tryCreatePool(size: number): WorkerPool<PrepareRequest, PreparedSkill> | undefined {
  try {
    return createWorkerPool<PrepareRequest, PreparedSkill>(siblingModule(import.meta.url, './worker'), { size });
  } catch {
    return undefined;
  }
}
