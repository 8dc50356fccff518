import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SkillManifest } from '../../core/schemas/manifest.ts';
import type { SkillVersion, SkillVersions } from '../../core/schemas/versions.ts';
import { registryDir } from './site-config.ts';

/** One row of a skill page's version list. */
export interface VersionRow extends SkillVersion {
  /** The version the page describes (the index's). */
  current: boolean;
  /** That version's archive and manifest, relative to the registry root. */
  archive?: string;
  manifestUrl: string;
}

const readJson = <T>(relative: string): T | undefined => {
  const file = path.join(registryDir(), relative);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
};

/**
 * A skill's published versions, the highest first, from the versions document its manifest pins
 * (read from the staged registry, like the manifest itself), each with its archive. A registry
 * built without versions documents lists the current version alone.
 */
export function versionRows(manifest: SkillManifest): VersionRow[] {
  const document = manifest.versions ? readJson<SkillVersions>(manifest.versions.url) : undefined;
  const listed = document?.versions ?? [];
  const rows: VersionRow[] = listed.map((v) => {
    if (v.manifest === undefined) return { ...v, current: v.digest === manifest.digest, archive: manifest.urls.archive, manifestUrl: manifest.urls.manifest };
    const older = readJson<SkillManifest>(v.manifest);
    return { ...v, current: false, ...(older ? { archive: older.urls.archive } : {}), manifestUrl: v.manifest };
  });
  // A current version outside semver is not in the document; the page still shows it first.
  if (!rows.some((r) => r.current)) rows.unshift({ version: manifest.version, digest: manifest.digest, current: true, archive: manifest.urls.archive, manifestUrl: manifest.urls.manifest });
  return rows;
}
