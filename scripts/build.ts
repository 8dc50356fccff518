/**
 * `npm run build`: the registry and its catalog site, into one static folder.
 *
 *   node scripts/build.ts [--root <repo>] [--out dist] [--registry <prebuilt registry dir>] [--site-url <url>]
 *
 * `--site-url` (or SKILLDEX_SITE_URL) overrides skilldex.config.json's `siteUrl`: the deploy
 * workflow passes the URL GitHub Pages will serve the site at. A URL with a path
 * (`https://user.github.io/repo/`) puts every link, asset and search bundle under that path.
 *
 * 1. buildRegistry() validates, scans and emits the registry into a staging folder
 *    (`<root>/.cache/skilldex/registry`); any error diagnostic stops the build here.
 *    `--registry` skips this step and publishes an already-built registry folder instead.
 * 2. Astro renders the site; pages read the staged registry from disk (SKILLDEX_REGISTRY_DIR).
 * 3. Pagefind indexes the skill pages (only those) through its Node API; any error fails the build.
 * 4. The staged registry files are moved next to the pages (copied, for `--registry`), after
 *    indexing, so a skill's own HTML files can never end up in the search index.
 * 5. The browser runtime is bundled to /runtime/skilldex.js (scripts/bundle-runtime.ts).
 * 6. Files beside the docs/*.md pages (images) are copied to /docs/, where the rendered pages link them.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cp, readdir, rename } from 'node:fs/promises';
import module from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';

import type { RegistryConfig } from '../src/core/schemas/config.ts';
import type { Diagnostic } from '../src/core/schemas/diagnostic.ts';
import { bundleBrowserRuntime } from './bundle-runtime.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface SiteBuildOptions {
  /** Repository holding skills/ and optionally skilldex.config.json. */
  root: string;
  /** Output folder for the deployable site. */
  outDir: string;
  /** Publish this already-built registry folder instead of running buildRegistry. */
  registryDir?: string;
  /** Passed to buildRegistry: keep every valid skill and report invalid ones as warnings. */
  lenient?: boolean;
  /** Where the site will be served, overriding the config's `siteUrl`. */
  siteUrl?: string;
  log?: (line: string) => void;
}

export interface SiteBuildResult {
  skills: number;
  pagesIndexed: number;
  timings: Record<string, number>;
  peakRssMb: Record<string, number>;
}

