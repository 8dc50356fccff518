import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { searchWords, type SkillWords } from '../catalog/search-words.ts';

/** Where the built site keeps the search box's word list, relative to its root. */
export const SEARCH_WORDS_FILE = 'search-words.json';

/**
 * Writes `search-words.json` (the words of the skills' names, titles, tags and categories, for
 * the search box's "did you mean") into the built site, from the registry's index.json. Returns
 * how many words it holds.
 */
export function writeSearchWords(registryDir: string, outDir: string): number {
  const index = JSON.parse(readFileSync(path.join(registryDir, 'index.json'), 'utf8')) as { skills: SkillWords[] };
  const words = searchWords(index.skills);
  writeFileSync(path.join(outDir, SEARCH_WORDS_FILE), JSON.stringify(words));
  return Object.keys(words.words).length;
}
