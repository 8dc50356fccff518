/**
 * A render worker (see ./pool.ts): for each skill document, the cached HTML when an entry passes
 * every check (./cache.ts), else a fresh render, which it stores for the next build.
 */
import module from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type { RenderReply, RenderRequest, RenderWorkerData } from './pool.ts';

const port = parentPort;
if (!port) throw new Error('src/site/render/worker.ts runs only as a worker thread');

const { cacheDir, fingerprint, compileCacheDir } = workerData as RenderWorkerData;
// Node's compile cache is per thread; the pool passes the main thread's (see src/scanner/worker.ts).
if (compileCacheDir) module.enableCompileCache?.(compileCacheDir);
const loading = Promise.all([import('../catalog/markdown.ts'), import('./cache.ts'), import('./document.ts')]);

port.on('message', async ({ id, document }: RenderRequest) => {
  let reply: RenderReply;
  try {
    const [{ renderMarkdown }, cache, { documentKey }] = await loading;
    const key = documentKey(fingerprint, document);
    const cached = cacheDir === undefined ? undefined : cache.readEntry(cacheDir, key);
    if (cached !== undefined) {
      reply = { id, key, html: cached, hit: true };
    } else {
      const html = renderMarkdown(document.markdown, document.options);
      if (cacheDir !== undefined) cache.writeEntry(cacheDir, key, html);
      reply = { id, key, html, hit: false };
    }
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
