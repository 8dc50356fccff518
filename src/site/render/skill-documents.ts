/**
 * What the pages call to render a skill document. During a build the site integration provides a
 * render pool (./pool.ts: worker threads and the render cache); the pages and the integration are
 * separate module instances (Astro bundles the pages), so the pool is handed over in a global slot
 * under a registered symbol. Without a pool (a page rendered outside the integration's build) the
 * document is rendered here, to the same HTML.
 */
import { renderMarkdown, type RenderOptions } from '../catalog/markdown.ts';
import type { SkillDocumentOptions } from './document.ts';
import type { RenderPool } from './pool.ts';

const SLOT = Symbol.for('skilldex.site.renderPool');
type Slot = { [SLOT]?: RenderPool };

/** Called by the integration around Astro's page generation. */
export function provideRenderPool(pool: RenderPool | undefined): void {
  (globalThis as Slot)[SLOT] = pool;
}

/**
 * A skill's Markdown (SKILL.md's body, a prompt, a `references/*.md` file) as sanitised HTML for
 * `set:html`: exactly `renderMarkdown(markdown, options)`.
 */
export function renderSkillDocument(markdown: string, options: SkillDocumentOptions): Promise<string> {
  const pool = (globalThis as Slot)[SLOT];
  return pool ? pool.render({ markdown, options }) : Promise.resolve(renderMarkdown(markdown, options));
}

/**
 * One of the project's own documents (a docs/*.md page, the security page) as HTML: exactly
 * `renderMarkdown(markdown, options)`, on the render workers during a build. They are few, but
 * their highlighted code made them ~0.4 s of the main thread, which assembles every page.
 */
export function renderProjectDocument(markdown: string, options: RenderOptions): Promise<string> {
  const pool = (globalThis as Slot)[SLOT];
  return pool ? pool.renderTrusted(markdown, options) : Promise.resolve(renderMarkdown(markdown, options));
}
