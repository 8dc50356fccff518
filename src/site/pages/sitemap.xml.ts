import type { APIRoute } from 'astro';
import { docPages, FACETS, loadCatalog, loadManifest, markdownPageFiles, siteConfig } from '../catalog/catalog.ts';
import { absoluteUrl, facetPath, markdownPagePath, sitePath, skillPath } from '../catalog/routes.ts';

/**
 * `sitemap.xml`: home, facet pages, every skill with its rendered Markdown files, and the docs pages. Sitemaps want absolute URLs, which needs
 * `siteUrl` in skilldex.config.json; without it the paths are site-relative.
 * Paginated listings are left out on purpose: they only repeat what skill pages say.
 */
export const GET: APIRoute = () => {
  const catalog = loadCatalog();
  const { siteUrl } = siteConfig();
  const urls: Array<{ loc: string; lastmod?: string }> = [{ loc: sitePath(''), lastmod: catalog.updatedAt }];
  for (const facet of FACETS) {
    urls.push({ loc: facetPath(facet) });
    for (const value of catalog.facets[facet]) urls.push({ loc: facetPath(facet, value) });
  }
  for (const name of catalog.sorted.name) {
    const entry = catalog.byName.get(name)!;
    urls.push({ loc: skillPath(name), lastmod: entry.lastModified });
    for (const file of markdownPageFiles(loadManifest(entry))) urls.push({ loc: markdownPagePath(name, file), lastmod: entry.lastModified });
  }
  urls.push({ loc: sitePath('security/') });
  urls.push({ loc: sitePath('docs/') });
  for (const page of docPages()) urls.push({ loc: sitePath(`docs/${page.slug}/`) });
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map((u) => `  <url><loc>${esc(absoluteUrl(siteUrl, u.loc))}</loc>${u.lastmod ? `<lastmod>${esc(u.lastmod)}</lastmod>` : ''}</url>`),
    '</urlset>',
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
