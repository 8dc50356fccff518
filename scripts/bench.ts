/**
 * `npm run bench`: Skilldex at scale, measured against floors taken in the same run.
 *
 *   node scripts/bench.ts [--sizes 1000,10000|none] [--runs 3] [--quick] [--out bench] [--no-site] [--no-browser] [--no-once] [--only startup,corpus]
 *
 * For each size N it generates a synthetic registry (scripts/generate-registry.ts, fixed seed)
 * and measures, each in a fresh child process so peak RSS belongs to one measurement:
 *   1. index build (`skilldex build` into an empty folder) against two floors: read every file of
 *      the same tree and sha256 it; and that plus writing the same bytes to a fresh folder and
 *      gzipping each skill's files, so the disk's share of the build is visible;
 *   2. `skilldex build` again with nothing changed (same output folder, warm build cache and last
 *      build's record) as a fraction of the cold build, and after one skill changed;
 *   3. the full site build (scripts/build.ts) against a bare Astro build of N trivial pages plus
 *      Pagefind over them; then, over the warm caches, the site rebuilt with nothing changed and
 *      with one skill changed;
 *   4. output sizes, and gzipped index.json against gzipped name+description text;
 *   5. the runtime over HTTP on 127.0.0.1: open, search latency over 1,000 queries, install of a
 *      20-file skill with verification;
 *   6. Chromium: from typing a query on the site to the first result, rare and common term.
 * Then the figures modules of scripts/bench/modules.ts (start-up, the corpus against skills-ref,
 * and what other parts add): per size, or once per run in a second table.
 * Times are medians of `--runs` repetitions, with floors and measurements interleaved so that
 * noise from other work on the machine hits both alike, and the page cache's dirty pages flushed
 * (`sync`) before each one so no measurement pays for the writes of the one before. Results go
 * to bench/results.json and bench/results.md; scratch goes to bench/work/ (gitignored).
 *
 * The site build and the bare-Astro floor at 10k take minutes each, so they run
 * `min(runs, siteRuns)` times (default 1 at N ≥ 5,000) to keep the whole bench under 15 minutes
 * on a 2-core machine.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import module from 'node:module';
import os from 'node:os';
import { extname, join, normalize, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { indexSize } from './bench/index-size.ts';
import { child, cli, type ChildArgs, type ChildRun, fmtB, fmtMs, fmtS, mb, median, node, projectRoot, quantile, RESULT_MARK, round, runChild, setAside, emptyTrash } from './bench/harness.ts';
import { MODULES } from './bench/modules.ts';

const SEED = 20261122;

// ---------------------------------------------------------------------------------------------
// Child tasks: each runs in its own process and prints one `BENCH_RESULT {json}` line.

/**
 * Floor for the index build: read every file of the tree and sha256 it, as the build must.
 * Synchronous reads: over many small files each promise's thread-pool round trip cost more than
 * the read (an async walk measured 3.2 s over the 2,000-skill corpus, this one 0.3 s).
 */
async function taskHashFloor(args: ChildArgs): Promise<unknown> {
  const { readdirSync: readdir, readFileSync: readFile } = await import('node:fs');
  const start = performance.now();
  let files = 0;
  let bytes = 0;
  const walk = (dir: string): void => {
    for (const entry of readdir(dir, { withFileTypes: true })) {
      const abs = join(dir, entry.name);
      if (entry.isDirectory()) walk(abs);
      else if (entry.isFile()) {
        const data = readFile(abs);
        createHash('sha256').update(data).digest('hex');
        files++;
        bytes += data.length;
      }
    }
  };
  walk(join(String(args.root), 'skills'));
  return { ms: performance.now() - start, files, bytes };
}

/**
 * The disk's share of the index build: read and hash every file as the read floor does, write
 * the same bytes to a fresh folder, and gzip each skill's files into one archive, as the build
 * writes its content-addressed files and .tar.gz archives. What no build can do faster on this disk.
 */
