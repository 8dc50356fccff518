/**
 * `npm run build`: the registry and its catalog site, into one static folder.
 *
 *   node scripts/build.ts [--root <repo>] [--out dist] [--registry <prebuilt registry dir>] [--lenient] [--site-url <url>] [--page-size <n>]
 *
 * `--site-url` (or SKILLDEX_SITE_URL) overrides skilldex.config.json's `siteUrl`: the deploy
 * workflow passes the URL GitHub Pages will serve the site at. A URL with a path
 * (`https://user.github.io/repo/`) puts every link, asset and search bundle under that path.
 *
 * 1. buildRegistry() validates, scans and emits the registry straight into the output folder,
 *    while Vite bundles the pages (step 2); any error diagnostic stops the build. `--registry`
 *    skips this step and publishes an already-built registry folder instead (copied in after
 *    step 2).
 * 2. Astro renders the site with the site integration (src/site/integration/), which hands the
 *    pages the registry folder and settings, then indexes the skill pages with Pagefind. Pagefind
 *    takes only `skills/<name>/index.html`, the pages Astro writes: a skill's own files sit a
 *    level deeper (`skills/<name>/<digest>/`), so they can never end up in the search index.
 * 3. The browser runtime is bundled to /runtime/skilldex.js (scripts/bundle-runtime.ts), beside
 *    steps 1 and 2.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import module from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

import type { AstroIntegration } from 'astro';
import type { RegistryConfig } from '../src/core/schemas/config.ts';
import { buildRegistry, ConfigError, loadConfig, outputPlaceProblem } from '../src/pipeline/index.ts';
import { REGISTRY_RECORD, removeEmptyFolders } from '../src/pipeline/emit/output-folder.ts';
import { defaultCacheFile } from '../src/pipeline/cache-file.ts';
import { normaliseSiteUrl, SiteBuildError, skilldexSite, type SiteSettings } from '../src/site/integration/index.ts';
import type { RenderStats } from '../src/site/render/pool.ts';
import { cliFailure } from '../src/cli/_errors.ts';
import { printable } from '../src/cli/_output.ts';
import { makeFolder } from '../src/core-node/make-folder.ts';
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
  /** Cards per listing page (default 24). */
  pageSize?: number;
  log?: (line: string) => void;
}

export interface SiteBuildResult {
  skills: number;
  pagesIndexed: number;
  /** Skill documents rendered for the pages, and how many came from the render cache. */
  documents?: RenderStats;
  /** Skills whose pages the last build wrote from the same inputs, left as they were (src/site/catalog/kept-pages.ts). */
  skillPagesKept: number;
  /** True when no skill page changed and the last build's search index was kept as it was (src/site/integration/search-record.ts). */
  searchKept: boolean;
  timings: Record<string, number>;
  peakRssMb: Record<string, number>;
}

