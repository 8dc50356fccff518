import { spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RACY_WINDOW_MS } from '../../src/pipeline/cache-file.ts';
import { generateSigningKey } from '../../src/pipeline/emit/sign.ts';
import { lastBuild, walkInputs, walkInputsBeside, type PendingInputs } from '../../src/pipeline/last-build.ts';
import { CLI, runSkilldex } from '../helpers/cli.ts';
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

const CASES = ['plain', 'same-stamp', 'added', 'deep', 'config', 'output', 'cache', 'epoch', 'lenient', 'racy', 'forged', 'out-dir', 'pipe-key', 'segment-link', 'out-link', 'fifo', 'order', 'out-file', 'site-url'] as const;
const rootOf = (name: string) => join(dir, name);
let repo: GitRepo;
let unreadable: GitRepo;
let unborn: GitRepo;

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
  unreadable = new GitRepo('unchanged-no-git');
  for (const r of [repo, unreadable]) {
    for (const skill of SKILLS) r.write(`skills/${skill}/SKILL.md`, skillMd(skill, '1.0.0'));
    r.commit('add the skills', '2026-01-02T03:04:05Z');
  }
  // `git init`, skills written, nothing committed yet: how a new registry starts.
  unborn = new GitRepo('unchanged-unborn');
  for (const skill of SKILLS) unborn.write(`skills/${skill}/SKILL.md`, skillMd(skill, '1.0.0'));
  // Skills under src/skills, for a link put on the way to them.
  const nested = rootOf('segment-link');
  renameSync(join(nested, 'skills'), join(nested, 'src-skills'));
  mkdirSync(join(nested, 'src'));
  renameSync(join(nested, 'src-skills'), join(nested, 'src', 'skills'));
  writeFileSync(join(nested, 'skilldex.config.json'), '{ "title": "Test registry", "skillsDir": "src/skills" }\n');
  // A folder two levels into a skill, for an entry added and removed below a folder left as it was.
  mkdirSync(join(rootOf('deep'), 'skills', 'alpha-skill', 'references'));
  writeFileSync(join(rootOf('deep'), 'skills', 'alpha-skill', 'references', 'guide.md'), '# Guide\n');
  // A dot folder in the skills folder, which discovery skips and the record's walk too.
  mkdirSync(join(rootOf('out-link'), 'skills', '.stash'));
  await new Promise((done) => setTimeout(done, RACY_WINDOW_MS + 200));
}, 30_000);
afterAll(() => {
  for (const r of [repo, unreadable, unborn]) rmSync(r.root, { recursive: true, force: true });
});

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

  it('lists again each folder whose stamp moved, however deep, and only trusts the last listing of the others', async () => {
    const root = rootOf('deep');
    const settle = () => new Promise((done) => setTimeout(done, RACY_WINDOW_MS + 200));
    await recorded(root);
    const record = () => JSON.parse(readFileSync(join(root, '.cache', 'skilldex', 'last-build.json'), 'utf8')) as { listings: Record<string, [number[], string[]]> };
    expect(record().listings['skills/alpha-skill/references']?.[1]).toEqual(['guide.md']);
    const files = () => (JSON.parse(readFileSync(join(root, 'dist', 'skills', 'alpha-skill.json'), 'utf8')) as { files: { path: string }[] }).files.map((f) => f.path);
    const references = join(root, 'skills', 'alpha-skill', 'references');
    // Added below alpha-skill/, whose own stamp (and listing) stays as recorded; built once the
    // change has settled, so that this build records what its walk found.
    const skillFolder = statSync(join(root, 'skills', 'alpha-skill'));
    writeFileSync(join(references, 'extra.md'), '# Extra\n');
    expect(statSync(join(root, 'skills', 'alpha-skill')).mtimeMs).toBe(skillFolder.mtimeMs);
    await settle();
    await expectFullBuild(root);
    expect(files()).toContain('references/extra.md');
    expect(record().listings['skills/alpha-skill/references']?.[1]).toEqual(['extra.md', 'guide.md']);
    // So the new file's own stamps are in the key: edited in place, it makes the next build run.
    writeFileSync(join(references, 'extra.md'), '# Extra, edited\n');
    await expectFullBuild(root);
    await settle();
    await recorded(root);
    // Removed, then renamed: each time the walk lists the folder again and the build runs.
    rmSync(join(references, 'extra.md'));
    await settle();
    await expectFullBuild(root);
    expect(files()).not.toContain('references/extra.md');
    expect(record().listings['skills/alpha-skill/references']?.[1]).toEqual(['guide.md']);
    renameSync(join(references, 'guide.md'), join(references, 'manual.md'));
    await settle();
    await expectFullBuild(root);
    expect(files()).toEqual(expect.arrayContaining(['references/manual.md']));
    expect(files()).not.toContain('references/guide.md');
    await build(root).then((again) => expect(again.stderr).toContain(UNCHANGED));
  }, 30_000);

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

  it('takes --site-url (or SKILLDEX_SITE_URL) over the config, builds again when it differs, and refuses a bad one', async () => {
    const root = rootOf('site-url');
    const registryUrl = () => JSON.parse(readFileSync(join(root, 'dist', 'index.json'), 'utf8')).registry.url;
    await recorded(root, ['--site-url', 'https://acme.github.io/skills']);
    expect(registryUrl()).toBe('https://acme.github.io/skills/');
    await expectFullBuild(root, [], { SKILLDEX_SITE_URL: 'https://skills.acme.example/' });
    expect(registryUrl()).toBe('https://skills.acme.example/');
    const bad = await build(root, ['--site-url', 'ftp://x.example/']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('error ftp://x.example/ is not a usable site URL');
    expect(registryUrl()).toBe('https://skills.acme.example/');
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
    // Listings whose names are paths, or that are not listings: the walk never follows them out of the skills folder.
    for (const name of ['..', '../../outside', 'alpha-skill/SKILL.md', '.git', 'node_modules', '']) {
      writeFileSync(file, JSON.stringify({ ...record, listings: { skills: [[0, 0, 0, 0], [name]] } }));
      await expectFullBuild(root);
    }
    writeFileSync(file, JSON.stringify({ ...record, listings: { skills: 'alpha-skill' } }));
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

  it('signs with a key file that is a pipe, which only the build may read', async () => {
    const root = rootOf('pipe-key');
    const key = await generateSigningKey();
    writeFileSync(join(root, 'skilldex.config.json'), JSON.stringify({ title: 'Signed', signing: { keys: [{ publicKey: key.publicKey }] } }));
    // `<(…)`: a pipe the shell names /dev/fd/63, as a secret store hands a key over.
    const script = 'SKILLDEX_SIGNING_KEY_FILE=<(printf %s "$KEY") exec "$NODE" "$CLI" build --out dist';
    const run = spawnSync('bash', ['-c', script], { cwd: root, encoding: 'utf8', env: env({ KEY: key.privateKeyPem, NODE: process.execPath, CLI }) });
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(join(root, 'dist', 'index.jws.json'))).toBe(true);
  });

  it('takes the key of the config before the config is read', async () => {
    const root = rootOf('order');
    const settings = { root, outDir: join(root, 'dist'), lenient: false, scan: true };
    const same = (lastBuild(settings) as { inputs: PendingInputs }).inputs;
    expect((await same('skills'))?.key).toBe((await (lastBuild(settings) as { inputs: PendingInputs }).inputs('skills'))?.key);
    // The config changes between the check and the build's reading of it: the recorded key must
    // be the old config's, so that the next build sees a change.
    const pending = (lastBuild(settings) as { inputs: PendingInputs }).inputs;
    writeFileSync(join(root, 'skilldex.config.json'), '{ "title": "Changed meanwhile" }\n');
    const now = (lastBuild(settings) as { inputs: PendingInputs }).inputs;
    expect((await pending('skills'))?.key).not.toBe((await now('skills'))?.key);
  });

  it('walks the skills folder on a thread of its own to the very key and listings a walk here takes', async () => {
    const root = rootOf('deep');
    const request = { before: { key: 'before', startedAt: Date.now(), latestChange: 0 }, root, skillsDir: 'skills' };
    const beside = await walkInputsBeside(request);
    expect(beside).toEqual(walkInputs(request));
    expect(Object.keys(beside?.listings ?? {}).sort()).toEqual(['skills', 'skills/alpha-skill', 'skills/alpha-skill/references', 'skills/beta-skill']);
    // The same folder, listed by the last build: only folders whose stamp moved are listed again.
    expect(await walkInputsBeside({ ...request, known: beside?.listings ?? {} })).toEqual(beside);
  });

  it('keys the config and git HEAD by their stamps too: edited and put back while a build ran, they count as changed', async () => {
    const root = rootOf('order');
    const settings = { root, outDir: join(root, 'dist'), lenient: false, scan: true };
    const keyNow = (s: typeof settings) => (lastBuild(s) as { inputs: PendingInputs }).inputs('skills');
    const before = await keyNow(settings);
    const text = readFileSync(join(root, 'skilldex.config.json'));
    writeFileSync(join(root, 'skilldex.config.json'), '{ "title": "Meanwhile" }\n');
    writeFileSync(join(root, 'skilldex.config.json'), text);
    const after = await keyNow(settings);
    expect(after?.key).not.toBe(before?.key);
    // Put back just now: within the racy window, so a build would not record it.
    expect(after?.settled).toBe(false);

    const atRepo = { root: repo.root, outDir: join(repo.root, 'dist'), lenient: false, scan: true };
    const head = repo.git('rev-parse', 'HEAD').trim();
    const beforeCommit = await keyNow(atRepo);
    repo.commit('made during a build', '2030-01-01T00:00:00Z');
    repo.git('update-ref', 'refs/heads/main', head);
    expect(repo.git('rev-parse', 'HEAD').trim()).toBe(head);
    expect((await keyNow(atRepo))?.key).not.toBe(beforeCommit?.key);
  });

  it('says the output folder is a file, as a full build does, after a file took its place', async () => {
    const root = rootOf('out-file');
    await recorded(root);
    renameSync(join(root, 'dist'), join(root, 'dist-moved'));
    writeFileSync(join(root, 'dist'), 'a file\n');
    const again = await build(root);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('error dist is a file, not a folder');
  });

  it('builds again, and fails as a full build does, once a folder on the way to the skills is a link', async () => {
    const root = rootOf('segment-link');
    await recorded(root);
    renameSync(join(root, 'src'), join(root, 'src-real'));
    symlinkSync('src-real', join(root, 'src'));
    const again = await build(root);
    expect(again.stderr).not.toContain(UNCHANGED);
    expect(again.stderr).toContain('files/symlink');
    expect(again.status).toBe(1);
  });

  it('refuses, as a full build does, an output folder that a link now puts inside the skills folder', async () => {
    const root = rootOf('out-link');
    mkdirSync(join(root, 'real-out'));
    symlinkSync('real-out', join(root, 'dist'));
    await recorded(root);
    renameSync(join(root, 'real-out'), join(root, 'skills', '.stash', 'out'));
    rmSync(join(root, 'dist'));
    symlinkSync(join(root, 'skills', '.stash', 'out'), join(root, 'dist'));
    const again = await build(root);
    expect(again.stderr).toContain('lies inside the skills folder');
    expect(again.status).toBe(2);
  });

  it('reads neither a record nor a cache that is a pipe or a device, and still builds', async () => {
    const root = rootOf('fifo');
    await recorded(root);
    const cacheDir = join(root, '.cache', 'skilldex');
    rmSync(join(cacheDir, 'last-build.json'));
    execFileSync('mkfifo', [join(cacheDir, 'last-build.json')]);
    rmSync(join(cacheDir, 'build-cache.json'));
    symlinkSync('/dev/zero', join(cacheDir, 'build-cache.json'));
    await expectFullBuild(root);
  });

  it('records nothing while git cannot read the history, and records once it can', async () => {
    const noGit = mkdtempSync(join(tmpdir(), 'skilldex-no-git-'));
    const withoutGit = { PATH: noGit };
    await expectFullBuild(unreadable.root, [], withoutGit);
    await expectFullBuild(unreadable.root, [], withoutGit);
    // With git, the build dates the skills by their commits: a record from the build without it
    // would have kept the undated output.
    await expectFullBuild(unreadable.root);
    const manifest = JSON.parse(readFileSync(join(unreadable.root, 'dist', 'skills', 'alpha-skill.json'), 'utf8')) as { lastModified?: string };
    expect(manifest.lastModified).toBe('2026-01-02T03:04:05.000Z');
    const again = await build(unreadable.root);
    expect(again.stderr).toContain(UNCHANGED);
    rmSync(noGit, { recursive: true, force: true });
  });

  it('answers from the last build in a repository with no commit yet', async () => {
    await recorded(unborn.root);
    unborn.commit('first', '2026-04-05T06:07:08Z');
    await expectFullBuild(unborn.root);
  });
});
