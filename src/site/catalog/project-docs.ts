import type { RenderOptions } from './markdown.ts';
import { basePath, sitePath } from './routes.ts';
import { siteConfig } from './site-config.ts';
import { repositoryFilesBase } from './source-links.ts';

/**
 * How the project's own docs are rendered (the docs/*.md pages and the security page): links
 * between them go to their pages, headings get ids, and a link out of docs/ goes to the site's
 * copy of the schemas or to the file in the repository's web view (`../CONTRIBUTING.md`).
 */
export function projectDocOptions(): RenderOptions {
  const source = repositoryFilesBase(siteConfig().repository);
  return {
    filesBase: sitePath('docs/'),
    siteBase: basePath(),
    markdownPages: true,
    headingIds: true,
    projectLinks: { from: 'docs', published: { schemas: sitePath('schemas/') }, ...(source === undefined ? {} : { source }) },
  };
}
