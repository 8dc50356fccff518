/**
 * Every version, end to end, on a git repository made here: a registry built at version 1.0.0,
 * then the skill released as 2.0.0 and edited once more without a version change, then the whole
 * site built again. Both versions are in the versions document and on the skill's page; the real
 * CLI installs 1.0.0 (by number and by range) over HTTP on 127.0.0.1, verified, with exactly the
 * files the first build published; every content-addressed URL of the first build still serves
 * the same bytes; and a forged versions document is refused.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRepo, skillMd } from '../helpers/git-repo.ts';
import { REPO, runSkilldex } from '../helpers/cli.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';
import { rewriteManifest, tempDir } from '../runtime/_registries.ts';

const BUILD_TIMEOUT_MS = 150_000;
let repo: GitRepo;
/** Content-addressed files of the first build (path under the registry root → bytes). */
const firstBuild = new Map<string, Buffer>();
let firstDigest: string;
let site: string;
let server: StaticServer;
let cacheDir: string;

function buildSite(root: string, out: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [join(REPO, 'scripts/build.ts'), '--root', root, '--out', out], { cwd: REPO, encoding: 'utf8', timeout: BUILD_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`site build failed:\n${stdout}\n${stderr}`)) : resolve(`${stdout}${stderr}`),
    );
  });
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) out.push(join(entry.parentPath, entry.name));
  return out;
}

const cli = (args: string[], cwd = REPO, registry = server.url) =>
  runSkilldex(cwd, [...args, '--registry', registry], { PATH: process.env.PATH ?? '', HOME: cacheDir, NO_COLOR: '1', SKILLDEX_CACHE_DIR: cacheDir });

beforeAll(async () => {
  repo = new GitRepo('e2e-versions');
  repo.write('skills/greet/SKILL.md', skillMd('greet', '1.0.0', '# Greet\n\nSay hello.\n')).write('skills/greet/references/phrases.md', 'Hello. Good morning.\n');
  repo.commit('Add greet', '2026-01-02T10:00:00Z');

  // The first deploy: the registry as it was at 1.0.0, built by the real CLI.
  const first = await tempDir('e2e-versions-first');
  const built = await runSkilldex(REPO, ['build', '--root', repo.root, '--out', first]);
  expect(built.status, built.stderr).toBe(0);
  const manifest = JSON.parse(await readFile(join(first, 'skills/greet.json'), 'utf8'));
  firstDigest = manifest.digest;
  for (const file of await filesUnder(join(first, manifest.urls.files))) firstBuild.set(relative(first, file), await readFile(file));
  firstBuild.set(manifest.urls.archive, await readFile(join(first, manifest.urls.archive)));

  repo.write('skills/greet/SKILL.md', skillMd('greet', '2.0.0', '# Greet\n\nSay hello warmly.\n'));
  repo.write('skills/greet/CHANGELOG.md', '# Changelog\n\n## [2.0.0] - 2026-02-01\n\n- Warmer greetings.\n');
  repo.commit('greet 2.0.0: warmer', '2026-02-01T10:00:00Z');
  repo.write('skills/greet/references/phrases.md', 'Hello. Good morning. Good evening.\n').commit('greet: one more phrase', '2026-02-03T10:00:00Z');

  site = await tempDir('e2e-versions-site');
  await buildSite(repo.root, site);
  server = await serveDirectory(site);
  cacheDir = await tempDir('e2e-versions-cache');
}, 240_000);
afterAll(async () => {
  await server?.close();
});

