/**
 * The site integration on its own: Astro's build() with `skilldexSite(...)` and no scripts/build.ts,
 * so the pages can only learn the registry, the docs and the settings from the integration's
 * options (through `virtual:skilldex/config`), and Pagefind runs from `astro:build:done`.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteBuildError, skilldexSite } from '../../src/site/integration/index.ts';
import { writeFixtureRegistry } from '../fixtures/site/registry.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
let work: string;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'skilldex-integration-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('skilldexSite options', () => {
  it('refuses unusable options, naming each field', () => {
    const attempt = () => skilldexSite({ registryDir: '', docsDir: 'docs', site: { siteUrl: 'ftp://example.org/x' }, pageSize: 0 });
    expect(attempt).toThrow(SiteBuildError);
    try {
      attempt();
    } catch (error) {
      expect((error as SiteBuildError).code).toBe('E_SITE_OPTIONS');
      const message = (error as Error).message;
      for (const field of ['registryDir', 'site.siteUrl', 'pageSize']) expect(message).toContain(`\n  ${field}: `);
    }
  });
});

describe('Astro with the site integration', () => {
  it('renders the registry it is given under the base path of its siteUrl, indexes the skill pages and publishes the docs files', async () => {
    const registryDir = path.join(work, 'registry');
    mkdirSync(registryDir);
    // As scripts/build.ts does, the registry is still being built when Astro starts: the pages
    // are generated only once it is ready.
    let index: ReturnType<typeof writeFixtureRegistry> | undefined;
    const registryReady = new Promise<void>((resolve) =>
      setTimeout(() => {
        index = writeFixtureRegistry(registryDir);
        resolve();
      }, 500),
    );
    const docsDir = path.join(work, 'docs');
    mkdirSync(docsDir);
    writeFileSync(path.join(docsDir, 'guide.md'), '# The guide\n\nRead this first.\n\n![map](map.png)\n');
    writeFileSync(path.join(docsDir, 'map.png'), 'not really a PNG');
    const outDir = path.join(work, 'out');
    let indexed = -1;
    const integration = skilldexSite(
      { registryDir, docsDir, site: { title: 'Integration Registry', siteUrl: 'https://example.org/team/skills/' }, pageSize: 2 },
      { registryReady, onSearchIndexed: ({ pages }) => (indexed = pages) },
    );
    await buildWith(integration, outDir);
    if (!index) throw new Error('the registry was never written');

    const home = readFileSync(path.join(outDir, 'index.html'), 'utf8');
    expect(home).toContain('<title>Integration Registry</title>');
    expect(home).toContain('data-base="/team/skills/"');
    expect(home).toContain('<link rel="canonical" href="https://example.org/team/skills/"');
    // Two cards a page, from the pageSize option.
    expect(home.match(/<li class="card"/g)).toHaveLength(2);
    for (const skill of index.skills) {
      expect(readFileSync(path.join(outDir, 'skills', skill.name, 'index.html'), 'utf8')).toContain(`<link rel="canonical" href="https://example.org/team/skills/skills/${skill.name}/"`);
    }
    expect(indexed).toBe(index.skills.length);
    expect(readdirSync(path.join(outDir, 'pagefind'))).toContain('pagefind.js');
    // The search box's "did you mean" words: every word of the skills' titles is there.
    const words = (JSON.parse(readFileSync(path.join(outDir, 'search-words.json'), 'utf8')) as { words: Record<string, number> }).words;
    for (const skill of index.skills) for (const word of skill.title.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 5)) expect(words[word], word).toBeGreaterThan(0);
    expect(readFileSync(path.join(outDir, 'docs/guide/index.html'), 'utf8')).toContain('src="/team/skills/docs/map.png"');
    expect(readFileSync(path.join(outDir, 'docs/map.png'), 'utf8')).toBe('not really a PNG');
  }, 180_000);
});

describe('registryReady', () => {
  it('holds page generation until the registry is ready: a registry that fails fails the build, and no page is written', async () => {
    const registryDir = path.join(work, 'registry-failing');
    mkdirSync(registryDir);
    // The registry is all there: a page written anyway would show that generation did not wait.
    writeFixtureRegistry(registryDir);
    const outDir = path.join(work, 'out-failing');
    const failure = new SiteBuildError('E_REGISTRY', 'The registry has 1 error (listed above)');
    const registryReady = new Promise<void>((_, reject) => setTimeout(() => reject(failure), 500));
    registryReady.catch(() => {});
    const integration = skilldexSite({ registryDir, docsDir: path.join(work, 'no-docs'), site: { title: 'Failing' } }, { registryReady });
    await expect(buildWith(integration, outDir)).rejects.toThrow('The registry has 1 error');
    expect(existsSync(path.join(outDir, 'index.html'))).toBe(false);
    expect(existsSync(path.join(outDir, 'skills'))).toBe(false);
  }, 180_000);
});

/** Astro's build() with `integration`, as scripts/build.ts runs it: its prerender chunks under a working directory of its own. */
async function buildWith(integration: ReturnType<typeof skilldexSite>, outDir: string): Promise<void> {
  const cwd = process.cwd();
  const scratch = path.join(repoRoot, '.cache', 'skilldex-astro', `test-${createHash('sha256').update(outDir).digest('hex').slice(0, 12)}`);
  mkdirSync(scratch, { recursive: true });
  process.chdir(scratch);
  try {
    const { build } = await import('astro');
    await build({ root: repoRoot, outDir, cacheDir: path.join(work, 'astro-cache'), logLevel: 'error', integrations: [integration] });
  } finally {
    process.chdir(cwd);
    rmSync(scratch, { recursive: true, force: true });
  }
}

describe('indexSkillPages', () => {
  it('reports a Pagefind process that dies instead of exiting without a word', () => {
    const dir = path.join(work, 'pagefind-blocked');
    mkdirSync(path.join(dir, 'skills/x'), { recursive: true });
    writeFileSync(path.join(dir, 'skills/x/index.html'), '<!doctype html><html lang="en"><body><main data-pagefind-body><h1>X</h1><p>Some words.</p></main></body></html>');
    // A file where Pagefind must create its folder: Pagefind panics rather than return an error.
    writeFileSync(path.join(dir, 'pagefind'), 'in the way');
    const script = `import { indexSkillPages } from ${JSON.stringify(path.join(repoRoot, 'src/site/integration/pagefind.ts'))};
try { await indexSkillPages(${JSON.stringify(dir)}); console.log('indexed'); } catch (error) { console.log(error.code, error.message); }`;
    const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    expect(stdout).toContain('E_PAGEFIND Pagefind stopped without answering');
    expect(stdout).toContain('hint: check that the output folder is writable');
    expect(existsSync(path.join(dir, 'pagefind'))).toBe(true);
  });
});