export async function buildSite(options: SiteBuildOptions): Promise<SiteBuildResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const root = path.resolve(options.root);
  const outDir = path.resolve(options.outDir);
  const timings: Record<string, number> = {};
  /** Peak RSS of this process so far, in MB, after each step: shows which step set the peak. */
  const peakRssMb: Record<string, number> = {};
  const record = (label: string, ms: number) => {
    timings[label] = Math.round(ms);
    peakRssMb[label] = Math.round(process.resourceUsage().maxRSS / 1024);
  };
  const time = async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await fn();
    } finally {
      record(label, performance.now() - start);
    }
  };

  const siteUrlOverride = options.siteUrl === undefined ? undefined : checkSiteUrl(options.siteUrl, '--site-url (or SKILLDEX_SITE_URL)');
  const registryGiven = options.registryDir === undefined ? undefined : path.resolve(options.registryDir);
  if (registryGiven === undefined) requireRoot(root);
  const config = await readConfig(root);
  if (registryGiven === undefined) requireSkillsFolder(root, config);
  const site: SiteSettings = {
    title: config.title,
    siteUrl: siteUrlOverride ?? (config.siteUrl === undefined ? undefined : checkSiteUrl(config.siteUrl, 'skilldex.config.json: siteUrl')),
    repository: config.repository,
  };
  const misplaced = outputPlaceProblem(root, config.skillsDir, outDir);
  if (misplaced) throw new SiteBuildError('E_OUT_DIR', `${misplaced}. Choose another --out.`);
  const output = prepareOutDir(outDir, registryGiven === undefined);
  if (registryGiven !== undefined && !existsSync(path.join(registryGiven, 'index.json'))) {
    throw new SiteBuildError('E_NO_REGISTRY', `${registryGiven} has no index.json; pass a folder written by buildRegistry.`);
  }

  // The browser runtime (step 3) needs nothing of the rest: esbuild bundles it on threads of its
  // own while the registry and the pages are built.
  const runtime = output.linksRemoved.then(() => time('runtime', () => bundleBrowserRuntime(path.join(outDir, 'runtime', 'skilldex.js'))));
  // Awaited below; a failure must not count as unhandled while the rest runs.
  runtime.catch(() => {});

  // 1. Registry, emitted where it is published. It used to be staged in a folder of its own
  // and moved next to the pages afterwards: at 10k skills that was ~20k renames plus the removal
  // of 10k emptied folders (27 s on a busy disk), for files that can go to their place at once.
  // The output folder is this build's own (prepareOutDir), so two builds of one checkout into
  // two folders never touch each other's registry.
  const registryDir = registryGiven ?? outDir;
  let pagesIndexed = 0;
  let pagefindMs = 0;
  let documents: RenderStats | undefined;
  /** Skill pages the last build wrote and this one left as they were (src/site/catalog/kept-pages.ts). */
  let keptPages: ReadonlySet<string> = new Set();
  /** Whether the last build's search index was kept as it was (src/site/integration/search-record.ts). */
  let searchKept = false;
  // The registry is built while Vite bundles the pages, which need it only once they are
  // generated (the integration holds generation until `registryReady` settles): Vite's
  // bundling is mostly one thread, and the registry build leaves its main thread idle while its
  // workers read and check.
  const registryReady =
    registryGiven === undefined
      ? // The override reaches the registry too: index.json's `registry.url` and the generated
        // SKILL.md of skill.json skills name the deployed site.
        time('registry', () => stageRegistry(root, registryDir, options.lenient ?? false, siteUrlOverride ? { ...config, siteUrl: siteUrlOverride } : config, log))
      : undefined;
  // Awaited below; a failure here must not count as unhandled while Astro is still bundling.
  registryReady?.catch(() => {});
  if (!site.siteUrl) {
    log(
      'warning: no siteUrl: the feed, the sitemap and OpenGraph tags need absolute URLs, so they get site-relative ones, and skill pages show a <site-url> placeholder in their install commands.\n' +
        '  hint: set "siteUrl" in skilldex.config.json (e.g. "https://skills.example.org/"), or pass --site-url <url> or SKILLDEX_SITE_URL; see docs/hosting.md',
    );
  }

  // 2. Astro, then Pagefind from the integration's astro:build:done
  const integration = skilldexSite(
    {
      registryDir,
      docsDir: path.join(projectRoot, 'docs'),
      site,
      renderCacheDir: path.join(siteCacheDir(root), 'site-render'),
      ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
    },
    {
      ...(registryReady ? { registryReady } : {}),
      beforeWriting: output.linksRemoved,
      onPagesWritten: (_, kept) => {
        keptPages = kept;
        if (!output.inPlace) return;
        const start = performance.now();
        sweepStale(outDir, output, log, { beforeIndexing: true, keptPages });
        record('stale skill pages removed', performance.now() - start);
      },
      onSearchIndexed: ({ pages, ms, kept }) => {
        pagesIndexed = pages;
        pagefindMs = ms;
        searchKept = kept.length > 0;
        // A search index kept as it was counts as written, as kept pages do.
        if (searchKept) keptPages = new Set([...keptPages, ...kept]);
      },
      onDocumentsRendered: (stats) => (documents = stats),
    },
  );
  const astroStart = performance.now();
  const astro = runAstro(root, outDir, integration);
  astro.catch(() => {});
  try {
    // A registry that fails stops the build at once, with its own error, not once Vite has
    // bundled the pages (Astro would then fail too, with a less helpful message).
    await Promise.all([registryReady, output.linksRemoved, astro]);
  } catch (error) {
    // Astro failed first: the registry build still writes into the output folder; let it finish.
    await registryReady?.catch(() => {});
    throw error;
  }
  // Astro's part includes bundling, which ran beside the registry build.
  record('astro', performance.now() - astroStart - pagefindMs);
  record('pagefind', pagefindMs);

  // A registry passed with --registry belongs to the caller: it is copied next to the pages.
  if (registryGiven) await time('registry files', () => cp(registryGiven, outDir, { recursive: true, force: true, errorOnExist: false }));

  // 3. Browser runtime
  await runtime;

  if (output.inPlace) await time('stale output removed', async () => sweepStale(outDir, output, log, { keptPages }));
  else await time('old output removed', () => output.removal);
  output.finish();

  // From the index: skills/ also holds versions documents and earlier versions' manifests.
  const skills = (JSON.parse(readFileSync(path.join(outDir, 'index.json'), 'utf8')) as { totalSkills: number }).totalSkills;
  const skillPagesKept = [...keptPages].filter((file) => /^skills\/[^/]+\/index\.html$/.test(file)).length;
  return { skills, pagesIndexed, documents, skillPagesKept, searchKept, timings, peakRssMb };
}

