/**
 * The check a cached render passes before it reaches a page. The cache is a folder on disk that
 * anything could have written (a cache restored in CI, another branch's build, a bad disk), so an
 * entry is used only if its HTML, parsed the way a browser parses it where the page puts it,
 * is a tree the sanitiser keeps unchanged under the schema of everything the renderer can output
 * (`renderedHtmlSchema`). Script, event handlers, `javascript:` links, unprefixed ids, comments
 * or styles anywhere in it make the entry a miss, and the document is rendered afresh.
 */
import type { Element, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { sanitize } from 'hast-util-sanitize';
import { renderedHtmlSchema } from '../catalog/markdown.ts';

/** True when `html` could only have come from rendering a skill document. */
export function isRenderedHtml(html: string): boolean {
  // Inside a <div> in <body>, as on the page (`<div class="prose" set:html>`): markup that closes
  // the div early still lands in <body>, where it is checked too.
  const document = fromHtml(`<!doctype html><html><head></head><body><div>${html}</div></body></html>`);
  const root = document.children.find((node): node is Element => node.type === 'element' && node.tagName === 'html');
  const [head, body, ...rest] = root?.children.filter((node): node is Element => node.type === 'element') ?? [];
  if (!head || head.tagName !== 'head' || head.children.length > 0 || !body || body.tagName !== 'body' || rest.length > 0) return false;
  const content: Root = { type: 'root', children: body.children };
  return sameTree(content, sanitize(content, renderedHtmlSchema));
}

const withoutPositions = (key: string, value: unknown) => (key === 'position' ? undefined : value);

function sameTree(a: unknown, b: unknown): boolean {
  return JSON.stringify(a, withoutPositions) === JSON.stringify(b, withoutPositions);
}
