import type { APIRoute } from 'astro';
import { loadCatalog, siteConfig } from '../catalog/catalog.ts';
import { absoluteUrl, sitePath } from '../catalog/routes.ts';

/**
 * `/llms.txt` (llmstxt.org): the registry for a language model in one file. Every skill with its
 * description and manifest URL; the manifest holds everything needed to install or run it.
 */
export const GET: APIRoute = () => {
  const catalog = loadCatalog();
  const config = siteConfig();
  const line = (text: string) => text.replace(/\s+/g, ' ').trim();
  const out = [
    `# ${line(config.title)}`,
    '',
    `> A static registry of ${catalog.entries.length} agent skills. Each entry links to its JSON manifest (schemas, files with sha256 digests, archive URL). The full index is at ${absoluteUrl(config.siteUrl, sitePath('index.json'))}.`,
    '',
    '## Skills',
    '',
  ];
  for (const name of catalog.sorted.name) {
    const entry = catalog.byName.get(name)!;
    out.push(`- [${line(entry.title).replace(/[[\]]/g, '')}](${absoluteUrl(config.siteUrl, sitePath(entry.urls.manifest))}): ${line(entry.summary)}`);
  }
  return new Response(`${out.join('\n')}\n`, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