/**
 * Where the site build keeps its caches: beside the registry's build cache, so one deletion of
 * .cache/ makes the next build cold; in this checkout's own .cache/ when the registry's is a
 * symbolic link (see defaultCacheFile), so nothing is read or written through it.
 */
function siteCacheDir(root: string): string {
  if (defaultCacheFile(root) !== undefined) return path.join(root, '.cache', 'skilldex');
  return path.join(projectRoot, '.cache', 'skilldex-sites', createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 16));
}

async function runAstro(root: string, outDir: string, integration: AstroIntegration): Promise<void> {
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
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
      cacheDir: path.join(siteCacheDir(root), 'astro'),
      logLevel: 'warn',
      integrations: [integration],
      // The output folder is this build's own (prepareOutDir): it starts empty or holds the last
      // build, which this one updates in place, and the registry is being written into it while
      // Vite bundles, so Astro must not empty it.
      vite: { build: { emptyOutDir: false } },
    });
  } finally {
    process.chdir(previousCwd);
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** Written into the output folder as an in-place build starts: what is older was not written by it. */
const BUILD_MARK = '.skilldex-site-build';

export interface OutputFolderPlan {
  /**
   * The folder holds the last build of this checkout, which this one updates in place: only the
   * pages and registry files of what changed are written again, and what this build did not write
   * is swept ({@link sweepStale}).
   */
  inPlace: boolean;
  /** When this build started writing, by the file system's clock (an in-place build). */
  since: bigint;
  /** Settles when the previous output, moved aside, is deleted (a build into a fresh folder). */
  removal: Promise<void>;
  /** Keeps the registry's record outside the published folder until the next build. */
  finish(): void;
  /** Settles once no link is left in the folder to write through ({@link removeLinks}); nothing but the registry, which checks its own paths, may write before. */
  linksRemoved: Promise<void>;
}

/**
 * Readies the output folder, refusing folders that don't look like a previous build: a typo in
 * `--out` must not delete someone's project.
 *
 * A folder the last build of this checkout wrote is updated in place. Writing the whole site into
 * a fresh folder cost a rebuild after one changed skill more than a cold build: the registry was
 * emitted again (at 1,000 skills 4.3 s of the main thread, nearly all mkdir and file creation),
 * and on a disk that discards freed blocks the deletion of the previous ~140k files stalled the
 * new writes. The registry's record of what it wrote waits outside the folder between builds (it
 * is not for readers), so its build rewrites only the skills that changed.
 *
 * Any other folder that looks built is moved aside and deleted while this build runs (see discard).
 */
function prepareOutDir(outDir: string, registryBuiltHere: boolean): OutputFolderPlan {
  const ownership = path.join(projectRoot, '.cache', 'skilldex-outdirs', createHash('sha256').update(outDir).digest('hex').slice(0, 16));
  const stash = `${ownership}.registry.json`;
  const record = path.join(outDir, REGISTRY_RECORD);
  let ours = false;
  if (existsSync(outDir)) {
    const entries = readdirSync(outDir);
    ours = existsSync(ownership) && readFileSync(ownership, 'utf8') === `${outDir}\n`;
    const looksBuilt = ours || entries.includes('index.html') || entries.includes('index.json') || entries.includes('pagefind');
    // The registry's own root and skills folder are refused before (outputPlaceProblem); this checkout is not one of them.
    const dangerous = outDir === projectRoot || projectRoot.startsWith(outDir + path.sep);
    if (dangerous || (entries.length > 0 && !looksBuilt)) {
      throw new SiteBuildError('E_OUT_DIR', `Refusing to empty ${outDir}: it is not empty and does not look like a Skilldex build. Choose another --out.`);
    }
  }
  mkdirSync(path.dirname(ownership), { recursive: true });
  const finish = () => {
    rmSync(path.join(outDir, BUILD_MARK), { force: true });
    if (registryBuiltHere && existsSync(record)) renameSync(record, stash);
    else rmSync(record, { force: true });
  };
  if (ours) {
    // The record a build left in the folder (one that failed before putting it away) is as good as the stash.
    if (registryBuiltHere && existsSync(stash)) renameSync(stash, record);
    if (!registryBuiltHere) rmSync(record, { force: true });
    const linksRemoved = removeLinks(outDir);
    linksRemoved.catch(() => {});
    const mark = path.join(outDir, BUILD_MARK);
    rmSync(mark, { force: true });
    writeFileSync(mark, `${process.pid}\n`, { flag: 'wx' });
    return { inPlace: true, since: lstatSync(mark, { bigint: true }).mtimeNs, removal: Promise.resolve(), finish, linksRemoved };
  }
  rmSync(stash, { force: true });
  const removal = discard(outDir, path.dirname(ownership));
  makeFolder(outDir);
  // Remembers, outside the output, that this folder is ours: the next build updates it in place,
  // and whatever a failed build leaves behind is swept by the next one.
  writeFileSync(ownership, `${outDir}\n`);
  return { inPlace: false, since: 0n, removal, finish, linksRemoved: Promise.resolve() };
}

/**
 * Deletes what an in-place build found in the folder and did not write: the pages of skills that
 * are gone, Pagefind fragments and hashed assets whose names changed, files a failed build left.
 * A file counts as written when its modification time is not older than the build's mark, or when
 * the registry's record lists it (the registry leaves unchanged files as they are). Folders left
 * empty go too, so the tree is the one a build into an empty folder writes.
 *
 * Runs twice. Once Astro has written the pages (`beforeIndexing`), over the skill pages, because
 * Pagefind indexes every `skills/<name>/index.html` in the folder (the integration then removes
 * Pagefind's own folder before indexing, or keeps the last index whole). Then over everything,
 * once the last file is written. Sweeping everything before Pagefind also deleted the 20,000
 * badges at 10,000 skills (4.3 s in all), only for them to be written again right after.
 *
 * Should the clock have gone back during the build (the mark, written again, older than it was),
 * nothing is deleted: stale files are served for a while, fresh ones are not lost.
 */
export function sweepStale(outDir: string, plan: OutputFolderPlan, log: (line: string) => void, { beforeIndexing = false, keptPages = new Set<string>() as ReadonlySet<string> } = {}): void {
  const written = (rel: string): boolean => keptPages.has(rel) || lstatSync(path.join(outDir, rel), { bigint: true }).mtimeNs >= plan.since;
  // The mark, written again now, is older than when it was first written only if the clock went back.
  writeFileSync(path.join(outDir, BUILD_MARK), `${process.pid}\n`);
  if (!written(BUILD_MARK)) {
    if (!beforeIndexing) log(`warning: the clock went back during the build, so files the last build left in ${outDir} were kept; a build into an empty folder drops them`);
    return;
  }
  if (beforeIndexing) {
    for (const entry of existsSync(path.join(outDir, 'skills')) ? readdirSync(path.join(outDir, 'skills'), { withFileTypes: true }) : []) {
      const page = `skills/${entry.name}/index.html`;
      if (entry.isDirectory() && existsSync(path.join(outDir, page)) && !written(page)) rmSync(path.join(outDir, page), { force: true });
    }
    return;
  }
  let kept: Set<string>;
  try {
    kept = new Set(JSON.parse(readFileSync(path.join(outDir, REGISTRY_RECORD), 'utf8')) as string[]);
  } catch {
    kept = new Set();
  }
  kept.add(REGISTRY_RECORD).add(BUILD_MARK);
  const emptied = new Set<string>();
  const visit = (relDir: string): void => {
    for (const entry of readdirSync(path.join(outDir, relDir), { withFileTypes: true })) {
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      // An output folder kept as a git worktree (a gh-pages branch) keeps its repository, as Astro's own emptying does.
      if (rel === '.git') continue;
      if (entry.isDirectory()) visit(rel);
      else if (!kept.has(rel) && !written(rel)) {
        rmSync(path.join(outDir, rel), { force: true });
        emptied.add(relDir);
      }
    }
  };
  visit('');
  removeEmptyFolders(outDir, emptied);
}

/**
 * Removes every symbolic link and special file (a fifo, a socket, a device) in an output folder a
 * build is about to update in place, at any depth, following none. The folder may have been
 * restored from a cache that others could write, and Astro writes each page and asset with a plain
 * write: a link at a page's path, or in place of a folder on the way to it, would carry that write
 * out of the output folder. No build writes a link, so nothing of a build is lost.
 *
 * On a thread of its own, while the registry is built and Astro starts; Astro waits for it before
 * it writes anything (`beforeWriting`). At 10,000 skills the folder holds ~77,000 folders: listed on
 * the main thread, 0.7 s with the file system's caches warm and 3.9 s without; through promises,
 * each folder's listing a round trip, the main thread spent seconds on the callbacks alone.
 */
function removeLinks(dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(REMOVE_LINKS, { eval: true, workerData: dir });
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the check for links in ${dir} stopped (exit code ${code})`))));
  });
}

/** {@link removeLinks}' thread, as plain JavaScript: a TypeScript worker would load the type stripper first. */
const REMOVE_LINKS = `
const { readdirSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const root = require('node:worker_threads').workerData;
const visit = (dir) => {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    // The registry, written meanwhile, may remove a folder this is about to list.
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return;
    throw error;
  }
  for (const entry of entries) {
    const at = join(dir, entry.name);
    // An output folder kept as a git worktree (a gh-pages branch) keeps its repository.
    if (entry.isDirectory()) {
      if (!(dir === root && entry.name === '.git')) visit(at);
    } else if (!entry.isFile()) {
      rmSync(at, { force: true });
    }
  }
};
visit(root);
`;

/**
 * Moves `dir` (when it exists) aside into `trashDir` and deletes it in a child process while the
 * build runs: deleting the previous 10k-skill site (~135k files) on the main thread took seconds
 * at the start of every rebuild. A child process rather than a worker thread, so a build that
 * fails exits at once instead of waiting for the deletion. Where `dir` cannot be moved (another
 * file system), it is deleted at once. What interrupted builds left in `trashDir` is deleted in
 * the background, without this build waiting for it.
 */
function discard(dir: string, trashDir: string): Promise<void> {
  const own = path.join(trashDir, `old-${process.pid}-${Date.now()}`);
  let moved = false;
  if (existsSync(dir)) {
    try {
      renameSync(dir, own);
      moved = true;
    } catch {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const stale = readdirSync(trashDir)
    .filter((name) => /^old-\d+-\d+$/.test(name) && !running(Number(name.split('-')[1])))
    .map((name) => path.join(trashDir, name));
  if (stale.length > 0) removeInChild(stale).unref();
  if (!moved) return Promise.resolve();
  return new Promise((resolve) => {
    const child = removeInChild([own]);
    // What is left (a file that could not be deleted) goes with a later build's sweep.
    child.once('error', () => resolve());
    child.once('exit', () => resolve());
  });
}

function removeInChild(dirs: string[]) {
  const script = "for (const dir of process.argv.slice(1)) require('node:fs').rmSync(dir, { recursive: true, force: true });";
  return spawn(process.execPath, ['-e', script, ...dirs], { stdio: 'ignore', detached: true });
}

/** Whether process `pid` (another build) is still running. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `siteUrl` as the site needs it (see normaliseSiteUrl); anything else would break every link, so it stops the build. */
function checkSiteUrl(value: string, source: string): string {
  const url = normaliseSiteUrl(value);
  if (url === undefined) {
    throw new SiteBuildError('E_SITE_URL', `${source}: ${JSON.stringify(value)} is not a usable site URL.\n  hint: give the absolute http(s) URL the site is served at, e.g. https://skills.example.org/ or https://user.github.io/repo/ (no query, fragment or credentials).`);
  }
  return url;
}