describe('every version of a skill, end to end', () => {
  it('lists both versions in the versions document, dated by their first commits, with what changed', async () => {
    const response = await fetch(new URL('skills/greet.versions.json', server.url));
    const document = await response.json();
    expect(document.name).toBe('greet');
    expect(document.versions.map((v: any) => [v.version, v.date, v.manifest ?? null])).toEqual([
      ['2.0.0', '2026-02-01T10:00:00.000Z', null],
      ['1.0.0', '2026-01-02T10:00:00.000Z', 'skills/greet@1.0.0.json'],
    ]);
    expect(document.versions[0].changelog).toBe('- Warmer greetings.');
    expect(document.versions[1]).toMatchObject({ digest: firstDigest, commits: ['Add greet'] });
    expect(document.versions[0].digest).not.toBe(firstDigest);
  });

  it('shows both versions on the skill page', async () => {
    const html = await readFile(join(site, 'skills/greet/index.html'), 'utf8');
    const panel = html.slice(html.indexOf('<section aria-labelledby="versions"'), html.indexOf('</section>', html.indexOf('aria-labelledby="versions"')));
    expect([...panel.matchAll(/data-version="([^"]+)"/g)].map((m) => m[1])).toEqual(['2.0.0', '1.0.0']);
    expect(panel).toContain('<time datetime="2026-02-01T10:00:00.000Z">2026-02-01</time>');
    expect(panel).toContain('<li>Warmer greetings.</li>');
    expect(panel).toContain('<li>Add greet</li>');
    expect(panel).toContain(firstDigest);
    expect(panel).toContain(`href="/skills/greet/${firstDigest.slice(7, 23)}.tar.gz"`);
    expect(panel).toContain('npx skilldex install greet@1.0.0');
  });

  it('still serves every content-addressed URL of the first build with the same bytes', async () => {
    expect(firstBuild.size).toBe(3);
    for (const [path, bytes] of firstBuild) {
      const response = await fetch(new URL(path, server.url));
      expect(response.status, path).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).equals(bytes), path).toBe(true);
    }
  });

  it('installs 1.0.0 through the real CLI, by number and by range, verified, with the first build\'s files', async () => {
    const project = await tempDir('e2e-versions-project');
    const exact = await cli(['install', 'greet@1.0.0', '--dir', project], project);
    expect(exact.status, exact.stderr).toBe(0);
    expect(exact.stdout).toBe(`installed greet@1.0.0 → ${join(project, 'greet')} (2 files, verified ${firstDigest})\n`);
    const prefix = `skills/greet/${firstDigest.slice(7, 23)}/`;
    for (const [path, bytes] of firstBuild) {
      if (!path.startsWith(prefix)) continue;
      expect((await readFile(join(project, 'greet', path.slice(prefix.length)))).equals(bytes), path).toBe(true);
    }

    const ranged = await cli(['install', 'greet@^1', '--to', 'claude', '--json'], project);
    expect(ranged.status, ranged.stderr).toBe(0);
    expect(JSON.parse(ranged.stdout)).toMatchObject({ name: 'greet', version: '1.0.0', digest: firstDigest, changed: true });
    expect(await readFile(join(project, '.claude/skills/greet/SKILL.md'), 'utf8')).toContain('Say hello.\n');

    const current = await cli(['install', 'greet', '--dir', project, '--json'], project);
    expect(JSON.parse(current.stdout)).toMatchObject({ version: '2.0.0', changed: true });
    expect(await readFile(join(project, 'greet/references/phrases.md'), 'utf8')).toBe('Hello. Good morning. Good evening.\n');
  });

  it('lists the versions in info, and names them when a range matches none', async () => {
    const info = await cli(['info', 'greet']);
    expect(info.status).toBe(0);
    expect(info.stdout).toMatch(/^versions {3}2\.0\.0 {2}2026-02-01 {2}← shown\n {11}1\.0\.0 {2}2026-01-02$/m);
    const missing = await cli(['install', 'greet@^3', '--dir', await tempDir('e2e-versions-none')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('no version of greet in');
    expect(missing.stderr).toContain('matches ^3 [VERSION_NOT_FOUND]');
    expect(missing.stderr).toContain('hint: available: 2.0.0, 1.0.0; install one with greet@<version>');
  });

  it('refuses a forged versions document and installs nothing', async () => {
    const forged = await tempDir('e2e-versions-forged');
    await cp(site, forged, { recursive: true });
    // The host swaps in a document that points 1.0.0 at 2.0.0's files, and re-pins it consistently.
    const path = join(forged, 'skills/greet.versions.json');
    const document = JSON.parse(await readFile(path, 'utf8'));
    document.versions[1].digest = document.versions[0].digest;
    const text = JSON.stringify(document);
    await writeFile(path, text);
    await rewriteManifest(forged, 'greet', (m) => (m.versions = { ...m.versions, size: Buffer.byteLength(text), digest: `sha256:${createHash('sha256').update(text).digest('hex')}` }));
    const hostile = await serveDirectory(forged);
    try {
      const project = await tempDir('e2e-versions-refused');
      await mkdir(join(project, 'keep'));
      const result = await cli(['install', 'greet@1.0.0', '--dir', project], project, hostile.url);
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/\[VERIFICATION_FAILED\]|\[VERSIONS_INVALID\]/);
      expect(await readdir(project)).toEqual(['keep']);
    } finally {
      await hostile.close();
    }
  });
});
