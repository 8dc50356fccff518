import type { RegistryConfig } from '../../core/schemas/config.ts';
import type { ScanResult } from '../../core/schemas/scan.ts';
import type { ScanPool } from '../../scanner/pool.ts';
import type { ScanInput, ScanOptions } from '../../scanner/scan.ts';
import type { BuildCache } from '../cache.ts';
import { sha256HexSync } from '../hash.ts';
import * as fileRules from '../rules/files.ts';
import type { ReadSkill } from './read.ts';

/**
 * The scanner rules whose problem a file rule reports itself (its `meta.covers`): the build's scan
 * turns them off, so one problem gives one diagnostic. Taken from the file rules' module, not the
 * one rule list, which a rebuild of cached skills should not have to load.
 */
export const LEFT_TO_THE_VALIDATOR: readonly string[] = Object.values(fileRules).flatMap((v) => (typeof v === 'object' && 'covers' in v.meta ? (v.meta.covers ?? []) : []));

/** A skill that parsed, on its way to being scanned. */
export interface ScanTarget {
  name: string;
  /** The skill's tree digest: with the names it could imitate, the scan's cache key. */
  digest: string;
  source: ReadSkill['source'];
  /** Its scan without the other skills' names, if the read phase made one (./prepare.ts). */
  earlyScan?: ScanResult;
}

/** The options of the build's scan: the registry's overrides, with the problems the validator reports itself left to it. */
export function buildScanOptions(config: RegistryConfig): ScanOptions {
  return { rules: { ...config.scan.rules, ...Object.fromEntries(LEFT_TO_THE_VALIDATOR.map((id) => [id, 'off' as const])) } };
}

/** Below this many skills left to scan, worker threads cost more to start than they save. */
const POOL_MIN_SCANS = 32;

/**
 * The scan phase. A cold build scans each skill as it reads it, on the worker threads of the read
 * phase, before every name is known; here each result is checked against the names the skill
 * could imitate (typosquatting needs them), and the few skills that imitate one are scanned
 * again with those names, as are skills whose scan the cache lacks (and earlier versions, which
 * the read phase does not see): on a scan pool when there are many, inline otherwise. Results are
 * keyed in the build cache by the skill's tree digest and the names it could imitate.
 *
 * @returns every target's scan result (before the registry's allowlist), in the targets' order
 */
export async function scanAll(
  targets: readonly ScanTarget[],
  config: RegistryConfig,
  cache: BuildCache | undefined,
  onProgress?: (done: number, total: number) => void,
  /** Every skill's name, when only some skills are scanned; default: the targets' names. */
  names: readonly string[] = targets.map((t) => t.name),
): Promise<ScanResult[]> {
  // Loaded on demand: `validate --no-scan` and the runtime never pay for the scanner, and a
  // rebuild whose every scan is cached never loads its rules.
  let typosquat: { imitatedNames: typeof import('../../scanner/rules/typosquat.ts').imitatedNames; candidatesOf: (name: string) => string[] } | undefined;
  // Only the names the typosquatting rule could match are passed: same verdicts and evidence,
  // without comparing every pair of skills (quadratic: minutes at 10,000 skills).
  const loadTyposquat = async () => {
    const { imitatedNames, imitationCandidates } = await import('../../scanner/rules/typosquat.ts');
    return { imitatedNames, candidatesOf: imitationCandidates(names) };
  };
  // The names each skill could imitate depend on the list of names alone: when it is the list the
  // cache's scans were keyed with, an unchanged skill's scan is reused without working them out.
  const namesKey = sha256HexSync(JSON.stringify(names));
  const sameNames = cache?.sameScanNames(namesKey) ?? false;
  cache?.recordScanNames(namesKey);
  const options = buildScanOptions(config);
  const plans = [];
  for (const t of targets) {
    const entry = cache?.recorded(t.source.dir);
    if (sameNames && entry?.scan) {
      plans.push({ t, knownNames: [], entry, key: entry.scan.key, cached: entry.scan.result, early: entry.scan.result });
      continue;
    }
    const { imitatedNames, candidatesOf } = (typosquat ??= await loadTyposquat());
    const knownNames = candidatesOf(t.name);
    const key = entry ? sha256HexSync(JSON.stringify([t.name, t.digest, knownNames])) : '';
    const cached = cache && entry?.scan?.key === key ? entry.scan.result : undefined;
    // A scan without the names equals the full one unless the name imitates another skill.
    const early = cached ?? (imitatedNames(t.name, knownNames).length === 0 ? t.earlyScan : undefined);
    plans.push({ t, knownNames, entry, key, cached, early });
  }
  const left = plans.filter((p) => !p.early).length;
  const pool = left >= POOL_MIN_SCANS ? await tryCreateScanPool() : undefined;
  let scanner: Promise<typeof import('../../scanner/index.ts')> | undefined;
  const scanHere = async (input: ScanInput) => (await (scanner ??= import('../../scanner/index.ts'))).scanSkill(input, options);
  let done = 0;
  onProgress?.(0, targets.length);
  try {
    return await Promise.all(
      plans.map(async ({ t, knownNames, entry, key, cached, early }): Promise<ScanResult> => {
        let result: ScanResult;
        if (cached) {
          (cache as BuildCache).stats.scanHits++;
          result = cached;
        } else {
          const input: ScanInput = { name: t.name, files: t.source.files, knownNames };
          // A worker that failed is not a verdict: the skill is scanned again here.
          result = early ?? (pool ? await pool.scan(input, options).catch(() => scanHere(input)) : await scanHere(input));
          if (entry) cache?.recordScan(entry, key, result);
        }
        onProgress?.(++done, targets.length);
        return result;
      }),
    );
  } finally {
    await pool?.close();
  }
}

/** A scan pool, or none where threads cannot start (every skill is then scanned inline). */
async function tryCreateScanPool(): Promise<ScanPool | undefined> {
  try {
    return (await import('../../scanner/pool.ts')).createScanPool();
  } catch {
    return undefined;
  }
}
