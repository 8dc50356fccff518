import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RACY_WINDOW_MS } from '../../src/pipeline/cache-file.ts';
import { runSkilldex } from '../helpers/cli.ts';
import { GitRepo, skillMd } from '../helpers/git-repo.ts';

/**
 * `skilldex build` answers from the last build's record when nothing changed
 * (src/pipeline/last-build.ts). Each case gets its own registry, all written before one wait of
 * the racy window: a build records its input only when nothing in it changed just before.
 */
const dir = mkdtempSync(join(tmpdir(), 'skilldex-unchanged-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
  const base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete base.SOURCE_DATE_EPOCH;
  return { ...base, ...extra };
};
const SKILLS = ['alpha-skill', 'beta-skill'];
const UNCHANGED = 'nothing changed since the last build';

const CASES = ['plain', 'same-stamp', 'added', 'config', 'output', 'cache', 'epoch', 'lenient', 'racy', 'forged', 'out-dir'] as const;
const rootOf = (name: string) => join(dir, name);
let repo: GitRepo;

beforeAll(async () => {
  for (const name of CASES) {
    for (const skill of SKILLS) {
      mkdirSync(join(rootOf(name), 'skills', skill), { recursive: true });
      writeFileSync(join(rootOf(name), 'skills', skill, 'SKILL.md'), skillMd(skill, '1.0.0'));
    }
    writeFileSync(join(rootOf(name), 'skilldex.config.json'), '{ "title": "Test registry" }\n');
  }
  // A whole second, which utimes can set again exactly.
  utimesSync(join(rootOf('same-stamp'), 'skills', 'alpha-skill', 'SKILL.md'), 1767225600, 1767225600);
  repo = new GitRepo('unchanged');
  for (const skill of SKILLS) repo.write(`skills/${skill}/SKILL.md`, skillMd(skill, '1.0.0'));
  repo.commit('add the skills', '2026-01-02T03:04:05Z');
  await new Promise((done) => setTimeout(done, RACY_WINDOW_MS + 200));
}, 30_000);
afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

const build = (root: string, args: string[] = [], extra?: NodeJS.ProcessEnv) => runSkilldex(root, ['build', '--out', 'dist', ...args], env(extra));

/** Builds twice: the first build records, the second answers from the record. */
async function recorded(root: string, args: string[] = [], extra?: NodeJS.ProcessEnv): Promise<void> {
  const first = await build(root, args, extra);
  expect(first.status, first.stderr).toBe(0);
  expect(first.stderr).toContain('published 2 skills to dist');
  const second = await build(root, args, extra);
  expect(second.status, second.stderr).toBe(0);
  expect(second.stderr).toContain(`${UNCHANGED}: dist holds its 2 skills`);
}

async function expectFullBuild(root: string, args: string[] = [], extra?: NodeJS.ProcessEnv): Promise<void> {
  const again = await build(root, args, extra);
  expect(again.status, again.stderr).toBe(0);
  expect(again.stderr).not.toContain(UNCHANGED);
  expect(again.stderr).toMatch(/published \d+ skills? to dist/);
}

describe('skilldex build when nothing changed', () => {
  it('answers from the last build, writes nothing, and says so in every format', async () => {
    const root = rootOf('plain');
    await recorded(root);
    const index = statSync(join(root, 'dist', 'index.json'));
    const json = await build(root, ['--format', 'json']);
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ published: 2, rejected: [], unchanged: true, errors: 0 });
    expect(statSync(join(root, 'dist', 'index.json')).mtimeMs).toBe(index.mtimeMs);
    expect(JSON.parse(readFileSync(join(root, '.cache', 'skilldex', 'last-build.json'), 'utf8'))).toMatchObject({ summary: { ok: true, published: 2 } });
  });

  it('builds again after a file changed in place with its size and mtime kept', async () => {
    const root = rootOf('same-stamp');
    await recorded(root);
    const file = join(root, 'skills', 'alpha-skill', 'SKILL.md');
    const before = statSync(file);
    writeFileSync(file, readFileSync(file, 'utf8').replace('Do the thing.', 'Do the thang.'));
    utimesSync(file, 1767225600, 1767225600);
    const after = statSync(file);
    expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino]);
    await expectFullBuild(root);
    const manifest = JSON.parse(readFileSync(join(root, 'dist', 'skills', 'alpha-skill.json'), 'utf8')) as { urls: { files: string } };
    expect(readFileSync(join(root, 'dist', manifest.urls.files, 'SKILL.md'), 'utf8')).toContain('Do the thang.');
  });

  it('builds again after a file was added to a skill', async () => {
    const root = rootOf('added');
    await recorded(root);
    writeFileSync(join(root, 'skills', 'beta-skill', 'notes.md'), '# Notes\n');
    await expectFullBuild(root);
    const manifest = JSON.parse(readFileSync(join(root, 'dist', 'skills', 'beta-skill.json'), 'utf8')) as { files: { path: string }[] };
    expect(manifest.files.map((f) => f.path)).toContain('notes.md');
  });

  it('builds again after the config changed', async () => {
    const root = rootOf('config');
    await recorded(root);
    writeFileSync(join(root, 'skilldex.config.json'), '{ "title": "Renamed registry" }\n');
    await expectFullBuild(root);
    expect(JSON.parse(readFileSync(join(root, 'dist', 'index.json'), 'utf8'))).toMatchObject({ registry: { title: 'Renamed registry' } });
  });

  it('builds again, and restores the index, after the output folder was edited', async () => {
    const root = rootOf('output');
    await recorded(root);
    const index = join(root, 'dist', 'index.json');
    const original = readFileSync(index, 'utf8');
    writeFileSync(index, '{}');
    await expectFullBuild(root);
    expect(readFileSync(index, 'utf8')).toBe(original);
  });

  it('builds again after the build cache was deleted', async () => {
    const root = rootOf('cache');
    await recorded(root);
    rmSync(join(root, '.cache', 'skilldex', 'build-cache.json'));
    await expectFullBuild(root);
  });

  it('builds again when SOURCE_DATE_EPOCH, --lenient or --out differ', async () => {
    await recorded(rootOf('epoch'), [], { SOURCE_DATE_EPOCH: '1767225600' });
    await expectFullBuild(rootOf('epoch'), [], { SOURCE_DATE_EPOCH: '1767312000' });
    expect(JSON.parse(readFileSync(join(rootOf('epoch'), 'dist', 'index.json'), 'utf8'))).toMatchObject({ generatedAt: '2026-01-02T00:00:00.000Z' });

    await recorded(rootOf('lenient'));
    await expectFullBuild(rootOf('lenient'), ['--lenient']);

    await recorded(rootOf('out-dir'));
    const other = await runSkilldex(rootOf('out-dir'), ['build', '--out', 'elsewhere'], env());
    expect(other.stderr).toContain('published 2 skills to elsewhere');
  });

  it('records nothing while the input is still changing (a write may be under way)', async () => {
    const root = rootOf('racy');
    await recorded(root);
    writeFileSync(join(root, 'skills', 'alpha-skill', 'notes.md'), '# Notes\n');
    await expectFullBuild(root);
    // Within the racy window of that edit: the second build cannot trust the stamps either.
    await expectFullBuild(root);
  });

  it('ignores a record it did not write', async () => {
    const root = rootOf('forged');
    await recorded(root);
    const file = join(root, '.cache', 'skilldex', 'last-build.json');
    const record = JSON.parse(readFileSync(file, 'utf8')) as { key: string; summary: { published: number } };
    writeFileSync(file, JSON.stringify({ ...record, key: '0'.repeat(64), summary: { ...record.summary, published: 99 } }));
    await expectFullBuild(root);
    writeFileSync(file, JSON.stringify({ ...record, summary: { ...record.summary, diagnostics: [{ file: 1 }] } }));
    await expectFullBuild(root);
    for (const broken of ['', '{', 'null', '[]', '{"format":1}']) {
      writeFileSync(file, broken);
      await expectFullBuild(root);
    }
  });

  it('builds again after a commit, even one that changes no file (the index is dated by HEAD)', async () => {
    await recorded(repo.root);
    repo.commit('empty', '2026-03-04T05:06:07Z');
    await expectFullBuild(repo.root);
    expect(JSON.parse(readFileSync(join(repo.root, 'dist', 'index.json'), 'utf8'))).toMatchObject({ generatedAt: '2026-03-04T05:06:07.000Z' });
  });
});
