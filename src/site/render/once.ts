/**
 * HTML rendered once per object and variant, for markup that many pages repeat: a skill's card is
 * on about a dozen listing pages (each sort of the full list, of its category, tags, format and
 * mode). The promise is kept, so pages generated side by side share one rendering. Keys are held
 * weakly: a catalog read again (a dev server's reload) brings new objects, and the HTML of the old
 * ones goes with them.
 */
const rendered = new WeakMap<object, Map<string, Promise<string>>>();

export function renderOnce(of: object, variant: string, render: () => Promise<string>): Promise<string> {
  let variants = rendered.get(of);
  if (!variants) rendered.set(of, (variants = new Map()));
  let html = variants.get(variant);
  if (!html) {
    variants.set(variant, (html = render().then(flat)));
    // A failed rendering fails its page; the next page to ask tries again.
    html.catch(() => variants.delete(variant));
  }
  return html;
}

/**
 * The same text as one flat string. Astro returns HTML as a rope of the many small strings it was
 * assembled from, and joining a rope into a page walks all of its pieces again: the 10k site's
 * listing pages spent a fifth of their time re-walking the cards kept here. Copying through UTF-8
 * walks them once.
 */
const flat = (html: string): string => Buffer.from(html, 'utf8').toString('utf8');