/** A build failure the user can act on: the message says what failed and what to do. */
export class SiteBuildError extends Error {
  override name = 'SiteBuildError';
  code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** The contract of src/pipeline/index.ts, restated so this file type-checks on its own. */
type BuildRegistry = (options: { root: string; outDir: string; lenient?: boolean; config?: RegistryConfig }) => Promise<{
  ok: boolean;
  manifests: unknown[];
  diagnostics: Diagnostic[];
  config: RegistryConfig;
}>;

interface SiteSettings {
  title: string;
  siteUrl?: string;
  repository?: { url: string; branch: string };
}

export async function buildSite(options: SiteBuildOptions): Promise<SiteBuildResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const root = path.resolve(options.root);
  const outDir = path.resolve(options.outDir);
  const timings: Record<string, number> = {};
  /** Peak RSS of this process so far, in MB, after each step: shows which step set the peak. */
  const peakRssMb: Record<string, number> = {};
  const time = async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await fn();
    } finally {
      timings[label] = Math.round(performance.now() - start);
      peakRssMb[label] = Math.round(process.resourceUsage().maxRSS / 1024);
    }
  };

  const siteUrl = options.siteUrl === undefined ? undefined : checkSiteUrl(options.siteUrl, '--site-url (or SKILLDEX_SITE_URL)');
  if (!options.registryDir) await requireSkillsFolder(root);
  prepareOutDir(outDir, root);

  // 1. Registry
  let registryDir: string;
  let settings: SiteSettings;
  if (options.registryDir) {
    registryDir = path.resolve(options.registryDir);
    if (!existsSync(path.join(registryDir, 'index.json'))) {
      throw new SiteBuildError('E_NO_REGISTRY', `${registryDir} has no index.json; pass a folder written by buildRegistry.`);
    }
    settings = await readSettings(root, siteUrl);
  } else {
    registryDir = path.join(root, '.cache', 'skilldex', 'registry');
    rmSync(registryDir, { recursive: true, force: true });
    mkdirSync(registryDir, { recursive: true });
    settings = await time('registry', () => stageRegistry(root, registryDir, options.lenient ?? false, siteUrl, log));
  }
  if (!settings.siteUrl) {
    log(
      'warning: no siteUrl: the feed, the sitemap and OpenGraph tags need absolute URLs, so they get site-relative ones, and skill pages show a <site-url> placeholder in their install commands.\n' +
        '  hint: set "siteUrl" in skilldex.config.json (e.g. "https://skills.example.org/"), or pass --site-url <url> or SKILLDEX_SITE_URL; see docs/hosting.md',
    );
  }

  // 2. Astro
  process.env.SKILLDEX_REGISTRY_DIR = registryDir;
  process.env.SKILLDEX_SITE_CONFIG = JSON.stringify(settings);
  const docsDir = path.join(projectRoot, 'docs');
  process.env.SKILLDEX_DOCS_DIR = docsDir;
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  await time('astro', async () => {
    const { build } = await import('astro');
    // Astro bundles the pages into `<cwd>/.astro/.prerender/` when outDir lies outside the working
    // directory, so two concurrent builds (the test suite, the bench) would overwrite each other's
    // chunks. Each build therefore runs from a working directory of its own, inside the project so
    // the chunks still resolve node_modules.
    const workDir = path.join(projectRoot, '.cache', 'skilldex-astro', createHash('sha256').update(outDir).digest('hex').slice(0, 16));
    rmSync(workDir, { recursive: true, force: true });
    mkdirSync(workDir, { recursive: true });
    const previousCwd = process.cwd();
    process.chdir(workDir);
    try {
      await build({
        root: projectRoot,
        outDir,
        // One cache per registry root, so concurrent builds don't share state here either.
        cacheDir: path.join(root, '.cache', 'skilldex', 'astro'),
        logLevel: 'warn',
        site: settings.siteUrl,
        // Astro's own URLs (none today: scripts and styles are files in public/) follow the site's
        // path too; the pages build every link through src/site/catalog/routes.ts#sitePath.
        base: settings.siteUrl ? new URL(settings.siteUrl).pathname : '/',
      });
    } finally {
      process.chdir(previousCwd);
      rmSync(workDir, { recursive: true, force: true });
    }
  });

  // 3. Pagefind
  const pagesIndexed = await time('pagefind', () => indexSearch(outDir));

  // 4. Registry files next to the pages. The staged registry is this build's own scratch (the
  // next build empties it), so it is moved, not copied: copying ~100k files took 26 s at 10k
  // skills. A registry passed with --registry belongs to the caller and is copied.
  await time('registry files', () => (options.registryDir ? cp(registryDir, outDir, { recursive: true, force: true, errorOnExist: false }) : moveInto(registryDir, outDir)));
  // buildRegistry's list of what it wrote serves its next build in the staging folder, not readers.
  rmSync(path.join(outDir, '.skilldex-build.json'), { force: true });

  // 5. Browser runtime
  await time('runtime', () => bundleBrowserRuntime(path.join(outDir, 'runtime', 'skilldex.js')));

  // 6. Images and other files of the docs pages
  copyDocAssets(docsDir, path.join(outDir, 'docs'));

  // A registry without skills has no skills/ folder at all.
  const skillsDir = path.join(outDir, 'skills');
  const skills = existsSync(skillsDir) ? readdirSync(skillsDir).filter((n) => n.endsWith('.json')).length : 0;
  return { skills, pagesIndexed, timings, peakRssMb };
}

/**
 * Moves every entry of `from` into `to`, merging folders both hold (the registry's `skills/` and
 * the pages' `skills/`); a file replaces the page-side file of the same name, as a copy would.
 * Across file systems, where rename cannot work, the entry is copied.
 */
async function moveInto(from: string, to: string): Promise<void> {
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory() && existsSync(target)) {
      await moveInto(source, target);
      continue;
    }
    try {
      await rename(source, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await cp(source, target, { recursive: true, force: true, errorOnExist: false });
    }
  }
}

/**
 * Empties the output folder, refusing folders that don't look like a previous build: a typo in
 * `--out` must not delete someone's project.
 */
