/**
 * Commands that write into a registry (new, convert, migrate) never write through a link on the way
 * to a skill: a skills folder or category folder linked elsewhere (which validate and build refuse
 * as files/symlink) made them write outside the registry. Each is refused, and nothing outside is
 * touched.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linkAtOrOnTheWay } from '../../src/core-node/link-on-the-way.ts';
import { runSkilldex } from '../helpers/cli.ts';

let base: string;
let registry: string;
let outside: string;

const skillMd = (name: string, body = 'Say hello.') => `---\nname: ${name}\ndescription: Says hello. Use it when someone asks for a greeting.\n---\n\n${body}\n`;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'skilldex-link-way-'));
  registry = join(base, 'registry');
  outside = join(base, 'outside');
  await mkdir(registry);
  await mkdir(join(outside, 'x'), { recursive: true });
  await writeFile(join(outside, 'x', 'SKILL.md'), skillMd('x'));
});
afterEach(() => rm(base, { recursive: true, force: true }));

const outsideFiles = async () => (await readdir(outside, { recursive: true })).sort();

describe('a link on the way to a skill', () => {
  it('stops convert of a skill in a linked category folder', async () => {
    await mkdir(join(registry, 'skills'));
    await symlink(outside, join(registry, 'skills', 'cat'));
    const result = await runSkilldex(registry, ['convert', 'skills/cat/x']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('skills/cat is a symbolic link');
    expect(await outsideFiles()).toEqual(['x', 'x/SKILL.md']);
    expect(await readFile(join(outside, 'x', 'SKILL.md'), 'utf8')).toBe(skillMd('x'));
  });

  it('stops convert --out into a linked folder', async () => {
    await mkdir(join(registry, 'skills', 'mine'), { recursive: true });
    await writeFile(join(registry, 'skills', 'mine', 'SKILL.md'), skillMd('mine'));
    await symlink(outside, join(registry, 'skills', 'linked'));
    const result = await runSkilldex(registry, ['convert', 'skills/mine', '--out', 'skills/linked/mine']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('skills/linked is a symbolic link');
    expect(await outsideFiles()).toEqual(['x', 'x/SKILL.md']);
  });

  it('stops new in a linked skills folder or category folder', async () => {
    await symlink(outside, join(registry, 'skills'));
    const linkedRoot = await runSkilldex(registry, ['new', 'fresh', '--description', 'Says hello. Use it when someone asks for a greeting.']);
    expect(linkedRoot.status).toBe(1);
    expect(linkedRoot.stderr).toContain('skills is a symbolic link; skilldex new never writes through a link');
    await rm(join(registry, 'skills'));
    await mkdir(join(registry, 'skills'));
    await symlink(outside, join(registry, 'skills', 'cat'));
    const linkedCategory = await runSkilldex(registry, ['new', 'fresh', '--category', 'cat', '--description', 'Says hello. Use it when someone asks for a greeting.']);
    expect(linkedCategory.status).toBe(1);
    expect(linkedCategory.stderr).toContain('skills/cat is a symbolic link');
    expect(await outsideFiles()).toEqual(['x', 'x/SKILL.md']);
  });

  it('stops migrate of a linked skills folder', async () => {
    await writeFile(join(outside, 'x', 'SKILL.md'), skillMd('x', '```typescript\nexport async function execute() { return { output: {}, status: "success" }; }\n```'));
    await symlink(outside, join(registry, 'skills'));
    const result = await runSkilldex(registry, ['migrate']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('skills is a symbolic link; skilldex migrate never writes through a link');
    expect(await outsideFiles()).toEqual(['x', 'x/SKILL.md']);
  });
});

describe('linkAtOrOnTheWay', () => {
  it('names the target itself when it is a link, wherever it lies, else a link below the base, as absolute paths', async () => {
    await mkdir(join(registry, 'skills', 'real'), { recursive: true });
    await symlink(outside, join(registry, 'skills', 'cat'));
    await symlink(outside, join(base, 'elsewhere'));
    expect(linkAtOrOnTheWay(registry, join(registry, 'skills', 'cat', 'x'))).toBe(join(registry, 'skills', 'cat'));
    // Outside the base, only the target itself is looked at.
    expect(linkAtOrOnTheWay(registry, join(base, 'elsewhere'))).toBe(join(base, 'elsewhere'));
    expect(linkAtOrOnTheWay(registry, join(outside, 'x'))).toBeUndefined();
    expect(linkAtOrOnTheWay(registry, join(registry, 'skills', 'real'))).toBeUndefined();
    expect(linkAtOrOnTheWay(registry, join(registry, 'skills', 'new', 'y'))).toBeUndefined();
  });
});
