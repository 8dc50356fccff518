import pLimit from 'p-limit';
import type { RegistryConfig } from '../../core/schemas/config.ts';
import { cacheEntryOf, locateFrom, sourceFromCache, type BuildCache, type CachedSkill, type SourceStamps } from '../cache.ts';
import { readSkillSource, type FoundSkill } from '../discover.ts';
import type { SkillSource } from '../model.ts';
import { DiagnosticSink } from '../diagnostics.ts';
import type { ParsedSkill } from './parse.ts';
import { textReferences, type TextReferences } from '../references.ts';

/** Skill folders read at once. */
const READ_CONCURRENCY = 16;

/** A found skill folder, read and parsed. */
export interface ReadSkill extends ParsedSkill {
  source: SkillSource;
  /** The declaration's path from the registry root. */
  file: string;
  /** True when the build cache stood in for reading and parsing. */
  cached: boolean;
  /** The tool ids and links its Markdown holds, when it parsed (for "Used by"). */
  references?: TextReferences;
}

type Found = readonly FoundSkill[];

/** The cache's entry for each found folder that is unchanged since it was recorded. */
export function cacheHits(root: string, found: Found, cache: BuildCache | undefined): (CachedSkill | undefined)[] {
  return found.map(({ dir, declaration }) => cache?.lookup(root, dir, declaration));
}

export interface ReadOptions {
  cache?: BuildCache;
  /** {@link cacheHits} for `found`, when the caller needed them first. */
  hits?: readonly (CachedSkill | undefined)[];
  /** Called once per folder as soon as it is parsed, in discovery order (e.g. to start its scan early). */
  onParsed?: (skill: ReadSkill) => void;
  onProgress?: (done: number, total: number) => void;
}

/**
 * The read and parse phases over every found folder, results in discovery order. The build cache
 * wraps exactly this: an unchanged folder's diagnostics and draft are taken from the cache and
 * nothing in it is read. Reading is I/O-bound, so several folders are read at once, each
 * reporting into its own sink, and parsed one by one in discovery order, so results do not depend
 * on timing.
 */
export async function readSkills(
  root: string,
  found: Found,
  config: RegistryConfig,
  { cache, onParsed, onProgress, hits = cacheHits(root, found, cache) }: ReadOptions = {},
): Promise<ReadSkill[]> {
  const limit = pLimit(READ_CONCURRENCY);
  const reads = found.map(({ dir, declaration, listing }, i) =>
    hits[i]
      ? undefined
      : limit(async () => {
          const sink = new DiagnosticSink(config.rules);
          const stamps: SourceStamps | undefined = cache ? { dirs: [], files: [] } : undefined;
          return { sink, stamps, source: await readSkillSource(root, dir, declaration, config.limits, sink, stamps, listing) };
        }),
  );
  // The parser and every per-skill rule (YAML, JSON Schema, ...) load at the first folder that
  // missed the cache: a no-op rebuild never parses.
  let parseSkill: typeof import('./parse.ts').parseSkill | undefined;
  const out: ReadSkill[] = [];
  for (const [i, { dir, declaration }] of found.entries()) {
    onProgress?.(i, found.length);
    const file = `${dir}/${declaration}`;
    const hit = hits[i];
    let skill: ReadSkill;
    if (hit) {
      cache?.record(hit);
      skill = { source: sourceFromCache(root, hit), file, cached: true, diagnostics: hit.diagnostics, ...(hit.draft ? { draft: hit.draft } : {}), locate: locateFrom(hit.positions), ...(hit.references ? { references: hit.references } : {}) };
    } else {
      const { sink, stamps, source } = await (reads[i] as NonNullable<(typeof reads)[number]>);
      parseSkill ??= (await import('./parse.ts')).parseSkill;
      const parsed = parseSkill(source, config, sink);
      skill = { source, file, cached: false, ...parsed, ...(parsed.draft ? { references: textReferences(source, parsed.draft.name, config.skillsDir) } : {}) };
      if (cache && stamps) cache.record(cacheEntryOf(source, stamps, skill.diagnostics, skill.draft, skill.locate, skill.references));
    }
    out.push(skill);
    onParsed?.(skill);
  }
  onProgress?.(found.length, found.length);
  return out;
}
