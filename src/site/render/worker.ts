/**
 * A render worker (see ./pool.ts): for each skill document, the cached HTML when an entry passes
 * every check (./cache.ts), else a fresh render, which it stores for the next build. A trusted
 * document (the project's own docs) is rendered and nothing more.
 */
import { serveRequests } from '../../core-node/worker-pool.ts';
import type { RenderReply, RenderRequest, RenderWorkerData } from './pool.ts';

serveRequests(
  async ({ cacheDir, fingerprint }: RenderWorkerData) => {
    const [{ renderMarkdown }, cache, { documentKey }] = await Promise.all([import('../catalog/markdown.ts'), import('./cache.ts'), import('./document.ts')]);
    return { renderMarkdown, cache, documentKey, cacheDir, fingerprint };
  },
  ({ renderMarkdown, cache, documentKey, cacheDir, fingerprint }, request: RenderRequest): RenderReply => {
    if ('trusted' in request) return { key: '', html: renderMarkdown(request.trusted.markdown, request.trusted.options), hit: false };
    const { document } = request;
    const key = documentKey(fingerprint, document);
    const cached = cacheDir === undefined ? undefined : cache.readEntry(cacheDir, key);
    if (cached !== undefined) return { key, html: cached, hit: true };
    const html = renderMarkdown(document.markdown, document.options);
    if (cacheDir !== undefined) cache.writeEntry(cacheDir, key, html);
    return { key, html, hit: false };
  },
);
