/**
 * Worker threads for CPU-bound work, in Node (not browser-safe, hence not src/core/): one pool
 * that the scanner (src/scanner/pool.ts), the build's per-skill phase
 * (src/pipeline/phases/worker.ts) and the site's document renderer (src/site/render/pool.ts)
 * each start over their own worker module. A worker module calls {@link serveRequests}; the
 * pool keeps a few requests queued at each worker, which answers them one after another, and the
 * results are what calling the same functions on the main thread gives: the workers run those
 * very functions.
 */
import module from 'node:module';
import { availableParallelism } from 'node:os';
import { parentPort, Worker, workerData } from 'node:worker_threads';

export interface WorkerPool<Request, Reply> {
  /**
   * Runs one request on the next free worker. Rejects with a {@link WorkerStoppedError} when the
   * worker died while running it, and with a {@link PoolUnavailableError} when the pool is closed
   * or no worker is left to run it; never waits forever.
   */
  run(request: Request): Promise<Reply>;
  /** Stops the workers; pending requests are rejected. */
  close(): Promise<void>;
}

/** The worker running a request died before answering (a crash, or it ran out of memory). */
export class WorkerStoppedError extends Error {
  override name = 'WorkerStoppedError';
}

/** The pool could not run a request at all: closed, or every worker failed to start. */
export class PoolUnavailableError extends Error {
  override name = 'PoolUnavailableError';
}

/** What the main thread posts to a worker, and what the worker answers (see {@link serveRequests}). */
interface Envelope<Request> {
  id: number;
  request: Request;
}
type ReplyEnvelope<Reply> = { id: number; reply: Reply } | { id: number; error: string };

interface Job<Request, Reply> extends Envelope<Request> {
  resolve(reply: Reply): void;
  reject(error: Error): void;
}

interface BootstrapData {
  compileCacheDir: string | undefined;
  module: string;
  /** What every worker of the pool is started with (see {@link serveRequests}). */
  data: unknown;
}

export interface WorkerPoolOptions {
  /** Workers to start (default {@link defaultPoolSize}). */
  size?: number;
  /**
   * Requests posted to a worker before it answers the first (default {@link DEFAULT_DEPTH}). A
   * worker that has the next request in its queue starts it at once, instead of waiting for a
   * busy main thread to take its answer and post another: with one at a time, the per-skill
   * workers stood idle 40 % of a 2,000-skill validate.
   */
  depth?: number;
  /** Plain data each worker's `load` receives (structured-cloned once per worker). */
  data?: unknown;
}

