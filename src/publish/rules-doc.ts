import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { anchor } from '../build/format.ts';
import { RULES } from '../build/rules/catalog.ts';
import { replaceBetweenMarkers } from '../build/rules/table.ts';
import { PUBLISH_RULES } from './rules.ts';

/**
 * The rules table of CONTRIBUTING.md, generated from the build's catalog and the publish rules so
 * the documentation cannot drift from the code. Each row carries an anchor named after the rule
 * id (`name/folder-mismatch` → `#name-folder-mismatch`): the validator's hints link there.
 *
 * Regenerate with `node src/publish/rules-doc.ts`; a test fails while the file is stale.
 */
export function contributingRulesTable(): string {
  const row = (r: { id: string; severity: string; description: string }) =>
    `| <a id="${anchor(r.id)}"></a>\`${r.id}\` | ${r.severity} | ${r.description.replace(/\|/g, '\\|')} |`;
  return ['| rule | default | what it checks |', '| --- | --- | --- |', ...RULES.map(row), ...PUBLISH_RULES.map(row)].join('\n');
}

export const CONTRIBUTING_FILE = join(import.meta.dirname, '..', '..', 'CONTRIBUTING.md');

/** CONTRIBUTING.md with its rules table brought up to date. */
export async function renderContributing(file = CONTRIBUTING_FILE): Promise<string> {
  return replaceBetweenMarkers(await readFile(file, 'utf8'), 'rules', contributingRulesTable());
}

if (import.meta.main) {
  await writeFile(CONTRIBUTING_FILE, await renderContributing());
  console.log(`updated the rules table in ${CONTRIBUTING_FILE}`);
}
