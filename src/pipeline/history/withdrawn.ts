import { versionKey } from '../../core/changelog.ts';
import type { VersionRecord } from './version-walk.ts';

/**
 * Each skill folder's versions without the earlier ones the config withdraws (`withdrawn`, by
 * skill name): a withdrawn version is neither checked nor published, and its versions document
 * does not list it. A skill's current version is the working tree's, which a build always
 * publishes, so it stays whatever the config says.
 *
 * @example
 * withoutWithdrawn(records, [{ dir: 'skills/tidy', name: 'tidy', version: '2.0.0' }], { tidy: ['1.0.0'] });
 */
export function withoutWithdrawn(
  records: ReadonlyMap<string, VersionRecord[]>,
  skills: readonly { dir: string; name: string; version: string }[],
  withdrawn: Readonly<Record<string, readonly string[]>>,
): Map<string, VersionRecord[]> {
  const out = new Map(records);
  for (const { dir, name, version } of skills) {
    const listed = Object.hasOwn(withdrawn, name) ? new Set((withdrawn[name] as readonly string[]).map(versionKey)) : undefined;
    const list = records.get(dir);
    if (!listed || !list) continue;
    listed.delete(versionKey(version));
    out.set(dir, list.filter((record) => !listed.has(versionKey(record.version))));
  }
  return out;
}
