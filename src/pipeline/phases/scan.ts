import type { RegistryConfig } from '../../core/schemas/config.ts';
import type { ScanResult } from '../../core/schemas/scan.ts';
import type { ScanOptions } from '../../scanner/scan.ts';
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

/**
 * The scan phase. A cold build scans each skill as it reads it, on the worker threads of the read
 * phase, before every name is known; here each result is checked against the names the skill
 * could imitate (typosquatting needs them), and the few skills that imitate one are scanned
 * again with those names, as are skills whose scan the cache lacks. Results are keyed in the
 * build cache by the skill's tree digest and the names it could imitate.
 *
 * @returns every target's scan result (before the registry's allowlist), in the targets' order
 */
export async function scanAll(targets: readonly ScanTarget[], config: RegistryConfig, cache: BuildCache | undefined, onProgress?: (done: number, total: number) => void): Promise<ScanResult[]> {
  // Loaded on demand: `validate --no-scan` and the runtime never pay for the scanner, and a
  // rebuild whose every scan is cached never loads its rules.
  let scanner: Promise<typeof import('../../scanner/index.ts')> | undefined;
  const { imitatedNames } = await import('../../scanner/rules/typosquat.ts');
  const { confusableSkeleton } = await import('../../scanner/unicode.ts');
  const options = buildScanOptions(config);
  // Only the names the typosquatting rule could match are passed: same verdicts and evidence,
  // without comparing every pair of skills (quadratic: minutes at 10,000 skills).
  const candidatesOf = imitationCandidates(targets.map((t) => t.name), confusableSkeleton);
  const results: ScanResult[] = [];
  onProgress?.(0, targets.length);
  for (const t of targets) {
    const knownNames = candidatesOf(t.name);
    const entry = cache?.recorded(t.source.dir);
    const key = entry ? sha256HexSync(JSON.stringify([t.name, t.digest, knownNames])) : '';
    let result: ScanResult;
    if (cache && entry?.scan?.key === key) {
      cache.stats.scanHits++;
      result = entry.scan.result;
    } else {
      // A scan without the names equals the full one unless the name imitates another skill.
      const early = imitatedNames(t.name, knownNames).length === 0 ? t.earlyScan : undefined;
      result = early ?? (await (scanner ??= import('../../scanner/index.ts'))).scanSkill({ name: t.name, files: t.source.files, knownNames }, options);
      if (entry) cache?.recordScan(entry, key, result);
    }
    results.push(result);
    onProgress?.(results.length, targets.length);
  }
  return results;
}