async function taskWriteFloor(args: ChildArgs): Promise<unknown> {
  const { mkdirSync: mkdir, readdirSync: readdir, readFileSync: readFile, writeFileSync: writeFile } = await import('node:fs');
  const out = String(args.out);
  rmSync(out, { recursive: true, force: true });
  const start = performance.now();
  let files = 0;
  let bytes = 0;
  let archiveBytes = 0;
  const base = join(String(args.root), 'skills');
  /** Copies one folder's files; returns their bytes for the enclosing skill's archive. */
  const copy = (rel: string, into: Uint8Array[]): void => {
    mkdir(join(out, rel), { recursive: true });
    for (const entry of readdir(join(base, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        const skill = readdir(join(base, path)).some((n) => n === 'SKILL.md' || n === 'skill.json');
        if (skill) {
          const parts: Uint8Array[] = [];
          copy(path, parts);
          const archive = gzipSync(Buffer.concat(parts));
          archiveBytes += archive.length;
          writeFile(join(out, `${path}.tar.gz`), archive);
        } else copy(path, into);
      } else if (entry.isFile()) {
        const data = readFile(join(base, path));
        createHash('sha256').update(data).digest('hex');
        writeFile(join(out, path), data);
        into.push(data);
        files++;
        bytes += data.length;
      }
    }
  };
  copy('', []);
  return { ms: performance.now() - start, files, bytes, archiveBytes };
}

/** What `skilldex build --format json` reports, as the bench reads it. */
interface CliBuild {
  ok: boolean;
  published: number;
  unchanged: boolean;
}

/** `skilldex build --format json`, timed from spawn to exit; its JSON report is the result. */
async function cliBuild(root: string, out: string): Promise<ChildRun<CliBuild>> {
  const run = await cli(['build', '--root', root, '--out', out, '--format', 'json']);
  const report = JSON.parse(run.stdout) as { errors: number; published: number; unchanged: boolean };
  return { ...run, result: { ok: report.errors === 0, published: report.published, unchanged: report.unchanged } };
}

/** The framework floor: a throwaway Astro project with one dynamic route of N trivial pages, then Pagefind. */
async function taskBareAstro(args: ChildArgs): Promise<unknown> {
  const count = Number(args.count);
  const dir = String(args.dir);
  const out = join(dir, 'dist');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'src', 'pages', 'p'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "name": "bare-astro-floor", "private": true, "type": "module" }\n');
  // Resolve astro and its runtime from this checkout, wherever the scratch folder is.
  symlinkSync(join(projectRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(
    join(dir, 'src', 'pages', 'p', '[n].astro'),
    `---
export function getStaticPaths() {
  return Array.from({ length: ${count} }, (_, i) => ({ params: { n: String(i) } }));
}
const { n } = Astro.params;
---
<html lang="en"><head><meta charset="utf-8"><title>Page {n}</title></head>
<body><main data-pagefind-body><h1>Page {n}</h1><p>Trivial page number {n} for the framework floor.</p></main></body></html>
`,
  );
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  const start = performance.now();
  const { build } = await import('astro');
  await build({ root: dir, outDir: out, logLevel: 'warn', cacheDir: join(dir, '.astro-cache') });
  const astroMs = performance.now() - start;
  const pagefind = await import('pagefind');
  const { index, errors } = await pagefind.createIndex({});
  if (!index || errors.length) throw new Error(`pagefind: ${errors.join('; ')}`);
  const added = await index.addDirectory({ path: out });
  if (added.errors.length) throw new Error(`pagefind: ${added.errors.join('; ')}`);
  const written = await index.writeFiles({ outputPath: join(out, 'pagefind') });
  if (written.errors.length) throw new Error(`pagefind: ${written.errors.join('; ')}`);
  await pagefind.close();
  return { ms: performance.now() - start, astroMs, pagefindMs: performance.now() - start - astroMs, pages: added.page_count };
}

/**
 * A minimal static server (ETag/304 like a CDN), so runtime and browser go over real HTTP.
 * node:http is loaded here, not at the top: importing it (and preview.ts, which imports it) cost
 * every child ~37 ms of start-up, a seventh of the 1k no-op rebuild it was timing.
 */
async function serve(root: string): Promise<{ url: string; close: () => Promise<void> }> {
  const [{ createServer }, { closeServer }] = await Promise.all([import('node:http'), import('./preview.ts')]);
  const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.json': 'application/json', '.js': 'text/javascript', '.css': 'text/css', '.gz': 'application/gzip', '.svg': 'image/svg+xml' };
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root + sep) && file !== root) return void res.writeHead(403).end();
    try {
      let info = statSync(file);
      if (info.isDirectory()) {
        file = join(file, 'index.html');
        info = statSync(file);
      }
      const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': info.size, etag });
      createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => closeServer(server) };
}

/** Queries for the search benchmark: rare made-up names, common words, CJK words, and pairs. */
function queryMix(terms: { rare: string[]; common: string[]; cjk: string[] }, n: number): string[] {
  let state = 7;
  const next = () => ((state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const pick = (list: string[]) => list[Math.floor(next() * list.length)] ?? 'data';
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const roll = next();
    if (roll < 0.3 && terms.rare.length) out.push(pick(terms.rare));
    else if (roll < 0.65) out.push(pick(terms.common));
    else if (roll < 0.85 && terms.cjk.length) out.push(pick(terms.cjk));
    else out.push(`${pick(terms.common)} ${pick(terms.common)}`);
  }
  return out;
}

async function taskRuntime(args: ChildArgs): Promise<unknown> {
  const dir = resolve(String(args.dir));
  const terms = JSON.parse(String(args.terms)) as { rare: string[]; common: string[]; cjk: string[] };
  const { openRegistry } = (await import(pathToFileURL(join(projectRoot, 'src/runtime/node/index.ts')).href)) as typeof import('../src/runtime/node/index.ts');
  const { url, close } = await serve(dir);
  const scratch = join(String(args.work), 'runtime');
  rmSync(scratch, { recursive: true, force: true });
  try {
    const opens: number[] = [];
    let registry: Awaited<ReturnType<typeof openRegistry>> | undefined;
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      registry = await openRegistry(url, { cacheDir: join(scratch, `open-${i}`) });
      opens.push(performance.now() - start);
    }
    const reg = registry as NonNullable<typeof registry>;
    const indexStart = performance.now();
    reg.search('warm up');
    const searchIndexMs = performance.now() - indexStart;
    const latencies: number[] = [];
    let hits = 0;
    for (const q of queryMix(terms, 1000)) {
      const start = performance.now();
      hits += reg.search(q, { limit: 10 }).length;
      latencies.push(performance.now() - start);
    }
    const installs: number[] = [];
    let files = 0;
    for (let i = 0; i < 5; i++) {
      // A fresh cache and target each time: a cold, verified install over HTTP.
      const fresh = await openRegistry(url, { cacheDir: join(scratch, `install-cache-${i}`) });
      const start = performance.now();
      const result = await fresh.install(String(args.skill), join(scratch, `install-${i}`), { to: 'claude' });
      installs.push(performance.now() - start);
      files = result.files;
    }
    return {
      openMs: median(opens),
      searchIndexMs,
      searchMedianMs: median(latencies),
      searchP95Ms: quantile(latencies, 0.95),
      searchMaxMs: Math.max(...latencies),
      queries: latencies.length,
      averageHits: hits / latencies.length,
      installMs: median(installs),
      installFiles: files,
    };
  } finally {
    await close();
  }
}