/** The registry's skilldex.config.json (defaults without one); a broken file stops the build with its line. */
async function readConfig(root: string): Promise<RegistryConfig> {
  try {
    return await loadConfig(root);
  } catch (error) {
    if (error instanceof ConfigError) throw new SiteBuildError('E_CONFIG', `${error.message}\n  hint: fix skilldex.config.json; its schema is schemas/config.schema.json`);
    throw error;
  }
}

const NO_SKILLS_HINT = 'pass --root <the folder that holds skills/>; a registry keeps its skills in skills/<name>/, each with SKILL.md or skill.json';

/**
 * A missing root or skills folder is a mistake in the command, not an empty registry (an empty
 * skills folder is one, and builds). Checked before anything is created under the root.
 */
function requireRoot(root: string): void {
  if (!existsSync(root)) throw new SiteBuildError('E_NO_SKILLS', `${root} does not exist. Hint: ${NO_SKILLS_HINT}`);
}

function requireSkillsFolder(root: string, config: RegistryConfig): void {
  if (!existsSync(path.join(root, config.skillsDir))) {
    throw new SiteBuildError('E_NO_SKILLS', `${root} has no ${config.skillsDir}/ folder, so there is nothing to build. Hint: ${NO_SKILLS_HINT}`);
  }
}

