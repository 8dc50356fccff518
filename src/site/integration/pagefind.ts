import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { SiteBuildError } from './site-build-error.ts';

/**
 * Indexes the skill pages (only those: listings and docs would crowd the results) of the built
 * site in `outDir` with Pagefind's Node API and returns how many pages it indexed. The API
 * returns its errors rather than throwing them, so each step's list is checked.
 */
export async function indexSkillPages(outDir: string): Promise<number> {
  const pagefind = await import('pagefind');
  const fail = (step: string, errors: string[]): never => {
    throw new SiteBuildError('E_PAGEFIND', `Pagefind ${step} failed:\n  ${errors.join('\n  ')}`);
  };
  try {
    const { index, errors } = await pagefind.createIndex({});
    if (!index || errors.length) return fail('createIndex', errors);
    const added = await index.addDirectory({ path: outDir, glob: 'skills/*/index.html' });
    if (added.errors.length) fail('addDirectory', added.errors);
    const written = await index.writeFiles({ outputPath: path.join(outDir, 'pagefind') });
    if (written.errors.length) fail('writeFiles', written.errors);
    // Only the search runtime is used; the prebuilt UIs would be dead weight in every deploy.
    for (const name of readdirSync(path.join(outDir, 'pagefind'))) {
      if (/^pagefind-(component-ui|modular-ui|ui|highlight)\./.test(name)) rmSync(path.join(outDir, 'pagefind', name));
    }
    return added.page_count;
  } finally {
    await pagefind.close();
  }
}
