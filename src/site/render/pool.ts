/**
 * Renders skill documents on worker threads, through the render cache. Markdown parsing and
 * sanitising took about 5 ms per document on the main thread (a third of a 10k-skill site build);
 * on workers it runs beside Astro's page assembly, and a document whose cached render passes the
 * cache's checks is not rendered at all. The HTML is what `renderMarkdown` returns for the same
 * document: the workers run that very function, or reuse what it returned for the same key.
 */
import module from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { siblingModule } from '../../core/module-file.ts';
import { pruneEntries } from './cache.ts';
import type { SkillDocument } from './document.ts';
import { rendererFingerprint } from './fingerprint.ts';

export interface RenderWorkerData {
  /** Where rendered documents are cached; none: render every document. */
  cacheDir?: string;
  fingerprint: string;
  compileCacheDir?: string;
}
export interface RenderRequest {
  id: number;
  document: SkillDocument;
}
export type RenderReply = { id: number; key: string; html: string; hit: boolean } | { id: number; error: string };

export interface RenderStats {
  documents: number;
  /** Documents whose cached render was used. */
  hits: number;
  /** Entries of earlier builds removed from the cache. */
  pruned: number;
}

export interface RenderPool {
  render(document: SkillDocument): Promise<string>;
  /**
   * Stops the workers. With `prune` (after a build that rendered every page), cache entries this
   * build did not use are removed.
   */
  close(options?: { prune?: boolean }): Promise<RenderStats>;
}

interface Job {
  request: RenderRequest;
  resolve(html: string): void;
  reject(error: Error): void;
}

/** One worker per core, at most four. */
export function defaultRenderPoolSize(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

export function createRenderPool(options: { cacheDir?: string; size?: number } = {}): RenderPool {
  const size = options.size ?? defaultRenderPoolSize();
  const workerData: RenderWorkerData = { cacheDir: options.cacheDir, fingerprint: rendererFingerprint(), compileCacheDir: module.getCompileCacheDir?.() };
  const queue: Job[] = [];
  const idle: Worker[] = [];
  const running = new Map<Worker, Job>();
  const used = new Set<string>();
  const stats: RenderStats = { documents: 0, hits: 0, pruned: 0 };
  let nextId = 0;
  let closed = false;
  let alive = size;

  const dispatch = () => {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop()!;
      const job = queue.shift()!;
      running.set(worker, job);
      // A busy worker keeps the process alive (a page awaits it); an idle one must not.
      worker.ref();
      worker.postMessage(job.request);
    }
  };

  const workers = Array.from({ length: size }, () => {
    const worker = new Worker(siblingModule(import.meta.url, './worker'), { workerData });
    worker.unref();
    worker.on('message', (reply: RenderReply) => {
      const job = running.get(worker);
      running.delete(worker);
      worker.unref();
      idle.push(worker);
      if (job && job.request.id === reply.id) {
        if ('html' in reply) {
          used.add(reply.key);
          stats.documents++;
          if (reply.hit) stats.hits++;
          job.resolve(reply.html);
        } else job.reject(new Error(`rendering a skill document failed: ${reply.error}`));
      }
      dispatch();
    });
    // A worker that dies fails only its own document; the others take the queue.
    worker.on('error', (error) => {
      running.get(worker)?.reject(error);
      running.delete(worker);
    });
    worker.on('exit', () => {
      running.get(worker)?.reject(new Error('a render worker stopped'));
      running.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      if (--alive === 0) for (const job of queue.splice(0)) job.reject(new Error('every render worker stopped'));
    });
    idle.push(worker);
    return worker;
  });

  return {
    render(document) {
      if (closed || alive === 0) return Promise.reject(new Error(closed ? 'the render pool is closed' : 'every render worker stopped'));
      return new Promise<string>((resolve, reject) => {
        queue.push({ request: { id: nextId++, document }, resolve, reject });
        dispatch();
      });
    },
    async close({ prune = false } = {}) {
      closed = true;
      for (const job of [...queue.splice(0), ...running.values()]) job.reject(new Error('the render pool is closed'));
      running.clear();
      await Promise.all(workers.map((w) => w.terminate()));
      // A build that rendered no skill document says nothing about which entries are stale.
      if (prune && options.cacheDir !== undefined && used.size > 0) stats.pruned = pruneEntries(options.cacheDir, used);
      return stats;
    },
  };
}