async function stageRegistry(root: string, outDir: string, lenient: boolean, config: RegistryConfig, log: (line: string) => void): Promise<void> {
  // Vite bundles the pages on this thread meanwhile: the skills are left to the workers.
  const result = await buildRegistry({ root, outDir, lenient, config, callerBusy: true });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  const warnings = result.diagnostics.length - errors.length;
  // A file name, a message or a hint can quote a skill (`skills/x/a<ESC>]0;….md`, a name with a line
  // feed and `::error` after it): shown, never acted on by the terminal or the CI log.
  for (const d of errors) {
    log(`${printable(d.file)}:${d.line}:${d.column} ${d.rule} ${printable(d.message)}${d.hint ? `\n  hint: ${printable(d.hint)}` : ''}`);
  }
  // A lenient build publishes the valid skills whatever the others' errors: it fails only when
  // nothing was written (an error no skill can be set aside for, such as a broken config).
  if (result.index === undefined || (errors.length > 0 && !lenient)) {
    throw new SiteBuildError('E_REGISTRY', `The registry has ${errors.length} ${errors.length === 1 ? 'error' : 'errors'} (listed above); fix them, or build with --lenient to publish only the valid skills.`);
  }
  if (errors.length > 0) log(`lenient: ${errors.length} errors above kept their skills out of the registry`);
  log(`registry: ${result.manifests.length} skills${warnings ? `, ${warnings} warnings` : ''}`);
}

