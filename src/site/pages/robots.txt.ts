import type { APIRoute } from 'astro';
import { siteConfig } from '../catalog/catalog.ts';
import { absoluteUrl, sitePath } from '../catalog/routes.ts';

/**
 * `robots.txt`: every page may be crawled. The `Sitemap:` line must be an absolute URL, so it is
 * written only when `siteUrl` is known (skilldex.config.json, --site-url or SKILLDEX_SITE_URL).
 * Crawlers read robots.txt only at a host's root, so a registry served under a sub-path needs the
 * host's own robots.txt to point at this sitemap.
 */
export const GET: APIRoute = () => {
  const { siteUrl } = siteConfig();
  const lines = ['User-agent: *', 'Allow: /'];
  if (siteUrl) lines.push('', `Sitemap: ${absoluteUrl(siteUrl, sitePath('sitemap.xml'))}`);
  return new Response(`${lines.join('\n')}\n`, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