async function taskBrowser(args: ChildArgs): Promise<unknown> {
  const dir = resolve(String(args.dir));
  const terms = JSON.parse(String(args.terms)) as { rare: string; common: string };
  const { chromium } = await import('playwright-core');
  const { url, close } = await serve(dir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'],
  });
  type Sample = { firstResultMs: number; warmMs: number; typedMs: number; results: number };
  /** A fresh page whose search box has focus (which loads the index); typing starts a second later. */
  const focused = async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector('#search:not([hidden])');
    await page.focus('#search-input');
    await page.waitForTimeout(1000);
    return { context, page };
  };
  /** From the input event that makes the box hold `query` to the first result in the list. */
  const time = (page: import('playwright-core').Page, q: string) =>
    page.evaluate(
      (query) =>
        new Promise<{ ms: number; results: number }>((done, fail) => {
          const input = document.getElementById('search-input') as HTMLInputElement;
          const list = document.getElementById('search-results') as HTMLElement;
          const status = document.getElementById('search-status') as HTMLElement;
          list.replaceChildren();
          const start = performance.now();
          const observer = new MutationObserver(() => {
            if (list.querySelector('li') || /No skills match/.test(status.textContent ?? '')) {
              observer.disconnect();
              done({ ms: performance.now() - start, results: list.querySelectorAll('li').length });
            }
          });
          observer.observe(list, { childList: true, subtree: true });
          observer.observe(status, { childList: true, characterData: true, subtree: true });
          setTimeout(() => fail(new Error(`no result for '${query}' within 30 s`)), 30_000);
          input.value = query;
          input.dispatchEvent(new Event('input', { bubbles: true }));
        }),
      q,
    );
  const complete = (page: import('playwright-core').Page, term: string) =>
    page.waitForFunction((q) => document.getElementById('search-results')?.dataset.query === q, term);
  const measure = async (term: string): Promise<Sample> => {
    let { context, page } = await focused();
    const first = await time(page, term);
    // The first query's later results are appended after its first ones (search.js marks the list
    // with the query once they are in): timed before that, the warm run stopped at an old item.
    await complete(page, term);
    // The same query again: the index and its fragments are loaded now.
    const warm = await time(page, term);
    await context.close();
    // Typed letter by letter, ten keys a second, on a fresh page: timed from the last key. The
    // searches of the letters before it run meanwhile, and one may still be running then.
    ({ context, page } = await focused());
    await page.keyboard.type(term.slice(0, -1), { delay: 100 });
    await page.waitForTimeout(100);
    const typed = await time(page, term);
    await complete(page, term);
    await context.close();
    return { firstResultMs: first.ms, warmMs: warm.ms, typedMs: typed.ms, results: first.results };
  };
  try {
    const runs = Number(args.runs ?? 3);
    const out: Record<string, Sample> = {};
    for (const [kind, term] of Object.entries(terms)) {
      const samples = [];
      for (let i = 0; i < runs; i++) samples.push(await measure(term));
      out[kind] = {
        firstResultMs: median(samples.map((s) => s.firstResultMs)),
        warmMs: median(samples.map((s) => s.warmMs)),
        typedMs: median(samples.map((s) => s.typedMs)),
        results: samples[0]?.results ?? 0,
      };
    }
    return { terms, ...out };
  } finally {
    await browser.close();
    await close();
  }
}

/** The first SKILL.md under a generated tree, in sorted order (a line appended to its body keeps it valid). */
function firstDeclaration(dir: string): string {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isFile() && entry.name === 'SKILL.md') return path;
  }
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!entry.isDirectory()) continue;
    try {
      return firstDeclaration(join(dir, entry.name));
    } catch {
      // no skill below this folder
    }
  }
  throw new Error(`no SKILL.md under ${dir}`);
}

/**
 * The MCP server (`skilldex mcp`, the real CLI) over a registry served on 127.0.0.1: startup from
 * spawn to the initialize response, with a cold and a warm HTTP cache, against `skilldex --version`
 * (the same CLI start with no registry); then search_skills latency over 1,000 queries against a
 * ping round trip (the protocol's own floor).
 */
async function taskMcp(args: ChildArgs): Promise<unknown> {
  const dir = resolve(String(args.dir));
  const terms = JSON.parse(String(args.terms)) as { rare: string[]; common: string[]; cjk: string[] };
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const cli = join(projectRoot, 'bin/skilldex.mjs');
  const { url, close } = await serve(dir);
  const scratch = join(String(args.work), 'mcp');
  rmSync(scratch, { recursive: true, force: true });
  const connect = async (cacheDir: string) => {
    const client = new Client({ name: 'bench', version: '1' });
    const start = performance.now();
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--registry', url, '--cache-dir', cacheDir, '--poll', '0'], stderr: 'ignore' }));
    return { client, ms: performance.now() - start };
  };
  try {
    const floors: number[] = [];
    const cold: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      spawnSync(process.execPath, [cli, '--version']);
      floors.push(performance.now() - start);
      const cacheDir = join(scratch, `cache-${i}`);
      const first = await connect(cacheDir);
      cold.push(first.ms);
      await first.client.close();
      const second = await connect(cacheDir);
      warm.push(second.ms);
      await second.client.close();
    }
    const { client } = await connect(join(scratch, 'cache-0'));
    const pings: number[] = [];
    const latencies: number[] = [];
    try {
      await client.callTool({ name: 'search_skills', arguments: { query: 'warm up' } });
      for (let i = 0; i < 200; i++) {
        const start = performance.now();
        await client.ping();
        pings.push(performance.now() - start);
      }
      for (const query of queryMix(terms, 1000)) {
        const start = performance.now();
        await client.callTool({ name: 'search_skills', arguments: { query, limit: 10 } });
        latencies.push(performance.now() - start);
      }
    } finally {
      await client.close();
    }
    return {
      startupColdMs: median(cold),
      startupWarmMs: median(warm),
      cliStartFloorMs: median(floors),
      searchMedianMs: median(latencies),
      searchP95Ms: quantile(latencies, 0.95),
      pingMedianMs: median(pings),
      queries: latencies.length,
    };
  } finally {
    await close();
  }
}

