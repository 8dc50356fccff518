import type { APIRoute } from 'astro';
import { skillBadges } from '../../../catalog/badge.ts';
import { loadCatalog } from '../../../catalog/catalog.ts';

/** `/skills/<name>/version.svg` and `/skills/<name>/scan.svg`: static badges for READMEs. */
export function getStaticPaths() {
  return loadCatalog().entries.flatMap((entry) =>
    skillBadges(entry).map((badge) => ({ params: { name: entry.name, badge: badge.file.replace(/\.svg$/, '') }, props: { svg: badge.svg } })),
  );
}

export const GET: APIRoute = ({ props }) => new Response((props as { svg: string }).svg, { headers: { 'Content-Type': 'image/svg+xml' } });