/**
 * What a worker thread runs first, as plain JavaScript. Node's compile cache is per thread, and a
 * worker started on a TypeScript module type-strips that module and its imports before any of its
 * code could turn the cache on: loading the stripper alone cost each worker ~0.7 s of CPU on every
 * build. So the cache is turned on here, then the worker module is imported.
 */
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
if (workerData.compileCacheDir) require('node:module').enableCompileCache?.(workerData.compileCacheDir);
import(workerData.module);
`;

/** See {@link WorkerPoolOptions.depth}. */
export const DEFAULT_DEPTH = 4;

/** One worker per core, at most four: past that the build is bound by reading files. */
export function defaultPoolSize(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/**
 * Starts `size` workers of the module at `workerUrl`, which must call {@link serveRequests}.
 * A worker that dies while running a request fails that request only and is replaced, so one
 * skill that crashes a worker never stops the others; a worker that dies before it ever started
 * is not replaced, and once none is left every queued request is rejected.
 */
export function createWorkerPool<Request, Reply>(workerUrl: URL, { size = defaultPoolSize(), depth = DEFAULT_DEPTH, data }: WorkerPoolOptions = {}): WorkerPool<Request, Reply> {
  const queue: Job<Request, Reply>[] = [];
  // Each worker's posted requests, oldest first: it answers them in that order (serveRequests).
  const posted = new Map<Worker, Job<Request, Reply>[]>();
  let nextId = 0;
  let closed = false;

  const dispatch = () => {
    for (const [worker, jobs] of posted) {
      while (jobs.length < depth && queue.length > 0) {
        const job = queue.shift() as Job<Request, Reply>;
        jobs.push(job);
        // A busy worker keeps the process alive (the caller awaits it); an idle one must not.
        worker.ref();
        worker.postMessage({ id: job.id, request: job.request } satisfies Envelope<Request>);
      }
    }
  };

  const failQueued = () => {
    for (const job of queue.splice(0)) job.reject(new PoolUnavailableError('every worker thread stopped'));
  };

  const start = (): void => {
    const worker = new Worker(BOOTSTRAP, { eval: true, workerData: { compileCacheDir: module.getCompileCacheDir?.(), module: workerUrl.href, data } satisfies BootstrapData });
    const jobs: Job<Request, Reply>[] = [];
    let online = false;
    let stopped: Error | undefined;
    posted.set(worker, jobs);
    worker.unref();
    worker.on('online', () => {
      online = true;
    });
    worker.on('message', (message: ReplyEnvelope<Reply>) => {
      const job = jobs[0];
      if (!job || job.id !== message.id) return;
      jobs.shift();
      if (jobs.length === 0) worker.unref();
      if ('reply' in message) job.resolve(message.reply);
      else job.reject(new Error(message.error));
      dispatch();
    });
    worker.on('error', (error) => {
      stopped = error;
    });
    worker.on('exit', (code) => {
      posted.delete(worker);
      // The oldest unanswered request is the one it was running: it fails alone. The worker
      // never started the others, so they go back to the front of the queue.
      const [running, ...unstarted] = jobs.splice(0);
      running?.reject(new WorkerStoppedError(`the worker thread stopped (${stopped ? stopped.message : `exit code ${code}`})`));
      if (closed) return;
      queue.unshift(...unstarted);
      if (online) start();
      if (posted.size === 0) failQueued();
      else dispatch();
    });
  };
  for (let i = 0; i < size; i++) start();

  return {
    run(request) {
      if (closed || posted.size === 0) return Promise.reject(new PoolUnavailableError(closed ? 'the worker pool is closed' : 'every worker thread stopped'));
      return new Promise<Reply>((resolve, reject) => {
        queue.push({ id: nextId++, request, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      const workers = [...posted.keys()];
      for (const job of [...queue.splice(0), ...[...posted.values()].flatMap((jobs) => jobs.splice(0))]) job.reject(new PoolUnavailableError('the worker pool is closed'));
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

/**
 * The loop of a worker module: loads `handlers` (given the pool's {@link WorkerPoolOptions.data}), then answers each request with `handle`'s
 * result, or with the message of what it threw.
 *
 * The compile cache is flushed to disk once the handlers are loaded and again after the first
 * request (which may load more modules on demand): a terminated worker never writes its cache,
 * and without it every build type-stripped and compiled them again.
 */
export function serveRequests<Request, Reply, Handlers, Data = undefined>(
  load: (data: Data) => Promise<Handlers>,
  handle: (handlers: Handlers, request: Request) => Reply | Promise<Reply>,
): void {
  const port = parentPort;
  if (!port) throw new Error('a worker module runs only as a worker thread');
  const flush = () => {
    if (module.getCompileCacheDir?.()) module.flushCompileCache?.();
  };
  const loading = load((workerData as BootstrapData).data as Data).then((handlers) => {
    flush();
    return handlers;
  });
  let answered = 0;
  // One request at a time, in the order posted: the pool takes a worker's death to be the fault
  // of its oldest unanswered request, and posts the others again elsewhere.
  let previous: Promise<void> = Promise.resolve();
  port.on('message', ({ id, request }: Envelope<Request>) => {
    previous = previous.then(async () => {
      let answer: ReplyEnvelope<Reply>;
      try {
        answer = { id, reply: await handle(await loading, request) };
      } catch (error) {
        answer = { id, error: error instanceof Error ? error.message : String(error) };
      }
      port.postMessage(answer);
      if (++answered === 1) flush();
    });
  });
}