const TASKS: Record<string, (args: ChildArgs) => Promise<unknown>> = {
  'hash-floor': taskHashFloor,
  'write-floor': taskWriteFloor,
  'bare-astro': taskBareAstro,
  runtime: taskRuntime,
  browser: taskBrowser,
  mcp: taskMcp,
  ...Object.assign({}, ...MODULES.map((m) => m.tasks ?? {})),
};

// ---------------------------------------------------------------------------------------------
// Parent: runs children, collects medians, writes the report.

function dirBytes(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  if (!existsSync(dir)) return { bytes, files };
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      bytes += statSync(join(entry.parentPath, entry.name)).size;
      files++;
    }
  }
  return { bytes, files };
}

const gz = (data: Uint8Array | string): number => gzipSync(data).length;

function outputSizes(siteDir: string | undefined, registryDir: string, skills: number) {
  const from = siteDir && existsSync(join(siteDir, 'index.json')) ? siteDir : registryDir;
  const measured = indexSize(from);
  const wellKnown = readFileSync(join(from, '.well-known', 'agent-skills', 'index.json'));
  const { bytes: indexBytes, gzipBytes: indexGz } = measured.index;
  const pagefind = siteDir ? dirBytes(join(siteDir, 'pagefind')) : undefined;
  const site = siteDir ? dirBytes(siteDir) : undefined;
  const registry = dirBytes(registryDir);
  return {
    indexJson: { bytes: indexBytes, gzipBytes: indexGz, brotliBytes: measured.index.brotliBytes, bytesPerSkill: round(indexBytes / skills, 0), gzipBytesPerSkill: round(indexGz / skills, 0) },
    wellKnownIndex: { bytes: wellKnown.length, gzipBytes: gz(wellKnown) },
    nameDescriptionFloor: measured.floor,
    indexToFloorGzipRatio: measured.ratio.gzip,
    indexToFloorBrotliRatio: measured.ratio.brotli,
    registry: { bytes: registry.bytes, files: registry.files },
    ...(pagefind ? { pagefind: { bytes: pagefind.bytes, files: pagefind.files } } : {}),
    ...(site ? { site: { bytes: site.bytes, files: site.files } } : {}),
  };
}

interface SizeResult {
  n: number;
  /** When this size was measured (sizes not run again are carried over from the previous results.json). */
  measuredAt?: string;
  loadAverage?: number[];
  generated: { files: number; bytes: number; seconds: number };
  index: { wallMs: number; maxRssMb: number; floorMs: number; floorRssMb: number; ratioToFloor: number; runs: number[]; floorRuns: number[]; ok: boolean; writeFloorMs?: number; ratioToWriteFloor?: number; writeFloorRuns?: number[] };
  noop: { wallMs: number; fractionOfCold: number; runs: number[]; unchanged: boolean };
  /** A rebuild after one skill's SKILL.md gained a line, over the warm build cache. */
  oneChanged?: { wallMs: number; fractionOfCold: number; runs: number[]; unchanged: boolean };
  site?: { wallMs: number; maxRssMb: number; floorMs: number; floorRssMb: number; ratioToFloor: number; oneSkillChangedMs?: number; noopMs?: number; noopBreakdown?: string; oneSkillChangedBreakdown?: string; breakdown: string; floorBreakdown: unknown; runs: number[]; floorRuns: number[] } | { error: string };
  sizes: ReturnType<typeof outputSizes>;
  runtime?: unknown;
  browser?: unknown;
  mcp?: unknown;
  /** Figures of the modules in scripts/bench/modules.ts, by module name. */
  modules?: Record<string, unknown>;
}

