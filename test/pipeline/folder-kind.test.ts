/**
 * What a folder is, as `skilldex validate`, `scan` and `build` decide it before reading anything:
 * real folders on disk.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folderKind, isRegistryRoot } from '../../src/pipeline/discover.ts';

let work: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'skilldex-folder-kind-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

async function skillAt(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'SKILL.md'), '---\nname: x\ndescription: y\n---\n');
}

describe('folderKind and isRegistryRoot', () => {
  it('tell each kind of folder apart', async () => {
    await skillAt(join(work, 'skill'));
    await skillAt(join(work, 'folder-of-skills', 'category', 'one'));
    await mkdir(join(work, 'with-skills-folder', 'skills'), { recursive: true });
    await mkdir(join(work, 'with-config'));
    await writeFile(join(work, 'with-config', 'skilldex.config.json'), '{}');
    await mkdir(join(work, 'empty'));
    await writeFile(join(work, 'file'), '');
    // A skills/ that is a link is not a folder of this registry (discovery reports the link).
    await mkdir(join(work, 'linked-skills'));
    await symlink(join(work, 'folder-of-skills'), join(work, 'linked-skills', 'skills'));

    const kinds = Object.fromEntries(
      await Promise.all(['skill', 'folder-of-skills', 'with-skills-folder', 'with-config', 'empty', 'file', 'missing', 'linked-skills'].map(async (name) => [name, await folderKind(join(work, name))])),
    );
    expect(kinds).toEqual({
      skill: 'skill',
      'folder-of-skills': 'skills',
      'with-skills-folder': 'registry',
      'with-config': 'registry',
      empty: 'none',
      file: 'file',
      missing: 'missing',
      'linked-skills': 'none',
    });
    const roots = await Promise.all(['skill', 'folder-of-skills', 'with-skills-folder', 'with-config', 'empty', 'file', 'missing', 'linked-skills'].map((name) => isRegistryRoot(join(work, name))));
    expect(roots).toEqual([false, false, true, true, false, false, false, false]);
  });

  it('a skill folder that holds a skills/ folder is a skill, not a registry', async () => {
    await skillAt(join(work, 'skill'));
    await mkdir(join(work, 'skill', 'skills'));
    expect(await folderKind(join(work, 'skill'))).toBe('skill');
    expect(await isRegistryRoot(join(work, 'skill'))).toBe(false);
  });
});
