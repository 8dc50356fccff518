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
import type { OutwardLink, TextReferences } from '../references.ts';

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
  /** Its Markdown's links into other skills' folders, when it parsed. */
  outwardLinks?: OutwardLink[];
}

type Found = readonly FoundSkill[];

/** The cache's entry for each found folder that is unchanged since it was recorded. */
export function cacheHits(root: string, found: Found, cache: BuildCache | undefined): (CachedSkill | undefined)[] {
  return found.map(({ dir, declaration }) => cache?.lookup(root, dir, declaration));
}

/**
 * Folders queued at each worker. This thread hands a worker its next folder only between folders
 * it prepares itself, and a long skill here took longer than four of the worker's: with four
 * queued (the pool's default), the worker stood idle a tenth of a 2,000-skill validate. Sixteen
 * leave it idle only at the end, for less than a folder's worth of time each.
 */
const READ_DEPTH = 16;

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
  /**
   * The calling thread has work of its own meanwhile (the site build runs Vite on it): every
   * folder is left to the workers, one per core by default, instead of this thread taking its share.
   */
  callerBusy?: boolean;
  /** Workers already started for this read ({@link startReadPool}); it closes them when done. */
  pool?: ReadPool;
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
 * the cache and nothing in it is read. The other folders are shared between worker threads and
 * this thread, which takes the next folder whenever it has nothing else to do; results are taken
 * in discovery order, so they do not depend on who prepared what or when. A few folders are
 * prepared one after another on this thread alone.
 */
export async function readSkills(
  root: string,
  found: Found,
  config: RegistryConfig,
  { cache, scan, emit = false, reportOnly = false, workers, callerBusy = false, pool: started, onProgress, onRead, hits = cacheHits(root, found, cache) }: ReadOptions = {},
): Promise<ReadSkill[]> {
  const misses = found.flatMap((_, i) => (hits[i] ? [] : [i]));
  const { pool, size } = started ?? startReadPool(misses.length >= POOL_MIN_SKILLS ? workers : false, callerBusy);
  // The parser, the rules and the scanner load at the first folder prepared on this thread: a
  // no-op rebuild never loads them here.
  let prepareHere: typeof import('./prepare.ts').prepareSkill | undefined;
  const inline = async (request: PrepareRequest, listing: FoundSkill['listing']) => (prepareHere ??= (await import('./prepare.ts')).prepareSkill)(request, listing);
  const requestFor = ({ dir, declaration }: FoundSkill): PrepareRequest => ({ root, dir, declaration, config, stamps: cache !== undefined, ...(scan ? { scan } : {}), pack: emit, keepBytes: emit, reportOnly: reportOnly && !emit && cache === undefined });

  // Each miss is claimed once, by the pool or by this thread, in discovery order.
  const settle = new Map<number, (prepared: PreparedSkill) => void>();
  const slots = new Map(misses.map((i) => [i, new Promise<PreparedSkill>((resolve) => settle.set(i, resolve))]));
  let claimed = 0;
  const claim = (): number | undefined => misses[claimed++];
  // A skill whose preparation failed outside its own checks (its worker died) is held back, with the reason.
  const heldBack = (skill: FoundSkill, error: unknown): PreparedSkill => {
    const source = { dir: skill.dir, absDir: join(root, skill.dir), folderName: posix.basename(skill.dir), declaration: skill.declaration, files: [] };
    return { source, diagnostics: checkFailed(config, source, `${error instanceof Error ? error.message : String(error)} while checking it`) };
  };
  let closing = false;
  const onPool = (i: number) => {
    const skill = found[i] as FoundSkill;
    const request = requestFor(skill);
    return (pool as NonNullable<ReadPool['pool']>).run({ ...request, ...(skill.listing && !request.stamps ? { listing: plainListing(skill.listing) } : {}) }).catch(async (error: unknown): Promise<PreparedSkill> => {
      // A pool that could not run it at all (no worker could start): it is prepared here.
      if (error instanceof PoolUnavailableError && !closing) return inline(request, skill.listing).catch((e: unknown) => heldBack(skill, e));
      return heldBack(skill, error);
    });
  };
  // As many claimed as the workers hold queued, so a worker never waits for this thread to finish
  // the folder it is preparing before it gets its next one.
  const feed = (): void => {
    const i = claim();
    if (i === undefined) return;
    void onPool(i).then((prepared) => {
      settle.get(i)?.(prepared);
      feed();
    });
  };
  if (pool) for (let k = 0; k < size * READ_DEPTH; k++) feed();
  // This thread prepares the next unclaimed folder, then lets the workers' replies in (unless it
  // is busy elsewhere and has workers to leave them to).
  const helping = (async () => {
    if (callerBusy && pool) return;
    for (let i = closing ? undefined : claim(); i !== undefined; i = closing ? undefined : claim()) {
      const skill = found[i] as FoundSkill;
      settle.get(i)?.(await inline(requestFor(skill), skill.listing).catch((e: unknown) => heldBack(skill, e)));
      if (pool) await new Promise(setImmediate);
    }
  })();

  const out: ReadSkill[] = [];
  try {
    for (const [i, skill] of found.entries()) {
      onProgress?.(i, found.length);
      const file = `${skill.dir}/${skill.declaration}`;
      const hit = hits[i];
      let read: ReadSkill;
      if (hit) {
        cache?.record(hit);
        read = { source: sourceFromCache(root, hit), file, cached: true, diagnostics: hit.diagnostics, ...(hit.draft ? { draft: hit.draft } : {}), locate: locateFrom(hit.positions), ...(hit.references ? { references: hit.references } : {}), ...(hit.outwardLinks ? { outwardLinks: hit.outwardLinks } : {}) };
      } else {
        const prepared = await (slots.get(i) as Promise<PreparedSkill>);
        read = readSkillOf(root, prepared, file);
        if (cache && prepared.stamps) cache.record(cacheEntryOf(read.source, prepared.stamps, prepared.diagnostics, prepared.draft, prepared.positions, prepared.references, prepared.outwardLinks));
      }
      onRead?.(read);
      out.push(read);
    }
    await helping;
  } finally {
    closing = true;
    await pool?.close();
  }
  onProgress?.(found.length, found.length);
  return out;
}

/** What the per-skill phase prepared, as the rest of validation takes it. */
function readSkillOf(root: string, prepared: PreparedSkill, file: string): ReadSkill {
  const { source, diagnostics, draft, positions, scan, packed, references, outwardLinks } = prepared;
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
    ...(outwardLinks ? { outwardLinks } : {}),
  };
}

/** The worker threads of one read, if any: none when asked for none or where threads cannot start. */
export interface ReadPool {
  pool: WorkerPool<PrepareRequest, PreparedSkill> | undefined;
  size: number;
}

/**
 * Starts the worker threads for a read of many folders: `workers` of them, by default one per core
 * but the one this thread takes (it prepares folders too, unless `callerBusy`). None where threads
 * cannot start: every skill is then prepared on this thread, as a small build's are.
 */
export function startReadPool(workers: number | false | undefined, callerBusy = false): ReadPool {
  const size = workers === false ? 0 : (workers ?? defaultPoolSize() - (callerBusy ? 0 : 1));
  if (size <= 0) return { pool: undefined, size: 0 };
  try {
    return { pool: createWorkerPool<PrepareRequest, PreparedSkill>(siblingModule(import.meta.url, './worker'), { size, depth: READ_DEPTH }), size };
  } catch {
    return { pool: undefined, size: 0 };
  }
}