async function benchSize(n: number, runs: number, siteRuns: number, flags: { site: boolean; browser: boolean; work: string; log: (s: string) => void }): Promise<SizeResult> {
  const { log, work } = flags;
  const { generateRegistry } = await import('./generate-registry.ts');
  const root = join(work, `gen-${n}`);
  setAside(work, root);
  const genStart = performance.now();
  const reg = await generateRegistry({ count: n, seed: SEED, out: root });
  const generatedAt = performance.now();
  const genSeconds = (generatedAt - genStart) / 1000;
  log(`N=${n}: generated ${reg.fileCount} files (${(reg.bytes / 1e6).toFixed(1)} MB) in ${genSeconds.toFixed(1)}s`);
  // The build cache does not trust a file modified within its racy window before the build that
  // recorded it started (src/pipeline/cache.ts). A checkout's files are older than that; files
  // generated a moment ago are not, and a cold build started at once recorded every skill as
  // racy, so the no-op after it, and at 200 skills even the one after that, read everything.
  const { RACY_WINDOW_MS } = await import('../src/pipeline/cache-file.ts');
  await new Promise((done) => setTimeout(done, Math.max(0, RACY_WINDOW_MS + 100 - (performance.now() - generatedAt))));
  const env = { SOURCE_DATE_EPOCH: '1767225600' };
  process.env.SOURCE_DATE_EPOCH = env.SOURCE_DATE_EPOCH;

  // 1 + 2: interleave floor, cold build and no-op rebuild in every run.
  const floors: ChildRun<{ ms: number }>[] = [];
  const writeFloors: ChildRun<{ ms: number }>[] = [];
  const colds: ChildRun<CliBuild>[] = [];
  const noops: ChildRun<CliBuild>[] = [];
  const oneChanged: ChildRun<CliBuild>[] = [];
  const changed = firstDeclaration(join(root, 'skills'));
  const registryOut = join(work, `registry-${n}`);
  for (let r = 0; r < runs; r++) {
    floors.push(await child('hash-floor', { root }));
    writeFloors.push(await child('write-floor', { root, out: join(work, `write-floor-${n}`) }));
    setAside(work, join(work, `write-floor-${n}`));
    setAside(work, registryOut);
    // The build cache and the last build's record live in <root>/.cache/skilldex/, as for a user.
    setAside(work, join(root, '.cache'));
    const cold = await cliBuild(root, registryOut);
    if (!cold.result.ok) throw new Error(`index build failed at N=${n}: ${cold.stdout.slice(0, 2000)}`);
    colds.push(cold);
    let noop = await cliBuild(root, registryOut);
    if (!noop.result.unchanged) {
      // The record is keyed by the build code too: an edit to src/ during the run (a working
      // copy being developed) makes the build run in full once and record again.
      log('  no-op ran the whole build (build code changed during the run, or files modified within the racy window?); measuring again');
      noop = await cliBuild(root, registryOut);
    }
    noops.push(noop);
    // One skill changed, as a build after a one-skill pull request: the others are neither read
    // nor written again. The file is restored and the racy window waited out, so the next run's
    // no-op finds every skill trusted.
    const before = readFileSync(changed);
    writeFileSync(changed, Buffer.concat([before, Buffer.from('\nOne more line, so this skill changed.\n')]));
    try {
      oneChanged.push(await cliBuild(root, registryOut));
    } finally {
      writeFileSync(changed, before);
    }
    await new Promise((done) => setTimeout(done, RACY_WINDOW_MS + 100));
    log(`  run ${r + 1}: floor ${(floors.at(-1)!.wallMs / 1000).toFixed(2)}s, write floor ${(writeFloors.at(-1)!.wallMs / 1000).toFixed(2)}s, cold ${(cold.wallMs / 1000).toFixed(2)}s (${mb(cold.maxRssKb)} MB), no-op ${(noops.at(-1)!.wallMs / 1000).toFixed(2)}s, one skill changed ${(oneChanged.at(-1)!.wallMs / 1000).toFixed(2)}s`);
  }
  // Untimed: the registry the figures modules below measure is built from the skills as generated.
  await cliBuild(root, registryOut);
  const coldMs = median(colds.map((c) => c.wallMs));
  const floorMs = median(floors.map((c) => c.wallMs));
  const noopMs = median(noops.map((c) => c.wallMs));
  const writeFloorMs = median(writeFloors.map((c) => c.wallMs));
  const result: SizeResult = {
    n,
    generated: { files: reg.fileCount, bytes: reg.bytes, seconds: round(genSeconds, 1) },
    index: {
      wallMs: round(coldMs, 0),
      maxRssMb: mb(median(colds.map((c) => c.maxRssKb))),
      floorMs: round(floorMs, 0),
      floorRssMb: mb(median(floors.map((c) => c.maxRssKb))),
      ratioToFloor: round(coldMs / floorMs, 2),
      runs: colds.map((c) => round(c.wallMs, 0)),
      floorRuns: floors.map((c) => round(c.wallMs, 0)),
      ok: colds.every((c) => c.result.ok),
      writeFloorMs: round(writeFloorMs, 0),
      ratioToWriteFloor: round(coldMs / writeFloorMs, 2),
      writeFloorRuns: writeFloors.map((c) => round(c.wallMs, 0)),
    },
    noop: { wallMs: round(noopMs, 0), fractionOfCold: round(noopMs / coldMs, 3), runs: noops.map((c) => round(c.wallMs, 0)), unchanged: noops.every((c) => c.result.unchanged) },
    oneChanged: { wallMs: round(median(oneChanged.map((c) => c.wallMs)), 0), fractionOfCold: round(median(oneChanged.map((c) => c.wallMs)) / coldMs, 3), runs: oneChanged.map((c) => round(c.wallMs, 0)), unchanged: oneChanged.some((c) => c.result.unchanged) },
    sizes: outputSizes(undefined, registryOut, n),
  };

  // Figures modules (scripts/bench/modules.ts) over this size's tree and registry.
  for (const m of MODULES) {
    if (!m.perSize) continue;
    try {
      (result.modules ??= {})[m.name] = await m.perSize({ n, runs, root, registryOut, work, log });
    } catch (error) {
      (result.modules ??= {})[m.name] = { error: (error as Error).message.slice(0, 2000) };
      log(`  ${m.name} failed: ${(error as Error).message.slice(0, 500)}`);
    }
  }

  // 3: site build against the bare-Astro floor.
  const siteOut = join(work, `site-${n}`);
  if (flags.site) {
    try {
      const sites: ChildRun<unknown>[] = [];
      const bares: ChildRun<{ astroMs: number; pagefindMs: number; pages: number }>[] = [];
      for (let r = 0; r < siteRuns; r++) {
        setAside(work, join(work, `bare-astro-${n}`));
        bares.push(await child('bare-astro', { count: n, dir: join(work, `bare-astro-${n}`) }));
        setAside(work, siteOut);
        // A cold site build: without the registry's build cache (<root>/.cache) from the last run.
        setAside(work, join(root, '.cache'));
        const argv = [node, join(projectRoot, 'scripts', 'build.ts'), '--root', root, '--out', siteOut];
        // Astro keeps prerender chunks in the checkout's .astro/, which a concurrent site build
        // (a test, another engineer) can clobber; one retry tells that apart from a real failure.
        sites.push(await runChild(argv, { env }).catch((error: Error) => {
          log(`  site build failed once, retrying: ${error.message.split('\n').find((l) => /Error/.test(l)) ?? ''}`);
          setAside(work, siteOut);
          return runChild(argv, { env });
        }));
        log(`  site run ${r + 1}: bare Astro+Pagefind ${(bares.at(-1)!.wallMs / 1000).toFixed(1)}s (${mb(bares.at(-1)!.maxRssKb)} MB), site ${(sites.at(-1)!.wallMs / 1000).toFixed(1)}s (${mb(sites.at(-1)!.maxRssKb)} MB)`);
      }
      // No-op: the same tree built again over the warm caches (registry build cache, render cache).
      const noopSite = await runChild<unknown>([node, join(projectRoot, 'scripts', 'build.ts'), '--root', root, '--out', siteOut], { env });
      log(`  site, nothing changed: ${(noopSite.wallMs / 1000).toFixed(1)}s`);
      // One skill changed: a line added to one skill's docs, then the site built again over the
      // warm build cache, as a deploy after a one-skill pull request does.
      const changed = firstDeclaration(join(root, 'skills'));
      const before = readFileSync(changed);
      writeFileSync(changed, Buffer.concat([before, Buffer.from('\nOne more line, so this skill changed.\n')]));
      let oneChanged: ChildRun<unknown>;
      try {
        oneChanged = await runChild([node, join(projectRoot, 'scripts', 'build.ts'), '--root', root, '--out', siteOut], { env });
      } finally {
        writeFileSync(changed, before);
      }
      log(`  site, one skill changed: ${(oneChanged.wallMs / 1000).toFixed(1)}s`);
      const siteMs = median(sites.map((s) => s.wallMs));
      const bareMs = median(bares.map((s) => s.wallMs));
      result.site = {
        wallMs: round(siteMs, 0),
        maxRssMb: mb(median(sites.map((s) => s.maxRssKb))),
        floorMs: round(bareMs, 0),
        floorRssMb: mb(median(bares.map((s) => s.maxRssKb))),
        ratioToFloor: round(siteMs / bareMs, 2),
        oneSkillChangedMs: round(oneChanged.wallMs, 0),
        noopMs: round(noopSite.wallMs, 0),
        noopBreakdown: noopSite.stdout.split('\n').find((l) => l.startsWith('built ')) ?? '',
        oneSkillChangedBreakdown: oneChanged.stdout.split('\n').find((l) => l.startsWith('built ')) ?? '',
        breakdown: sites.at(-1)?.stdout.split('\n').find((l) => l.startsWith('built ')) ?? '',
        floorBreakdown: bares.at(-1)?.result,
        runs: sites.map((s) => round(s.wallMs, 0)),
        floorRuns: bares.map((s) => round(s.wallMs, 0)),
      };
      setAside(work, join(work, `bare-astro-${n}`));
      result.sizes = outputSizes(siteOut, registryOut, n);
    } catch (error) {
      result.site = { error: (error as Error).message.slice(0, 2000) };
      log(`  site build failed: ${(error as Error).message.slice(0, 500)}`);
    }
  }

  // 5: runtime over HTTP (served from the site when it exists, else the registry folder).
  const served = existsSync(join(siteOut, 'index.json')) && result.site && !('error' in result.site) ? siteOut : registryOut;
  const terms = { rare: reg.rareTerms.slice(0, 200), common: reg.commonTerms, cjk: reg.cjkTerms };
  try {
    result.runtime = (await child('runtime', { dir: served, terms: JSON.stringify(terms), skill: reg.twentyFileSkill, work })).result;
  } catch (error) {
    result.runtime = { error: (error as Error).message.slice(0, 2000) };
  }

  // 5b: the MCP server over the same registry.
  try {
    result.mcp = (await child('mcp', { dir: served, terms: JSON.stringify(terms), work })).result;
  } catch (error) {
    result.mcp = { error: (error as Error).message.slice(0, 2000) };
  }

  // 6: browser search on the site.
  if (flags.browser && served === siteOut) {
    try {
      const browserTerms = { rare: reg.rareTerms[0] ?? 'zzz', common: reg.commonTerms[0] ?? 'data' };
      result.browser = (await child('browser', { dir: siteOut, terms: JSON.stringify(browserTerms), runs: Math.max(1, Math.min(runs, 3)) })).result;
    } catch (error) {
      result.browser = { error: (error as Error).message.slice(0, 2000) };
    }
  }
  return result;
}

