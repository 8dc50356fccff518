/**
 * Writes the JSON Schemas generated from the zod definitions to schemas/, and the rules table
 * into the README between its markers. `test/core/json-schemas.test.ts` fails when either is stale.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { publishedJsonSchemas } from '../src/core/schemas/json-schemas.ts';
import { rulesTableMarkdown, replaceBetweenMarkers } from '../src/build/rules/table.ts';

const root = join(import.meta.dirname, '..');
await mkdir(join(root, 'schemas'), { recursive: true });
for (const [name, schema] of Object.entries(publishedJsonSchemas())) {
  await writeFile(join(root, 'schemas', name), `${JSON.stringify(schema, null, 2)}\n`);
}
const readmePath = join(root, 'README.md');
const readme = await readFile(readmePath, 'utf8');
await writeFile(readmePath, replaceBetweenMarkers(readme, 'rules', rulesTableMarkdown()));
console.log('schemas/ and the README rules table are up to date');