function prepareOutDir(outDir: string, root: string): void {
  const ownership = path.join(projectRoot, '.cache', 'skilldex-outdirs', createHash('sha256').update(outDir).digest('hex').slice(0, 16));
  if (existsSync(outDir)) {
    const entries = readdirSync(outDir);
    const looksBuilt = existsSync(ownership) || entries.includes('index.html') || entries.includes('index.json') || entries.includes('pagefind');
    const dangerous = outDir === root || outDir === projectRoot || root.startsWith(outDir + path.sep) || projectRoot.startsWith(outDir + path.sep);
    if (dangerous || (entries.length > 0 && !looksBuilt)) {
      throw new SiteBuildError('E_OUT_DIR', `Refusing to empty ${outDir}: it is not empty and does not look like a Skilldex build. Choose another --out.`);
    }
    rmSync(outDir, { recursive: true, force: true });
  }
  mkdirSync(outDir, { recursive: true });
  // Remembers (outside the output, which Astro empties) that this folder is ours, so whatever a
  // failed build leaves behind can be replaced by the next one.
  mkdirSync(path.dirname(ownership), { recursive: true });
  writeFileSync(ownership, `${outDir}\n`);
}

/**
 * `siteUrl` as the site needs it: an absolute http(s) URL ending in `/`, without query or
 * fragment. Anything else would put broken links on every page, so it stops the build.
 */
function checkSiteUrl(value: string, source: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new SiteBuildError('E_SITE_URL', `${source}: ${JSON.stringify(value)} is not a usable site URL.\n  hint: give the absolute http(s) URL the site is served at, e.g. https://skills.example.org/ or https://user.github.io/repo/ (no query, fragment or credentials).`);
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url.href;
}

