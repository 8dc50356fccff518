import { versionKey } from '../../core/changelog.ts';
import { digestPrefix } from '../../core/digest.ts';
import { fillName } from '../../core/url-template.ts';
import { AGENT_SKILL_NAME, discoveryName, MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH } from '../../core/names.ts';
import type { SkillManifest, SkillUrls } from '../../core/schemas/manifest.ts';

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

/** Why a skill is left out of the discovery indexes (Agent Skills clients need a valid kebab name), if it is. */
export function notDiscoverableReason(m: Pick<SkillManifest, 'name' | 'format' | 'description'>): string | undefined {
  const wkName = discoveryName(m.name, m.format);
  if (!AGENT_SKILL_NAME.test(wkName) || wkName.length > MAX_NAME_LENGTH) return `name '${wkName}' is not a valid Agent Skills name`;
  return m.description.length > MAX_DESCRIPTION_LENGTH ? `description is longer than ${MAX_DESCRIPTION_LENGTH} characters` : undefined;
}

/** One file of a skill's 0.1.0 mirror: its path in the skill, where it goes, its bytes, and the content-addressed file holding them, if one does. */
export interface MirrorFile {
  path: string;
  rel: string;
  bytes: Uint8Array;
  sameAs?: string;
}

/**
 * A discoverable skill's 0.1.0 mirror: every file under a fixed path, and for a skill.json skill
 * the SKILL.md written for Agent Skills clients (`agentSkillMd`) first. Where the bytes are a
 * content-addressed file already written, the mirror is a hard link to it (`sameAs`): a third of
 * the build's output is then never written.
 */
export function mirrorFiles(m: Pick<SkillManifest, 'name' | 'format' | 'urls'>, files: readonly { path: string; bytes: Uint8Array }[], agentSkillMd?: Uint8Array): MirrorFile[] {
  const at = `${WELL_KNOWN_V1}/${discoveryName(m.name, m.format)}/`;
  const generated = agentSkillMd ? [{ path: 'SKILL.md', rel: `${at}SKILL.md`, bytes: agentSkillMd }] : [];
  return [...generated, ...files.map((f) => ({ path: f.path, rel: `${at}${f.path}`, bytes: f.bytes, sameAs: `${m.urls.files}${f.path}` }))];
}

/**
 * Where a skill.json skill's Agent Skills archive (its files and the SKILL.md written for them)
 * goes, from the discovery index's folder (the index's `url` for it); the file is under {@link WELL_KNOWN_V2}.
 */
export const agentArchiveUrl = (m: Pick<SkillManifest, 'name' | 'format' | 'urls'>): string => `${discoveryName(m.name, m.format)}/${m.urls.archive.split('/').pop() as string}`;
