/**
 * The real CLI, spawned: a SKILL.md becomes an extended package only through a field that
 * changes how it runs (resources, schemas, security, actions, …). Adding `version:` or
 * `displayName:` to a plain skill keeps it a plain skill: its helper script does not become an
 * entry point. The version is still checked.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runSkilldex } from '../helpers/cli.ts';

const temps: string[] = [];
afterEach(async () => {
  for (const t of temps.splice(0)) await rm(t, { recursive: true, force: true });
});

async function registry(skills: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'skilldex-format-'));
  temps.push(root);
  for (const [name, frontmatter] of Object.entries(skills)) {
    await mkdir(join(root, 'skills', name, 'scripts'), { recursive: true });
    await writeFile(join(root, 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: Tidies a CSV file when the user asks.\n${frontmatter}---\n# Tidy\n\nRun scripts/tidy.py on the file.\n`);
    await writeFile(join(root, 'skills', name, 'scripts', 'tidy.py'), 'import sys\nprint(sys.stdin.read().strip())\n');
  }
  return root;
}

const manifest = async (root: string, name: string) => JSON.parse(await readFile(join(root, 'dist', 'skills', `${name}.json`), 'utf8')) as { format: string; mode: string; version: string; entry?: unknown };

describe('SKILL.md format detection (spawned)', () => {
  it('version and displayName keep a plain skill plain; resources make it a package', async () => {
    const root = await registry({
      'plain-tidy': '',
      'versioned-tidy': 'version: 1.2.0\ndisplayName: Tidy CSV\nkeywords: [csv]\n',
      'package-tidy': 'version: 2.0.0\nresources:\n  entry: ./scripts/tidy.py\n',
    });
    const result = await runSkilldex(root, ['build', '--out', 'dist']);
    expect(result.status, result.stderr).toBe(0);
    expect(await manifest(root, 'plain-tidy')).toMatchObject({ format: 'skill-md', mode: 'instructions', version: '1.0.0' });
    const versioned = await manifest(root, 'versioned-tidy');
    expect(versioned).toMatchObject({ format: 'skill-md', mode: 'instructions', version: '1.2.0' });
    expect(versioned.entry).toBeUndefined();
    expect(await manifest(root, 'package-tidy')).toMatchObject({ format: 'package', mode: 'code', version: '2.0.0' });
  });

  it('a version that is not semver is reported on a plain skill too', async () => {
    const root = await registry({ 'loose-tidy': 'version: "1.0"\n' });
    const result = await runSkilldex(root, ['validate', '--no-scan', 'skills/loose-tidy']);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("skills/loose-tidy/SKILL.md:4:10  package/version  error  version '1.0' is not a semantic version");
  });
});