async function readSettings(root: string, siteUrl: string | undefined): Promise<SiteSettings> {
  const { RegistryConfig } = await import('../src/core/schemas/config.ts');
  const file = path.join(root, 'skilldex.config.json');
  const raw = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const parsed = RegistryConfig.safeParse(raw);
  if (!parsed.success) {
    throw new SiteBuildError('E_CONFIG', `${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  }
  return settingsFrom({ ...parsed.data, ...(siteUrl ? { siteUrl } : {}) });
}

function settingsFrom(config: { title: string; siteUrl?: string; repository?: { url: string; branch: string } }): SiteSettings {
  return { title: config.title, siteUrl: config.siteUrl ? checkSiteUrl(config.siteUrl, 'skilldex.config.json: siteUrl') : undefined, repository: config.repository };
}

/**
 * A missing root or skills folder is a mistake in the command, not an empty registry (an empty
 * skills folder is one, and builds). Checked before anything is created under the root.
 */
async function requireSkillsFolder(root: string): Promise<void> {
  const hint = 'pass --root <the folder that holds skills/>; a registry keeps its skills in skills/<name>/, each with SKILL.md or skill.json';
  if (!existsSync(root)) throw new SiteBuildError('E_NO_SKILLS', `${root} does not exist. Hint: ${hint}`);
  const { loadConfig } = (await import(pathToFileURL(path.join(projectRoot, 'src', 'pipeline', 'config.ts')).href)) as { loadConfig: (root: string) => Promise<RegistryConfig> };
  const { skillsDir } = await loadConfig(root);
  if (!existsSync(path.join(root, skillsDir))) throw new SiteBuildError('E_NO_SKILLS', `${root} has no ${skillsDir}/ folder, so there is nothing to build. Hint: ${hint}`);
}

async function stageRegistry(root: string, outDir: string, lenient: boolean, siteUrl: string | undefined, log: (line: string) => void): Promise<SiteSettings> {
  const builderPath = path.join(projectRoot, 'src', 'pipeline', 'index.ts');
  if (!existsSync(builderPath)) {
    throw new SiteBuildError('E_NO_BUILDER', `${builderPath} is missing; pass --registry <dir> to publish an already-built registry.`);
  }
  // Loaded by path so this script also runs (with --registry) before the builder exists.
  const { buildRegistry } = (await import(pathToFileURL(builderPath).href)) as { buildRegistry: BuildRegistry };
  const { loadConfig, ConfigError } = await import('../src/pipeline/config.ts');
  let config: RegistryConfig;
  try {
    config = await loadConfig(root);
  } catch (error) {
    if (error instanceof ConfigError) throw new SiteBuildError('E_CONFIG', `${error.message}\n  hint: fix skilldex.config.json; its schema is schemas/config.schema.json`);
    throw error;
  }
  // The override reaches the registry too: index.json's `registry.url` and the generated
  // SKILL.md of skill.json skills name the deployed site.
  if (siteUrl) config = { ...config, siteUrl };
  const result = await buildRegistry({ root, outDir, lenient, config });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  const warnings = result.diagnostics.length - errors.length;
  for (const d of errors) {
    log(`${d.file}:${d.line}:${d.column} ${d.rule} ${d.message}${d.hint ? `\n  hint: ${d.hint}` : ''}`);
  }
  if (!result.ok || (errors.length > 0 && !lenient)) {
    throw new SiteBuildError('E_REGISTRY', `The registry has ${errors.length} ${errors.length === 1 ? 'error' : 'errors'} (listed above); fix them, or build with --lenient to publish only the valid skills.`);
  }
  if (errors.length > 0) log(`lenient: ${errors.length} errors above kept their skills out of the registry`);
  log(`registry: ${result.manifests.length} skills${warnings ? `, ${warnings} warnings` : ''}`);
  return settingsFrom(result.config);
}

/** Pagefind over the skill pages only; its Node API returns errors instead of throwing them. */
async function indexSearch(outDir: string): Promise<number> {
  const pagefind = await import('pagefind');
  const fail = (step: string, errors: string[]) => {
    throw new SiteBuildError('E_PAGEFIND', `Pagefind ${step} failed:\n  ${errors.join('\n  ')}`);
  };
  try {
    const { index, errors } = await pagefind.createIndex({});
    if (!index || errors.length) fail('createIndex', errors);
    const added = await index!.addDirectory({ path: outDir, glob: 'skills/*/index.html' });
    if (added.errors.length) fail('addDirectory', added.errors);
    const written = await index!.writeFiles({ outputPath: path.join(outDir, 'pagefind') });
    if (written.errors.length) fail('writeFiles', written.errors);
    // Only the search runtime is used; the prebuilt UIs would be dead weight in every deploy.
    for (const name of readdirSync(path.join(outDir, 'pagefind'))) {
      if (/^pagefind-(component-ui|modular-ui|ui|highlight)\./.test(name)) rmSync(path.join(outDir, 'pagefind', name));
    }
    return added.page_count;
  } finally {
    await pagefind.close();
  }
}

/**
 * Copies the files beside the docs pages to the site's /docs/, so their images and example files
 * resolve: regular files only, no dot-paths, and neither Markdown (rendered into pages instead)
 * nor HTML (which could take the place of a rendered page).
 */
function copyDocAssets(from: string, to: string): void {
  if (!existsSync(from)) return;
  for (const entry of readdirSync(from, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || /\.(md|html?)$/i.test(entry.name)) continue;
    const relative = path.relative(from, path.join(entry.parentPath, entry.name));
    if (relative.split(path.sep).some((segment) => segment.startsWith('.'))) continue;
    mkdirSync(path.dirname(path.join(to, relative)), { recursive: true });
    copyFileSync(path.join(from, relative), path.join(to, relative));
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      root: { type: 'string', default: process.cwd() },
      out: { type: 'string', default: 'dist' },
      registry: { type: 'string' },
      lenient: { type: 'boolean', default: false },
      'site-url': { type: 'string', default: process.env.SKILLDEX_SITE_URL || undefined },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log('Usage: node scripts/build.ts [--root <repo>] [--out dist] [--registry <built registry dir>] [--lenient] [--site-url <url>]\n  --site-url  where the site will be served (default: $SKILLDEX_SITE_URL, then skilldex.config.json siteUrl)');
    return 0;
  }
  const start = performance.now();
  try {
    const result = await buildSite({ root: values.root, outDir: values.out, registryDir: values.registry, lenient: values.lenient, siteUrl: values['site-url'] });
    const seconds = ((performance.now() - start) / 1000).toFixed(1);
    const rssMb = Math.round(process.resourceUsage().maxRSS / 1024);
    console.log(`built ${result.skills} skills into ${path.resolve(values.out)} in ${seconds}s (peak RSS ${rssMb} MB; ${Object.entries(result.timings).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}s/${result.peakRssMb[k]} MB`).join(', ')}; ${result.pagesIndexed} pages searchable)`);
    return 0;
  } catch (error) {
    if (error instanceof SiteBuildError) {
      console.error(`error ${error.code}: ${error.message}`);
      // Usage errors (nothing to build at --root) exit 2, as the skilldex CLI's do.
      return error.code === 'E_NO_SKILLS' ? 2 : 1;
    }
    throw error;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // As bin/skilldex.mjs does: reuse compiled (and type-stripped) modules across runs.
  module.enableCompileCache?.();
  process.exitCode = await main();
  // Astro and Pagefind may leave handles open; the build is done.
  process.exit();
}
