import rcompare from 'semver/functions/rcompare.js';
import { changelogSections, versionKey } from '../../core/changelog.ts';
import type { SkillManifest } from '../../core/schemas/manifest.ts';
import { SEMVER_PATTERN, type SkillVersion, type SkillVersions } from '../../core/schemas/versions.ts';
import { sha256HexSync } from '../hash.ts';
import type { OldVersion } from '../history/old-versions.ts';
import type { VersionRecord } from '../history/version-walk.ts';
import { jsonText } from './json-text.ts';
import { skillUrls, versionManifestPath, versionsDocumentPath } from './layout.ts';

/**
 * A skill's versions as published (docs/registry-format.md#versions): the manifest of each earlier
 * version, the versions document that pins them, and the current manifest pinning the document.
 * Pure: the history and the checked older versions go in, documents come out.
 */

/** What a skill publishes about its versions. */
export interface VersionPlan {
  /** The current manifest, with its `versions` pin. */
  manifest: SkillManifest;
  document: SkillVersions;
  documentText: string;
  /** Each earlier version's manifest, with the record its files come from. */
  older: { manifest: SkillManifest; record: VersionRecord }[];
}

/** A changelog section longer than this is cut at a line (the whole file is one of the version's files). */
export const MAX_CHANGELOG_SECTION = 16 * 1024;

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

function cut(text: string): string {
  if (text.length <= MAX_CHANGELOG_SECTION) return text;
  const end = text.lastIndexOf('\n', MAX_CHANGELOG_SECTION);
  return `${text.slice(0, end > 0 ? end : MAX_CHANGELOG_SECTION)}\n\n…`;
}

/** The skill's CHANGELOG.md (any case), decoded, when it has one. */
function changelogOf(files: readonly { path: string; bytes: Uint8Array }[]): Map<string, string> {
  const file = files.find((f) => f.path.toLowerCase() === 'changelog.md');
  if (!file) return new Map();
  return changelogSections(new TextDecoder().decode(file.bytes));
}

/**
 * Plans a skill's versions: its current manifest and files, the earlier versions that passed the
 * gate, and the history record of the current version (its first commit and subjects) when git
 * has one. What changed in each version is its section of the current CHANGELOG.md, else the
 * subjects of the commits that made it.
 */
export function planVersions(current: SkillManifest, currentFiles: readonly { path: string; bytes: Uint8Array }[], older: readonly OldVersion[], currentRecord: VersionRecord | undefined): VersionPlan {
  const changelog = changelogOf(currentFiles);
  const changes = (version: string, record: VersionRecord | undefined): Pick<SkillVersion, 'changelog' | 'commits'> => {
    const section = changelog.get(versionKey(version));
    if (section) return { changelog: cut(section) };
    return record && record.subjects.length > 0 ? { commits: record.subjects } : {};
  };
  const dated = (record: VersionRecord | undefined) => (record ? { date: iso(record.firstTime), commit: record.firstCommit } : {});

  const olderManifests = older.map(({ record, draft, scan, diagnostics }) => {
    const manifest: SkillManifest = {
      ...draft,
      urls: { ...skillUrls(draft.name, draft.digest), manifest: versionManifestPath(draft.name, record.version) },
      // Callers name a skill without a version, so they reach the current one, never this.
      calledBy: [],
      usedBy: [],
      lastModified: iso(record.lastTime),
      diagnostics,
      scan,
    };
    return { manifest, record };
  });
  const entries: SkillVersion[] = olderManifests.map(({ manifest, record }) => ({
    version: record.version,
    ...dated(record),
    digest: manifest.digest,
    manifest: manifest.urls.manifest,
    manifestDigest: `sha256:${sha256HexSync(jsonText(manifest))}`,
    ...changes(record.version, record),
  }));
  // A current version that is not semver stays out: no range can select it, and the index names it anyway.
  if (SEMVER_PATTERN.test(current.version)) entries.push({ version: current.version, ...dated(currentRecord), digest: current.digest, ...changes(current.version, currentRecord) });
  entries.sort((a, b) => rcompare(a.version, b.version));

  const document: SkillVersions = { name: current.name, versions: entries };
  const documentText = jsonText(document);
  const manifest: SkillManifest = {
    ...current,
    versions: { url: versionsDocumentPath(current.name), size: Buffer.byteLength(documentText), digest: `sha256:${sha256HexSync(documentText)}` },
  };
  return { manifest, document, documentText, older: olderManifests };
}
