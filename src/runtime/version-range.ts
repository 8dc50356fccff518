import maxSatisfying from 'semver/ranges/max-satisfying.js';
import validRange from 'semver/ranges/valid.js';
import { RegistryError } from '../core/errors/registry-error.ts';
import type { SkillVersion, SkillVersions } from '../core/schemas/versions.ts';

/**
 * Choosing a version for `name@range`, with npm's `semver` rules: the highest version the range
 * admits, pre-releases only when the range names one. Loaded only when a caller names a version,
 * so the browser bundle's entry does not carry the semver parser.
 *
 * @example
 * selectVersion(versions, '^1.2', 'https://skills.example.org/'); // the highest 1.x at or above 1.2.0
 */
export function selectVersion(document: SkillVersions, range: string, root: string): SkillVersion {
  const listed = document.versions.map((v) => v.version);
  const available = listed.length > 0 ? `available: ${listed.join(', ')}` : 'no version is published';
  if (validRange(range) === null) {
    throw new RegistryError('VERSION_NOT_FOUND', `'${range}' is not a version or a semver range (${document.name})`, {
      hint: `${available}; write ${document.name}@<version> (1.2.0) or a range (^1.2, ~1.2.3, >=1 <2)`,
    });
  }
  const best = maxSatisfying(listed, range);
  const chosen = best === null ? undefined : document.versions.find((v) => v.version === best);
  if (!chosen) {
    throw new RegistryError('VERSION_NOT_FOUND', `no version of ${document.name} in ${root} matches ${range}`, {
      details: listed,
      hint: `${available}; install one with ${document.name}@<version>`,
    });
  }
  return chosen;
}
