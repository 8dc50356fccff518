import maxSatisfying from 'semver/ranges/max-satisfying.js';
import validRange from 'semver/ranges/valid.js';

/**
 * Choosing a version for `name@range`, with npm's `semver` rules: the highest version the range
 * admits, pre-releases only when the range names one. Loaded only when a caller names a version,
 * and sharing no code with the rest of the runtime, so the browser bundle's entry stays free of
 * the semver parser (scripts/bundle-runtime.ts puts it in a chunk of its own).
 *
 * @example
 * selectVersion(['2.0.0', '1.3.0', '1.2.0'], '^1.2'); // '1.3.0'
 * selectVersion(['2.0.0'], 'banana');                // { invalid: true }
 */
export function selectVersion(versions: readonly string[], range: string): string | { invalid: true } | undefined {
  if (validRange(range) === null) return { invalid: true };
  return maxSatisfying([...versions], range) ?? undefined;
}
