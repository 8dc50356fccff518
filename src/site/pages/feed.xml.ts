import type { APIRoute } from 'astro';
import { loadCatalog, siteConfig } from '../catalog/catalog.ts';
import { absoluteUrl, sitePath, skillPath } from '../catalog/routes.ts';

/** Atom feed of the most recently updated skills. Its clock is the skills' lastModified. */
const LIMIT = 50;

const xml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
    // XML 1.0 forbids most control characters even when escaped.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');

export const GET: APIRoute = () => {
  const catalog = loadCatalog();
  const config = siteConfig();
  const id = (pathname: string) => (config.siteUrl ? absoluteUrl(config.siteUrl, pathname) : `urn:skilldex:${pathname}`);
  const entries = catalog.sorted.updated.slice(0, LIMIT).map((name) => {
    const e = catalog.byName.get(name)!;
    const link = absoluteUrl(config.siteUrl, skillPath(e.name));
    return [
      '  <entry>',
      `    <title>${xml(e.title)}</title>`,
      `    <id>${xml(id(skillPath(e.name)))}#${xml(e.version)}</id>`,
      `    <link rel="alternate" type="text/html" href="${xml(link)}"/>`,
      // An unknown time is left out rather than shown as 1970.
      e.lastModified ? `    <updated>${xml(e.lastModified)}</updated>` : '',
      e.author ? `    <author><name>${xml(e.author)}</name></author>` : '',
      ...(e.category ? [`    <category term="${xml(e.category)}"/>`] : []),
      `    <summary>${xml(e.summary)}</summary>`,
      '  </entry>',
    ].filter(Boolean).join('\n');
  });
  const body = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <title>${xml(config.title)}: recently updated skills</title>`,
    `  <id>${xml(id(sitePath('feed.xml')))}</id>`,
    `  <link rel="self" href="${xml(absoluteUrl(config.siteUrl, sitePath('feed.xml')))}"/>`,
    `  <link rel="alternate" type="text/html" href="${xml(absoluteUrl(config.siteUrl, sitePath('')))}"/>`,
    ...(catalog.updatedAt ? [`  <updated>${xml(catalog.updatedAt)}</updated>`] : []),
    `  <author><name>${xml(config.title)}</name></author>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'application/atom+xml; charset=utf-8' } });
};
