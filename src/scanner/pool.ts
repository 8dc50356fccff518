/**
 * Scans skills on worker threads. The scanner is pure and CPU-bound (dozens of regular
 * expressions over every text file), and it took about half of a cold registry build; on worker
 * threads it runs while the main thread goes on reading and parsing the next skills. Results
 * are identical to calling `scanSkill` directly: the workers run that very function.
 */
import module from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { siblingModule } from '../core/module-file.ts';
import type { ScanResult } from '../core/schemas/scan.ts';
import type { ScanInput, ScanOptions } from './scan.ts';

export interface ScanPool {
  /** Scans one skill on the next free worker. */
  scan(input: ScanInput, options?: ScanOptions): Promise<ScanResult>;
  /** Stops the workers; pending scans are rejected. */
  close(): Promise<void>;
}

/** What a worker receives and answers (src/scanner/worker.ts). */
export interface ScanRequest {
  id: number;
  input: ScanInput;
  options: ScanOptions;
}
export type ScanReply = { id: number; result: ScanResult } | { id: number; error: string };

interface Job extends ScanRequest {
  resolve(result: ScanResult): void;
  reject(error: Error): void;
}

/** One worker per core, at most four: past that the build is bound by reading files. */
export function defaultPoolSize(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

export function createScanPool(size = defaultPoolSize()): ScanPool {
  const queue: Job[] = [];
  const idle: Worker[] = [];
  const running = new Map<Worker, Job>();
  let nextId = 0;
  let closed = false;
  let alive = size;

  const dispatch = () => {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop() as Worker;
      const job = queue.shift() as Job;
      running.set(worker, job);
      // A busy worker keeps the process alive (the caller awaits it); an idle one must not.
      worker.ref();
      worker.postMessage({ id: job.id, input: job.input, options: job.options } satisfies ScanRequest);
    }
  };

  const workers = Array.from({ length: size }, () => {
    const worker = new Worker(siblingModule(import.meta.url, './worker'), { workerData: { compileCacheDir: module.getCompileCacheDir?.() } });
    worker.unref();
    worker.on('message', (reply: ScanReply) => {
      const job = running.get(worker);
      running.delete(worker);
      worker.unref();
      idle.push(worker);
      if (job && job.id === reply.id) {
        if ('result' in reply) job.resolve(reply.result);
        else job.reject(new Error(reply.error));
      }
      dispatch();
    });
    // A worker that dies takes only its own job down; the others take the queue. When none is
    // left, what is queued fails instead of waiting forever.
    worker.on('error', (error) => {
      running.get(worker)?.reject(error);
      running.delete(worker);
    });
    worker.on('exit', () => {
      running.get(worker)?.reject(new Error('a scan worker stopped'));
      running.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      if (--alive === 0) for (const job of queue.splice(0)) job.reject(new Error('every scan worker stopped'));
    });
    idle.push(worker);
    return worker;
  });

  return {
    scan(input, options = {}) {
      if (closed || alive === 0) return Promise.reject(new Error(closed ? 'the scan pool is closed' : 'every scan worker stopped'));
      return new Promise<ScanResult>((resolve, reject) => {
        queue.push({ id: nextId++, input: cloneable(input), options, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const job of [...queue.splice(0), ...running.values()]) job.reject(new Error('the scan pool is closed'));
      running.clear();
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

/**
 * Posting a typed array copies its whole underlying buffer; a file read into a slice of a shared
 * pool (small Buffers are) would drag the pool along, so such views are copied to their own bytes.
 */
function cloneable(input: ScanInput): ScanInput {
  return {
    ...input,
    files: input.files.map((f) =>
      f.bytes.byteOffset === 0 && f.bytes.byteLength === f.bytes.buffer.byteLength ? { path: f.path, bytes: f.bytes } : { path: f.path, bytes: f.bytes.slice() },
    ),
  };
}