function machine() {
  return {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: round(os.totalmem() / 1024 ** 3, 1),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverageAtStart: os.loadavg().map((x) => round(x, 2)),
  };
}

/** Once-per-run figures (start-up, corpus): their own table, figure beside floor. */
function once(figures: Record<string, unknown> | undefined): string[] {
  const rows = MODULES.flatMap((m) => {
    const f = figures?.[m.name];
    if (!f || !m.renderOnce) return [];
    return f && typeof f === 'object' && 'error' in f ? [`| ${m.name} | failed | – |`] : m.renderOnce(f);
  });
  return rows.length ? ['', '| measure (once per run) | wall, median | floor, same run |', '| --- | --- | --- |', ...rows] : [];
}

/** The results as a Markdown table: one column per size, floors beside the figures. */
export function renderMarkdown(results: { machine: ReturnType<typeof machine>; runs: number; sizes: SizeResult[]; modules?: Record<string, unknown>; finishedAt: string; totalSeconds: number }): string {
  const cols = results.sizes;
  const row = (label: string, cell: (s: SizeResult) => string) => `| ${label} | ${cols.map(cell).join(' | ')} |`;
  const site = (s: SizeResult) => (s.site && !('error' in s.site) ? s.site : undefined);
  const rt = (s: SizeResult) => s.runtime as { openMs?: number; searchMedianMs?: number; searchP95Ms?: number; installMs?: number; installFiles?: number; searchIndexMs?: number } | undefined;
  const mcp = (s: SizeResult) => s.mcp as { startupColdMs?: number; startupWarmMs?: number; cliStartFloorMs?: number; searchMedianMs?: number; searchP95Ms?: number; pingMedianMs?: number } | undefined;
  type BrowserTimes = { firstResultMs: number; warmMs: number; typedMs?: number };
  const br = (s: SizeResult) => s.browser as { rare?: BrowserTimes; common?: BrowserTimes } | undefined;
  const m = results.machine;
  if (cols.length === 0) return `${[`Machine: ${results.machine.nproc} cores, Node ${results.machine.node}.`, ...once(results.modules)].join('\n')}\n`;
  const lines = [
    ...(cols.some((s) => s.measuredAt)
      ? [`Measured: ${cols.map((s) => `N = ${s.n} at ${s.measuredAt?.slice(0, 16).replace('T', ' ')} UTC (1-min load average ${s.loadAverage?.join(' → ') ?? '?'})`).join('; ')}.`, '']
      : []),
    `Machine: ${m.nproc} cores (${m.cpu}), ${m.memoryGb} GB RAM, Node ${m.node}, ${m.platform}; load average at start ${m.loadAverageAtStart.join(' / ')}. Median of ${results.runs} run(s) unless noted; total ${Math.round(results.totalSeconds)} s.`,
    '',
    `| measure | ${cols.map((s) => `N = ${s.n.toLocaleString('en-US')}`).join(' | ')} |`,
    `| --- | ${cols.map(() => '---').join(' | ')} |`,
    row('index build (validate + scan + emit), wall', (s) => fmtS(s.index.wallMs)),
    row('  floor: read + sha256 every file', (s) => fmtS(s.index.floorMs)),
    row('  ratio to floor', (s) => `${s.index.ratioToFloor}×`),
    row('  write floor: copy every file + gzip each skill', (s) => fmtS(s.index.writeFloorMs)),
    row('  ratio to write floor', (s) => (s.index.ratioToWriteFloor === undefined ? '–' : `${s.index.ratioToWriteFloor}×`)),
    row('  peak RSS (floor)', (s) => `${s.index.maxRssMb} MB (${s.index.floorRssMb} MB)`),
    row('no-op rebuild, wall', (s) => fmtS(s.noop.wallMs)),
    row('  fraction of cold', (s) => `${(s.noop.fractionOfCold * 100).toFixed(1)} %`),
    row('one skill changed: index rebuilt, wall (fraction of cold)', (s) => (s.oneChanged ? `${fmtS(s.oneChanged.wallMs)} (${(s.oneChanged.fractionOfCold * 100).toFixed(0)} %)` : '–')),
    row('full site build, wall', (s) => (site(s) ? fmtS(site(s)?.wallMs) : s.site ? 'failed' : 'not run')),
    row('  floor: bare Astro + Pagefind, N pages', (s) => fmtS(site(s)?.floorMs)),
    row('  ratio to floor', (s) => (site(s) ? `${site(s)?.ratioToFloor}×` : '–')),
    row('  peak RSS (floor)', (s) => (site(s) ? `${site(s)?.maxRssMb} MB (${site(s)?.floorRssMb} MB)` : '–')),
    row('  one skill changed: site rebuilt, wall (fraction of cold)', (s) => (site(s)?.oneSkillChangedMs ? `${fmtS(site(s)?.oneSkillChangedMs)} (${((site(s)!.oneSkillChangedMs! / site(s)!.wallMs) * 100).toFixed(0)} %)` : '–')),
    row('  nothing changed: site rebuilt, wall (fraction of cold)', (s) => (site(s)?.noopMs ? `${fmtS(site(s)?.noopMs)} (${((site(s)!.noopMs! / site(s)!.wallMs) * 100).toFixed(0)} %)` : '–')),
    row('index.json raw / gzip', (s) => `${fmtB(s.sizes.indexJson.bytes)} / ${fmtB(s.sizes.indexJson.gzipBytes)}`),
    row('  bytes per skill raw / gzip', (s) => `${s.sizes.indexJson.bytesPerSkill} / ${s.sizes.indexJson.gzipBytesPerSkill}`),
    row('  gzip ratio to name+description floor', (s) => `${s.sizes.indexToFloorGzipRatio}× (floor ${fmtB(s.sizes.nameDescriptionFloor.gzipBytes)})`),
    row('index.json Brotli (q11), ratio to floor', (s) => (s.sizes.indexJson.brotliBytes ? `${fmtB(s.sizes.indexJson.brotliBytes)}, ${s.sizes.indexToFloorBrotliRatio}× (floor ${fmtB(s.sizes.nameDescriptionFloor.brotliBytes)})` : '–')),
    row('well-known index raw / gzip', (s) => `${fmtB(s.sizes.wellKnownIndex.bytes)} / ${fmtB(s.sizes.wellKnownIndex.gzipBytes)}`),
    row('Pagefind bundle', (s) => (s.sizes.pagefind ? `${fmtB(s.sizes.pagefind.bytes)} (${s.sizes.pagefind.files} files)` : '–')),
    row('total site', (s) => (s.sizes.site ? `${fmtB(s.sizes.site.bytes)} (${s.sizes.site.files} files)` : `registry only: ${fmtB(s.sizes.registry.bytes)}`)),
    row('runtime: open registry over HTTP', (s) => fmtMs(rt(s)?.openMs)),
    row('runtime: search median / p95 (1,000 queries)', (s) => `${fmtMs(rt(s)?.searchMedianMs)} / ${fmtMs(rt(s)?.searchP95Ms)}`),
    row('  first search (builds the search index)', (s) => fmtMs(rt(s)?.searchIndexMs)),
    row('runtime: install 20-file skill, verified', (s) => fmtMs(rt(s)?.installMs)),
    row('MCP server: spawn to initialize, cold / warm cache', (s) => `${fmtMs(mcp(s)?.startupColdMs)} / ${fmtMs(mcp(s)?.startupWarmMs)}`),
    row('  floor: `skilldex --version`', (s) => fmtMs(mcp(s)?.cliStartFloorMs)),
    row('MCP search_skills median / p95 (1,000 calls)', (s) => `${fmtMs(mcp(s)?.searchMedianMs)} / ${fmtMs(mcp(s)?.searchP95Ms)}`),
    row('  floor: MCP ping round trip', (s) => fmtMs(mcp(s)?.pingMedianMs)),
    row('browser: first result, rare term', (s) => fmtMs(br(s)?.rare?.firstResultMs)),
    row('browser: first result, common term', (s) => fmtMs(br(s)?.common?.firstResultMs)),
    row('  typed letter by letter, from the last key', (s) => fmtMs(br(s)?.common?.typedMs)),
    ...MODULES.flatMap((m) => (m.sizeRows ?? []).map((r) => row(r.label, (s) => { const f = s.modules?.[m.name]; return f && typeof f === 'object' && 'error' in f ? 'failed' : r.cell(f); }))),
    ...once(results.modules),
    '',
    'Browser times run from the input event to the first result in the list; the index was loaded on focus, one second earlier, as when a person starts typing. Typed letter by letter: ten keys a second, timed from the last.',
  ];
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      child: { type: 'string' },
      args: { type: 'string' },
      sizes: { type: 'string', default: '1000,10000' },
      runs: { type: 'string', default: '3' },
      'site-runs': { type: 'string' },
      quick: { type: 'boolean', default: false },
      out: { type: 'string', default: join(projectRoot, 'bench') },
      site: { type: 'boolean', default: true },
      'no-site': { type: 'boolean', default: false },
      browser: { type: 'boolean', default: true },
      'no-browser': { type: 'boolean', default: false },
      'no-once': { type: 'boolean', default: false },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.child) {
    // Children start the way `skilldex` does (bin/skilldex.mjs), with Node's compile cache, so a
    // no-op rebuild is not mostly type-stripping the same modules again. The parent passes
    // NODE_COMPILE_CACHE (bench/harness.ts), which covers this module too; this covers a child
    // started by hand.
    module.enableCompileCache?.();
    const task = TASKS[values.child];
    if (!task) throw new Error(`unknown child task ${values.child}`);
    const result = (await task(JSON.parse(values.args ?? '{}') as ChildArgs)) as Record<string, unknown>;
    process.stdout.write(`${RESULT_MARK}${JSON.stringify({ ...result, maxRssKb: process.resourceUsage().maxRSS })}\n`);
    process.exit(0); // Astro, Pagefind and Chromium may leave handles open.
  }
  if (values.help) {
    console.log('Usage: node scripts/bench.ts [--sizes 1000,10000] [--runs 3] [--site-runs n] [--quick] [--out bench] [--no-site] [--no-browser] [--no-once] [--only startup,corpus]  (--sizes none: only the once-per-run figures; --only: just these once-per-run modules)');
    return;
  }
  const sizes = values.quick ? [200] : values.sizes.split(',').map((s) => Number(s.trim())).filter((n) => n > 0);
  const runs = values.quick ? 1 : Math.max(1, Number(values.runs));
  const outDir = resolve(values.out);
  const work = join(outDir, 'work');
  mkdirSync(work, { recursive: true });
  emptyTrash(work);
  const log = (s: string) => console.log(s);
  const started = performance.now();
  const info = machine();
  log(`skilldex bench: sizes ${sizes.join(', ')}, ${runs} run(s), ${info.nproc} cores, ${info.memoryGb} GB, Node ${info.node}, load ${info.loadAverageAtStart.join(' ')}`);
  const results: SizeResult[] = [];
  for (const n of sizes) {
    // Site builds at 10k take minutes; one run each keeps the bench inside its 15-minute budget.
    const siteRuns = values['site-runs'] ? Number(values['site-runs']) : n >= 5000 ? 1 : runs;
    const loadBefore = os.loadavg()[0] as number;
    const measured = await benchSize(n, runs, Math.max(1, Math.min(runs, siteRuns)), { site: values.site && !values['no-site'], browser: values.browser && !values['no-browser'], work, log });
    results.push({ ...measured, measuredAt: new Date().toISOString(), loadAverage: [round(loadBefore, 2), round(os.loadavg()[0] as number, 2)] });
  }
  // Figures measured once per run (start-up, the corpus), after the sizes so they do not warm the disk for them.
  const modules: Record<string, unknown> = {};
  const only = values.only?.split(',').map((s) => s.trim());
  const unknown = only?.filter((name) => !MODULES.some((m) => m.name === name));
  if (unknown?.length) throw new Error(`--only: no figures module named ${unknown.join(', ')} (there are ${MODULES.map((m) => m.name).join(', ')})`);
  if (!values['no-once']) {
    for (const m of MODULES) {
      if (!m.once || (only && !only.includes(m.name))) continue;
      try {
        modules[m.name] = await m.once({ runs, quick: values.quick, work, log });
      } catch (error) {
        modules[m.name] = { error: (error as Error).message.slice(0, 2000) };
        log(`${m.name} failed: ${(error as Error).message.slice(0, 500)}`);
      }
    }
  }
  // Sizes not measured this time keep their previous figures (each carries its measuredAt), so
  // `--sizes 1000` refreshes one column without throwing away the 10k one.
  emptyTrash(work);
  const resultsFile = join(outDir, 'results.json');
  if (!values.quick && existsSync(resultsFile)) {
    try {
      const previous = JSON.parse(readFileSync(resultsFile, 'utf8')) as { sizes?: SizeResult[]; modules?: Record<string, unknown> };
      for (const old of previous.sizes ?? []) if (!results.some((r) => r.n === old.n)) results.push(old);
      for (const [name, figures] of Object.entries(previous.modules ?? {})) if (!(name in modules)) modules[name] = figures;
      results.sort((a, b) => a.n - b.n);
    } catch {
      // An unreadable previous file is simply replaced.
    }
  }
  const report = { machine: info, runs, seed: SEED, sizes: results, modules, finishedAt: new Date().toISOString(), totalSeconds: round((performance.now() - started) / 1000, 1) };
  writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
  const md = renderMarkdown(report);
  writeFileSync(join(outDir, 'results.md'), `# Skilldex benchmark results\n\nWritten by \`npm run bench\` (scripts/bench.ts); see docs/performance.md.\n\n${md}`);
  log('');
  log(md);
  log(`wrote ${relative(process.cwd(), join(outDir, 'results.json'))} and results.md in ${report.totalSeconds}s`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