const USAGE =
  'Usage: node scripts/build.ts [--root <repo>] [--out dist] [--registry <built registry dir>] [--lenient] [--site-url <url>] [--page-size <n>]\n' +
  '  --site-url   where the site will be served (default: $SKILLDEX_SITE_URL, then skilldex.config.json siteUrl)\n' +
  '  --page-size  skills per listing page (default 24)';

/** Errors in the command itself, which exit 2 as the skilldex CLI's usage errors do. */
const USAGE_ERRORS = new Set(['E_USAGE', 'E_NO_SKILLS']);

function parseCommandLine(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        root: { type: 'string', default: process.cwd() },
        out: { type: 'string', default: 'dist' },
        registry: { type: 'string' },
        lenient: { type: 'boolean', default: false },
        'site-url': { type: 'string', default: process.env.SKILLDEX_SITE_URL || undefined },
        'page-size': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new SiteBuildError('E_USAGE', `${(error as Error).message}\n${USAGE}`);
  }
  const { values } = parsed;
  const pageSizeText = values['page-size'];
  const pageSize = pageSizeText === undefined ? undefined : Number(pageSizeText);
  if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= 1000)) {
    throw new SiteBuildError('E_USAGE', `--page-size ${JSON.stringify(pageSizeText)} is not a whole number from 1 to 1000.\n  hint: e.g. --page-size 24`);
  }
  return { ...values, pageSize };
}

