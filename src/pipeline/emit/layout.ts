import { versionKey } from '../../core/changelog.ts';
import { digestPrefix } from '../../core/digest.ts';
import { fillName } from '../../core/url-template.ts';
import type { SkillUrls } from '../../core/schemas/manifest.ts';

/** index.json's `urls`: where every skill's page and manifest are, by name. */
export const INDEX_URL_TEMPLATES = { page: 'skills/{name}/', manifest: 'skills/{name}.json' } as const;

/**
 * Where each published artifact lives, relative to the registry root. Raw files and archives
 * sit under the tree digest's prefix, so a URL never serves two different contents and hosts can
 * cache them forever; the index and manifests are the only mutable files.
 */
export function skillUrls(name: string, digest: string): SkillUrls {
  const d = digestPrefix(digest);
  return {
    page: fillName(INDEX_URL_TEMPLATES.page, name),
    manifest: fillName(INDEX_URL_TEMPLATES.manifest, name),
    files: `skills/${name}/${d}/`,
    archive: `skills/${name}/${d}.tar.gz`,
  };
}

/**
 * A skill's versions document, and an earlier version's manifest. Both change in place (a new
 * build may add versions or re-scan old ones) and are pinned by digest, so they sit one level
 * below skills/ beside the current manifest, where hosts cache for a minute and revalidate, never
 * under a digest prefix (docs/hosting.md#caching). The path carries the version without build
 * metadata (`+` is a space to some object stores), which semver precedence ignores anyway.
 */
export const versionsDocumentPath = (name: string): string => `skills/${name}.versions.json`;
export const versionManifestPath = (name: string, version: string): string => `skills/${name}@${versionKey(version)}.json`;

export const INDEX_FILE = 'index.json';
export const INDEX_SCHEMA_FILE = 'index.schema.json';
/** `index.json`'s bytes, signed (only when the build has a signing key), and the keys (when `signing.keys` is set). */
export { KEYS_FILE, SIGNED_INDEX_FILE } from '../../core/signing.ts';
export const WELL_KNOWN_V2 = '.well-known/agent-skills';
export const WELL_KNOWN_V1 = '.well-known/skills';
