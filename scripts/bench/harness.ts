/**
 * What every part of the benchmark shares: the child-process runner (each measurement in a fresh
 * process under /usr/bin/time, so wall time and peak RSS belong to it alone), statistics and
 * formatting. Figures modules (scripts/bench/*.ts, listed in modules.ts) build on it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
export const RESULT_MARK = 'BENCH_RESULT ';

/** Arguments of a child task, passed as JSON on its command line. */
export type ChildArgs = Record<string, string | number | boolean>;

// ---------------------------------------------------------------------------------------------
// Small statistics and formatting helpers

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
export const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? Number.NaN;
};
export const round = (x: number, digits = 2): number => (Number.isFinite(x) ? Number(x.toFixed(digits)) : x);
export const mb = (kb: number): number => round(kb / 1024, 0);

// ---------------------------------------------------------------------------------------------
// Child processes

export interface ChildRun<T> {
  wallMs: number;
  /** Peak RSS in KB of the process (or of its largest descendant, e.g. Pagefind), from /usr/bin/time. */
  maxRssKb: number;
  result: T;
  stdout: string;
}

const TIME_BIN = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** Runs `argv` under /usr/bin/time (when present) and returns wall time, peak RSS and the task's result line. */
export async function runChild<T>(argv: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<ChildRun<T>> {
  const rssFile = join(os.tmpdir(), `skilldex-bench-${process.pid}-${Math.random().toString(36).slice(2)}.rss`);
  const [cmd, ...rest] = TIME_BIN ? [TIME_BIN, '-f', '%M', '-o', rssFile, ...argv] : argv;
  // Flush what earlier measurements wrote: otherwise the kernel writes it back during this one,
  // and successive cold builds of 10k skills (~100k files each) measured 36 s, 42 s, 52 s.
  spawnSync('sync');
  const start = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(cmd as string, rest, { cwd: projectRoot, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20 * 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const wallMs = performance.now() - start;
      let maxRssKb = Number.NaN;
      try {
        maxRssKb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop());
        rmSync(rssFile, { force: true });
      } catch {
        // /usr/bin/time missing: the child reports its own maxRSS below.
      }
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARK));
      let result: T = undefined as T;
      if (line) result = JSON.parse(line.slice(RESULT_MARK.length)) as T;
      if (code !== 0 && !line) return fail(new Error(`${argv.join(' ')} exited ${code}:\n${stderr.slice(-4000)}\n${stdout.slice(-2000)}`));
      const own = (result as { maxRssKb?: number } | undefined)?.maxRssKb;
      done({ wallMs, maxRssKb: Number.isFinite(maxRssKb) ? maxRssKb : (own ?? Number.NaN), result, stdout });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Scratch folders

/**
 * Moves a folder (or file) that earlier steps wrote out of the way, to be deleted by
 * {@link emptyTrash} once everything is measured. Deleting it in place was part of the
 * measurement: on this machine's disk (ext4 mounted with `discard`) the writes that follow a large
 * deletion stall while the freed blocks are discarded. A cold 1k index build written right after
 * the previous run's output was deleted took 4.0-4.8 s, into a folder with nothing deleted before
 * it 2.0-2.4 s, while the write floor it is compared with deleted nothing. A rename costs nothing.
 */
export function setAside(work: string, path: string): void {
  if (!existsSync(path)) return;
  const trash = join(work, 'trash');
  mkdirSync(trash, { recursive: true });
  renameSync(path, join(trash, `${basename(path)}-${process.pid}-${asideCount++}`));
}
let asideCount = 0;

/** Deletes what {@link setAside} moved aside: at the start of a run (a stopped run's leftovers) and at its end. */
export function emptyTrash(work: string): void {
  rmSync(join(work, 'trash'), { recursive: true, force: true });
}

export const node = process.execPath;

const installed = new Map<string, string>();
/**
 * The CLI as `npm install skilldex` gives it (the bundle `npm run build:package` writes), laid out
 * in the scratch folder as the tarball holds it (bin/, lib/, schemas/, package.json; no sources),
 * built from this checkout once per run. Returns its bin script. Its worker threads import the
 * dependencies, which resolve from the checkout's node_modules above the scratch folder, as an
 * install's resolve from the project's.
 */
export function installedCli(work: string): string {
  const known = installed.get(work);
  if (known) return known;
  const dir = join(work, 'installed-cli');
  rmSync(dir, { recursive: true, force: true });
  const built = spawnSync(node, [join(projectRoot, 'scripts', 'build-package.ts'), '--out-dir', join(dir, 'lib')], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  if (built.status !== 0) throw new Error(`npm run build:package failed: ${String(built.stderr).slice(-2000)}`);
  const bin = join(dir, 'bin', 'skilldex.mjs');
  installed.set(work, bin);
  return bin;
}
const benchScript = join(projectRoot, 'scripts', 'bench.ts');
/**
 * Node's compile cache, as `module.enableCompileCache()` with no folder uses it. Children get it
 * through the environment, so that it covers scripts/bench.ts and what it imports too: enabled
 * only once bench.ts runs, it came too late for them, and every child type-stripped and compiled
 * the bench's own modules (and loaded yaml through them) before measuring anything, about
 * 0.2 s a child that the CLI, whose entry bin/skilldex.mjs is plain JavaScript, never pays.
 */
const compileCache = process.env.NODE_COMPILE_CACHE || join(os.tmpdir(), 'node-compile-cache');
/** Runs one of the bench's child tasks (scripts/bench.ts --child <task>) in a fresh process. */
export const child = <T>(task: string, args: ChildArgs, options?: { timeoutMs?: number }) =>
  runChild<T>([node, benchScript, '--child', task, '--args', JSON.stringify(args)], { ...options, env: { NODE_COMPILE_CACHE: compileCache } });
/** Runs the checkout's `skilldex` in a fresh process, as a user starts it (bin/skilldex.mjs). */
export const cli = (args: readonly string[], options?: { timeoutMs?: number }) =>
  runChild<undefined>([node, join(projectRoot, 'bin', 'skilldex.mjs'), ...args], { ...options, env: { NODE_COMPILE_CACHE: compileCache } });

export const fmtS = (ms: number | undefined) => (ms === undefined || !Number.isFinite(ms) ? '–' : `${(ms / 1000).toFixed(2)} s`);
export const fmtMs = (ms: number | undefined) => (ms === undefined || !Number.isFinite(ms) ? '–' : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`);
export const fmtB = (b: number | undefined) => (b === undefined ? '–' : b > 1e6 ? `${(b / 1e6).toFixed(1)} MB` : `${(b / 1e3).toFixed(1)} kB`);


// ---------------------------------------------------------------------------------------------
// Figures modules

/** What a figures module gets for one registry size: the generated tree and the build's output. */
export interface SizeContext {
  n: number;
  runs: number;
  /** The generated registry root (skilldex.config.json + skills/). */
  root: string;
  /** The registry the index build wrote for this size. */
  registryOut: string;
  /** Scratch folder (bench/work, gitignored). */
  work: string;
  log: (line: string) => void;
}

/** What a figures module measured once per bench run, not per size (e.g. start-up). */
export interface OnceContext {
  runs: number;
  /** `--quick`: the smoke-test scale (a few hundred skills, the fewest runs that give a median). */
  quick: boolean;
  work: string;
  log: (line: string) => void;
}

/**
 * A group of figures (scripts/bench/<name>.ts, listed in scripts/bench/modules.ts). Each figure
 * is reported beside a floor measured in the same run. Per-size figures go to
 * `sizes[i].modules[name]` in results.json and one row each in the table; once-per-run figures go
 * to `modules[name]` and the lines `renderOnce` returns, below the table.
 */
export interface BenchModule {
  name: string;
  /** Child tasks, run as `child(task, args)` in a fresh process (scripts/bench.ts --child). */
  tasks?: Record<string, (args: ChildArgs) => Promise<unknown>>;
  perSize?(ctx: SizeContext): Promise<unknown>;
  /** Table rows: a label and the cell for one size's figures (undefined when not measured). */
  sizeRows?: { label: string; cell(figures: any): string }[];
  once?(ctx: OnceContext): Promise<unknown>;
  renderOnce?(figures: any): string[];
}
