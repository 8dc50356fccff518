/**
 * Text in a pull request that made the build's own patterns backtrack for minutes: a SKILL.md
 * heading and a CHANGELOG.md line of a megabyte of spaces, and a script of one long option run
 * for the scanner. The real CLI builds it in seconds.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSkilldex } from '../helpers/cli.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skilldex-hostile-text-'));
  const dir = join(root, 'skills', 'long-lines');
  await mkdir(join(dir, 'scripts'), { recursive: true });
  await writeFile(join(dir, 'SKILL.md'), `---\nname: long-lines\ndescription: Holds very long lines when the user asks for it.\nmetadata:\n  version: 1.0.0\n---\n\n# Long${' '.repeat(1_000_000)}lines ##\n\nSteps.\n`);
  await writeFile(join(dir, 'CHANGELOG.md'), `# Changelog\n\n## 1.0.0\n- First.\n\n## a${' '.repeat(1_000_000)}b\n`);
  await writeFile(join(dir, 'scripts', 'run.sh'), `#!/bin/sh\nchmod -A${'Rs'.repeat(200_000)}x notes.txt\n`);
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('a build over very long lines', () => {
  it('finishes, titles the skill by its heading and reads its changelog', async () => {
    const out = join(root, 'out');
    const started = performance.now();
    const build = await runSkilldex(root, ['build', '--out', out]);
    expect(build.status, build.stderr).toBe(0);
    expect(performance.now() - started).toBeLessThan(30_000);
    const index = JSON.parse(await readFile(join(out, 'index.json'), 'utf8')) as { skills: { title: string }[] };
    expect(index.skills[0]?.title).toBe(`Long${' '.repeat(1_000_000)}lines`);
    const versions = await readFile(join(out, 'skills', 'long-lines.versions.json'), 'utf8');
    expect(versions).toContain('- First.');
  }, 60_000);
});
