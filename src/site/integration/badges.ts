import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PUBLISHED_NAME } from '../../core/names.ts';
import { skillBadges } from '../catalog/badge.ts';
import { makeFolder } from '../../core-node/make-folder.ts';

/**
 * Writes each skill's badges (`skills/<name>/version.svg`, `scan.svg`) into the built site, from
 * the registry's index.json. Plain file writes after Astro is done: as Astro routes, two endpoints
 * per skill cost more than the skill's own page.
 */
export function writeBadges(registryDir: string, outDir: string): number {
  const index = JSON.parse(readFileSync(path.join(registryDir, 'index.json'), 'utf8')) as { skills: { name: string; version: string; verdict?: string }[] };
  let written = 0;
  for (const skill of index.skills) {
    // The index was checked when it was built; a name is still only ever one path segment here.
    if (!PUBLISHED_NAME.test(skill.name)) continue;
    const dir = path.join(outDir, 'skills', skill.name);
    makeFolder(dir);
    for (const badge of skillBadges(skill)) {
      writeFileSync(path.join(dir, badge.file), badge.svg);
      written++;
    }
  }
  return written;
}
