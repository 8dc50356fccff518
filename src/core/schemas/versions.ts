import { z } from 'zod';
import { SkillName } from './manifest.ts';
import { Sha256Digest } from './digest.ts';
import { SEMVER_PATTERN } from './semver-pattern.ts';
export { VersionsPin } from './versions-pin.ts';
export { SEMVER_PATTERN };

/**
 * A skill's published versions (`skills/<name>.versions.json`, docs/registry-format.md#versions).
 * The current manifest pins this document's bytes, and the document pins each older version's
 * manifest, so a signed index covers every version: index → manifest → versions → older manifest → files.
 */

export const SkillVersion = z
  .object({
    /** The version as the skill declared it. */
    version: z.string().max(256).regex(SEMVER_PATTERN, 'must be a semantic version'),
    /** ISO 8601 time of the commit in which this version first appeared; absent when git does not know it (not committed yet, or no history). */
    date: z.string().optional(),
    /** That commit's id. */
    commit: z.string().regex(/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/).optional(),
    /** The tree digest of the version's files (docs/registry-format.md#digests). */
    digest: Sha256Digest,
    /** An older version's manifest, relative to the registry root (`skills/<name>@<version>.json`). Absent for the current version, which the index pins. */
    manifest: z.string().optional(),
    /** `sha256:<hex>` of that manifest's exact bytes; present exactly when `manifest` is. */
    manifestDigest: Sha256Digest.optional(),
    /** What changed: the version's section of the skill's CHANGELOG.md (Markdown). */
    changelog: z.string().optional(),
    /** What changed when the changelog has no section for it: the subjects of the commits that made this version, oldest first. */
    commits: z.array(z.string()).optional(),
  })
  .meta({ id: 'SkillVersion' });
export type SkillVersion = z.infer<typeof SkillVersion>;

export const SkillVersions = z
  .object({
    name: SkillName,
    /** Every published version, the highest first. */
    versions: z.array(SkillVersion),
  })
  .meta({ id: 'SkillVersions', title: 'Skilldex skill versions' });
export type SkillVersions = z.infer<typeof SkillVersions>;
