import type { RegistryConfig } from '../../core/schemas/config.ts';
import type { ScanResult } from '../../core/schemas/scan.ts';
import type { ScanInput, ScanOptions } from '../../scanner/scan.ts';
import { createScanPool, type ScanPool } from '../../scanner/pool.ts';
import { imitationCandidates, type BuildCache } from '../cache.ts';
import { sha256HexSync } from '../hash.ts';
import * as fileRules from '../rules/files.ts';
import type { ReadSkill } from './read.ts';

/**
 * The scanner rules whose problem a file rule reports itself (its `meta.covers`): the build's scan
 * turns them off, so one problem gives one diagnostic. Taken from the file rules' module, not the
 * one rule list, which a rebuild of cached skills should not have to load.
 */
export const LEFT_TO_THE_VALIDATOR: readonly string[] = Object.values(fileRules).flatMap((v) => (typeof v === 'object' && 'covers' in v.meta ? (v.meta.covers ?? []) : []));

/** Below this many skills to scan, worker threads cost more to start than they save. */
const POOL_MIN_SCANS = 32;

/** A skill that parsed, on its way to being scanned. */
export interface ScanTarget {
  name: string;
  /** The skill's tree digest: with the names it could imitate, the scan's cache key. */
  digest: string;
  source: ReadSkill['source'];
}

/**
 * The scan phase. A large cold build scans on worker threads while the read phase is still
 * parsing the next skills ({@link Scanner.start}); a handful of skills is scanned inline
 * (starting workers would cost more). Results are keyed in the build cache by the skill's tree
 * digest and the names it could imitate.
 */
export class Scanner {
  readonly #cache: BuildCache | undefined;
  readonly #pool: ScanPool | undefined;
  /** Scans started early, without the names (typosquatting is checked once every name is known). */
  readonly #started = new Map<ReadSkill['source'], Promise<ScanResult | undefined>>();
  /** The build's scan leaves the problems the validator reports itself to the validator. */
  readonly #options: ScanOptions;

  constructor(config: RegistryConfig, cache: BuildCache | undefined, uncached: number) {
    this.#cache = cache;
    this.#pool = uncached >= POOL_MIN_SCANS ? tryCreateScanPool() : undefined;
    this.#options = { rules: { ...config.scan.rules, ...Object.fromEntries(LEFT_TO_THE_VALIDATOR.map((id) => [id, 'off' as const])) } };
  }

  /** Starts scanning a freshly parsed skill on the pool, if there is one. */
  start(target: ScanTarget): void {
    // A failed worker is not a verdict: the skill is scanned again inline later.
    if (this.#pool) this.#started.set(target.source, this.#pool.scan(scanInput(target), this.#options).catch(() => undefined));
  }

  /** Every target's scan result (before the registry's allowlist), in the targets' order. */
  async scanAll(targets: readonly ScanTarget[], onProgress?: (done: number, total: number) => void): Promise<ScanResult[]> {
    // Loaded on demand: `validate --no-scan` and the runtime never pay for the scanner, and a
    // rebuild whose every scan is cached never loads its rules.
    let scanner: Promise<typeof import('../../scanner/index.ts')> | undefined;
    const { imitatedNames } = await import('../../scanner/rules/typosquat.ts');
    const { confusableSkeleton } = await import('../../scanner/unicode.ts');
    // Only the names the typosquatting rule could match are passed: same verdicts and evidence,
    // without comparing every pair of skills (quadratic: minutes at 10,000 skills).
    const candidatesOf = imitationCandidates(targets.map((t) => t.name), confusableSkeleton);
    const cache = this.#cache;
    let scanned = 0;
    onProgress?.(0, targets.length);
    return Promise.all(
      targets.map(async (t): Promise<ScanResult> => {
        const knownNames = candidatesOf(t.name);
        const entry = cache?.recorded(t.source.dir);
        const key = entry ? sha256HexSync(JSON.stringify([t.name, t.digest, knownNames])) : '';
        if (cache && entry?.scan?.key === key) {
          cache.stats.scanHits++;
          onProgress?.(++scanned, targets.length);
          return entry.scan.result;
        }
        // A scan without the names equals the full one unless the name imitates another skill.
        const early = imitatedNames(t.name, knownNames).length === 0 ? await this.#started.get(t.source) : undefined;
        const input = scanInput(t, knownNames);
        const result = early ?? (this.#pool ? await this.#pool.scan(input, this.#options).catch(() => undefined) : undefined) ?? (await (scanner ??= import('../../scanner/index.ts'))).scanSkill(input, this.#options);
        if (entry) cache?.recordScan(entry, key, result);
        onProgress?.(++scanned, targets.length);
        return result;
      }),
    );
  }

  async close(): Promise<void> {
    await this.#pool?.close();
  }
}

const scanInput = (t: ScanTarget, knownNames?: readonly string[]): ScanInput => ({
  name: t.name,
  files: t.source.files.map((f) => ({ path: f.path, bytes: f.bytes })),
  ...(knownNames ? { knownNames } : {}),
});

/** A pool, or none where threads cannot start (every skill is then scanned inline, as a small build is). */
function tryCreateScanPool(): ScanPool | undefined {
  try {
    return createScanPool();
  } catch {
    return undefined;
  }
}
