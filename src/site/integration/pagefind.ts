import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { SEARCH_FOLDER } from './search-record.ts';
import { SiteBuildError } from './site-build-error.ts';

/**
 * What of a skill page is searched. The page marks its own parts (`data-pagefind-body` on the
 * article; the install, schema, file, verification and badge panels are `data-pagefind-ignore`):
 * the description, the docs and prompt as prose, and the title, name, category, tags and
 * compatibility note (docs/catalog-search.md). Code
 * blocks are left out here because the skill's own Markdown renders them: they are commands and
 * example data (JSON, YAML, program text), whose keys and keywords (`true`, `count`, `import`)
 * would make every skill match a common word; inline code in the prose (a tool's or a library's
 * name) stays searchable.
 */
const EXCLUDED = ['pre'];

/**
 * Indexes the skill pages (only those: listings and docs would crowd the results) of the built
 * site in `outDir` with Pagefind's Node API and returns how many pages it indexed. The API
 * returns its errors rather than throwing them, so each step's list is checked.
 *
 * Pagefind indexes in a process of its own, on one core; `meanwhile` runs on this thread once
 * Pagefind has the pages to read, for work that writes no page it takes (skills/<name>/index.html).
 */
export async function indexSkillPages(outDir: string, meanwhile: () => void = () => {}): Promise<number> {
  const pagefind = await import('pagefind');
  const fail = (step: string, errors: string[]): never => {
    throw new SiteBuildError('E_PAGEFIND', `Pagefind ${step} failed:\n  ${errors.join('\n  ')}`);
  };
  // When Pagefind's process dies (it panics, e.g. when it cannot create its output folder), the
  // API's promise never settles and Node would exit without a word once nothing else is pending.
  // The moment the event loop runs dry is that death: it becomes an error here.
  let onIdle = () => {};
  const died = new Promise<never>((_, reject) => {
    onIdle = () => reject(new SiteBuildError('E_PAGEFIND', `Pagefind stopped without answering while indexing ${outDir} (its own message is above).\n  hint: check that the output folder is writable and holds no file named pagefind`));
  });
  process.once('beforeExit', onIdle);
  const answer = <T>(call: Promise<T>): Promise<T> => Promise.race([call, died]);
  try {
    const { index, errors } = await answer(pagefind.createIndex({ excludeSelectors: EXCLUDED }));
    if (!index || errors.length) return fail('createIndex', errors);
    const adding = answer(index.addDirectory({ path: outDir, glob: 'skills/*/index.html' }));
    try {
      meanwhile();
    } catch (error) {
      await adding.catch(() => {});
      throw error;
    }
    const added = await adding;
    if (added.errors.length) fail('addDirectory', added.errors);
    const written = await answer(index.writeFiles({ outputPath: path.join(outDir, SEARCH_FOLDER) }));
    if (written.errors.length) fail('writeFiles', written.errors);
    // Only the search runtime is used; the prebuilt UIs would be dead weight in every deploy.
    for (const name of readdirSync(path.join(outDir, SEARCH_FOLDER))) {
      if (/^pagefind-(component-ui|modular-ui|ui|highlight)\./.test(name)) rmSync(path.join(outDir, SEARCH_FOLDER, name));
    }
    return added.page_count;
  } finally {
    process.removeListener('beforeExit', onIdle);
    await pagefind.close();
  }
}