async function main(argv: string[]): Promise<number> {
  try {
    const values = parseCommandLine(argv);
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    const start = performance.now();
    const result = await buildSite({ root: values.root, outDir: values.out, registryDir: values.registry, lenient: values.lenient, siteUrl: values['site-url'], pageSize: values.pageSize });
    const seconds = ((performance.now() - start) / 1000).toFixed(1);
    const rssMb = Math.round(process.resourceUsage().maxRSS / 1024);
    console.log(`built ${result.skills} skills into ${path.resolve(values.out)} in ${seconds}s (peak RSS ${rssMb} MB; ${Object.entries(result.timings).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}s/${result.peakRssMb[k]} MB`).join(', ')}; ${result.pagesIndexed} pages searchable${result.searchKept ? ' (search index kept as it was)' : ''}${result.documents ? `; ${result.documents.documents} skill documents, ${result.documents.hits} from the render cache` : ''}; ${result.skillPagesKept} skill pages kept as they were)`);
    return 0;
  } catch (error) {
    if (error instanceof SiteBuildError) {
      console.error(`error ${error.code}: ${error.message}`);
      return USAGE_ERRORS.has(error.code) ? 2 : 1;
    }
    // A file system error (an output path that cannot be created or written) names the path and why, without a stack.
    const failure = cliFailure(error);
    if (!failure) throw error;
    console.error(`error ${failure.message}${failure.hint ? `\n  hint: ${failure.hint}` : ''}`);
    return failure.exitCode;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // As bin/skilldex.mjs does: reuse compiled (and type-stripped) modules across runs.
  module.enableCompileCache?.();
  process.exitCode = await main(process.argv.slice(2));
  // Astro and Pagefind may leave handles open; the build is done.
  process.exit();
}
