/**
 * `generatedAt` only moves forward along the branch a registry is built from: removing the
 * newest skill, or changing only the config, must not make the next index look older (clients
 * that verify the signature refuse an older index as a rollback). Real git, real builds.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistry } from '../../src/pipeline/index.ts';

let root: string;
const git = (args: string[], date: string) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], { cwd: root, env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
const skill = async (name: string) => {
  await mkdir(join(root, 'skills', name), { recursive: true });
  await writeFile(join(root, 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: The ${name} skill. Use it for tests.\n---\n\nSteps.\n`);
};
async function generatedAt(): Promise<string> {
  const out = await mkdtemp(join(tmpdir(), 'skilldex-gen-out-'));
  const saved = process.env.SOURCE_DATE_EPOCH;
  delete process.env.SOURCE_DATE_EPOCH;
  try {
    await buildRegistry({ root, outDir: out, cache: false, scan: false });
    return JSON.parse(await readFile(join(out, 'index.json'), 'utf8')).generatedAt as string;
  } finally {
    if (saved !== undefined) process.env.SOURCE_DATE_EPOCH = saved;
    await rm(out, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skilldex-gen-'));
  execFileSync('git', ['init', '-q'], { cwd: root });
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('generatedAt', () => {
  it('advances when the newest skill is removed, and when only the config changes', async () => {
    await skill('older');
    git(['add', '-A'], '2026-01-01T00:00:00Z');
    git(['commit', '-qm', 'older'], '2026-01-01T00:00:00Z');
    await skill('newer');
    git(['add', '-A'], '2026-06-01T00:00:00Z');
    git(['commit', '-qm', 'newer'], '2026-06-01T00:00:00Z');
    const first = await generatedAt();
    expect(first).toBe('2026-06-01T00:00:00.000Z');

    git(['rm', '-rq', 'skills/newer'], '2026-07-01T00:00:00Z');
    git(['commit', '-qm', 'pull the newer skill'], '2026-07-01T00:00:00Z');
    const afterRemoval = await generatedAt();
    expect(afterRemoval > first).toBe(true);

    await writeFile(join(root, 'skilldex.config.json'), '{ "title": "Renamed" }\n');
    git(['add', '-A'], '2026-08-01T00:00:00Z');
    git(['commit', '-qm', 'config'], '2026-08-01T00:00:00Z');
    expect((await generatedAt()) > afterRemoval).toBe(true);
  });
});

describe('a registry in a folder of a larger repository', () => {
  it('dates each skill by its commits, as at the repository top', async () => {
    const { GitRepo, skillMd } = await import('../helpers/git-repo.ts');
    const repo = new GitRepo('subfolder');
    try {
      repo.write('registry/skills/alpha-skill/SKILL.md', skillMd('alpha-skill', '1.0.0')).commit('alpha', '2026-02-03T04:05:06Z');
      const out = join(repo.root, 'out');
      const result = await buildRegistry({ root: join(repo.root, 'registry'), outDir: out, cache: false, scan: false });
      // git prints paths from the repository's top; the build keys them by the registry's root.
      expect(result.manifests[0]?.lastModified).toBe('2026-02-03T04:05:06.000Z');
      expect(result.historyRead).toBe(true);
    } finally {
      await rm(repo.root, { recursive: true, force: true });
    }
  });
});

describe('git as the build starts it', () => {
  it("dates by the commits themselves, whatever the user's config or replacement refs say", async () => {
    const { GitRepo, skillMd } = await import('../helpers/git-repo.ts');
    const { headCommitTime, gitCommitTimes } = await import('../../src/pipeline/git-times.ts');
    const repo = new GitRepo('replaced');
    try {
      const first = repo.write('skills/alpha-skill/SKILL.md', skillMd('alpha-skill', '1.0.0')).commit('first', '2026-01-01T00:00:00Z');
      const second = repo.write('skills/alpha-skill/SKILL.md', skillMd('alpha-skill', '1.0.1')).commit('second', '2027-01-01T00:00:00Z');
      // A replacement makes a plain `git log` show the first commit in place of the second.
      repo.git('replace', second, first);
      repo.git('config', 'log.showSignature', 'true');
      expect(repo.git('log', '-1', '--format=%ct').trim()).toBe(String(Date.parse('2026-01-01T00:00:00Z') / 1000));
      expect(await headCommitTime(repo.root)).toEqual({ value: Date.parse('2027-01-01T00:00:00Z') / 1000, read: true });
      expect((await gitCommitTimes(repo.root, 'skills')).value.get('skills/alpha-skill/SKILL.md')).toBe(Date.parse('2027-01-01T00:00:00Z') / 1000);
    } finally {
      await rm(repo.root, { recursive: true, force: true });
    }
  });
});
