/**
 * Renders skill documents on worker threads, through the render cache. Markdown parsing and
 * sanitising took about 5 ms per document on the main thread (a third of a 10k-skill site build);
 * on workers it runs beside Astro's page assembly, and a document whose cached render passes the
 * cache's checks is not rendered at all. The HTML is what `renderMarkdown` returns for the same
 * document: the workers run that very function, or reuse what it returned for the same key.
 */
import { createWorkerPool, defaultPoolSize, PoolUnavailableError, WorkerStoppedError } from '../../core-node/worker-pool.ts';
import { siblingModule } from '../../core/module-file.ts';
import { pruneEntries } from './cache.ts';
import type { RenderOptions } from '../catalog/markdown.ts';
import type { SkillDocument } from './document.ts';
import { rendererFingerprint } from './fingerprint.ts';

/** What every render worker is started with. */
export interface RenderWorkerData {
  /** Where rendered documents are cached; none: render every document. */
  cacheDir?: string;
  fingerprint: string;
}
/**
 * A skill document, rendered through the render cache; or one of the project's own documents
 * (`trusted`), rendered with every option and never cached: its HTML has what the cache's check
 * refuses (heading ids, links to docs pages), and there are a few dozen of them.
 */
export type RenderRequest = { document: SkillDocument } | { trusted: { markdown: string; options: RenderOptions } };
export interface RenderReply {
  key: string;
  html: string;
  hit: boolean;
}

export interface RenderStats {
  documents: number;
  /** Documents whose cached render was used. */
  hits: number;
  /** Entries of earlier builds removed from the cache. */
  pruned: number;
}

export interface RenderPool {
  render(document: SkillDocument): Promise<string>;
  /** One of the project's own documents (see {@link RenderRequest}): not cached, not counted. */
  renderTrusted(markdown: string, options: RenderOptions): Promise<string>;
  /**
   * Stops the workers. With `prune` (after a build that rendered every page), cache entries this
   * build did not use are removed.
   */
  close(options?: { prune?: boolean }): Promise<RenderStats>;
}

/** One worker per core, at most four. */
export const defaultRenderPoolSize = defaultPoolSize;

export function createRenderPool(options: { cacheDir?: string; size?: number } = {}): RenderPool {
  const data: RenderWorkerData = { ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}), fingerprint: rendererFingerprint() };
  const pool = createWorkerPool<RenderRequest, RenderReply>(siblingModule(import.meta.url, './worker'), { size: options.size ?? defaultRenderPoolSize(), data });
  const used = new Set<string>();
  const stats: RenderStats = { documents: 0, hits: 0, pruned: 0 };
  let closed = false;

  const run = async (request: RenderRequest): Promise<RenderReply> => {
    if (closed) throw new Error('the render pool is closed');
    try {
      return await pool.run(request);
    } catch (error) {
      // A worker that dies fails only its own document; the others take the queue.
      if (error instanceof WorkerStoppedError) throw new Error('a render worker stopped');
      if (error instanceof PoolUnavailableError) throw new Error(closed ? 'the render pool is closed' : 'every render worker stopped');
      throw new Error(`rendering a ${'trusted' in request ? 'documentation page' : 'skill document'} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  return {
    async render(document) {
      const reply = await run({ document });
      used.add(reply.key);
      stats.documents++;
      if (reply.hit) stats.hits++;
      return reply.html;
    },
    async renderTrusted(markdown, options) {
      return (await run({ trusted: { markdown, options } })).html;
    },
    async close({ prune = false } = {}) {
      closed = true;
      await pool.close();
      // A build that rendered no skill document says nothing about which entries are stale.
      if (prune && options.cacheDir !== undefined && used.size > 0) stats.pruned = pruneEntries(options.cacheDir, used);
      return stats;
    },
  };
}
