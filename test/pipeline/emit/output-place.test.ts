/** The registry build refuses an output folder over its own sources, whoever calls it. */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistry, OutputPlaceError, outputPlaceProblem } from '../../../src/pipeline/index.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skilldex-place-'));
  await mkdir(join(root, 'src', 'skills', 'hello'), { recursive: true });
  await writeFile(join(root, 'src', 'skills', 'hello', 'SKILL.md'), '---\nname: hello\ndescription: Says hello to whoever asks for a greeting.\n---\n\nSay hello.\n');
  await symlink(join(root, 'src'), join(root, 'link-to-root'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('outputPlaceProblem', () => {
  it('accepts a folder beside the skills, in the root or outside it', () => {
    const base = join(root, 'src');
    for (const out of [join(base, 'dist'), join(root, 'elsewhere'), join(base, 'skills-out')]) expect(outputPlaceProblem(base, 'skills', out), out).toBeUndefined();
  });

  it('refuses the root, a folder holding it, the skills folder and anything in it, through links too', () => {
    const base = join(root, 'src');
    expect(outputPlaceProblem(base, 'skills', base)).toMatch(/is the registry root/);
    expect(outputPlaceProblem(base, 'skills', join(root, 'link-to-root'))).toMatch(/is the registry root/);
    expect(outputPlaceProblem(base, 'skills', root)).toMatch(/holds the registry root/);
    expect(outputPlaceProblem(base, 'skills', join(base, 'skills'))).toMatch(/inside the skills folder/);
    expect(outputPlaceProblem(base, 'skills', join(base, 'skills', 'hello', 'new', 'deeper'))).toMatch(/inside the skills folder/);
    expect(outputPlaceProblem(base, 'nested/skills', join(base, 'nested'))).toMatch(/holds the skills folder/);
  });

  it('stops buildRegistry before it writes anything', async () => {
    const base = join(root, 'src');
    await expect(buildRegistry({ root: base, outDir: join(base, 'skills', 'out'), cache: false })).rejects.toBeInstanceOf(OutputPlaceError);
    await expect(buildRegistry({ root: base, outDir: base, cache: false })).rejects.toMatchObject({ code: 'OUTPUT_FOLDER_REFUSED' });
    expect(existsSync(join(base, 'skills', 'out'))).toBe(false);
    expect(existsSync(join(base, 'index.json'))).toBe(false);
  });
});
