/**
 * Writes everything generated from the code: the JSON Schemas from the zod definitions to
 * schemas/ (and the browser runtime's copy of the index and manifest shapes), ajv's meta-schema validators compiled ahead of time, the rules reference (docs/rules.md), the rule sections of docs/security.md, CONTRIBUTING.md's rule table and the command reference (docs/cli.md). `test/core/json-schemas.test.ts`, `test/core/schema-problems.test.ts`,
 * `test/publish/rules-doc.test.ts`, `test/scanner/docs.test.ts` and `test/cli/reference-doc.test.ts` fail when any is stale.
 */
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { publishedJsonSchemas, RUNTIME_SHAPES_FILE, runtimeShapesModule } from '../src/core/schemas/json-schemas.ts';
import { CONTRIBUTING_FILE, RULES_FILE, SECURITY_FILE, renderContributing, renderRulesDoc, renderSecurityDoc } from '../src/publish/rules-doc.ts';
import { CLI_DOC_FILE, renderCliDoc } from '../src/cli/reference-doc.ts';
import { META_SCHEMA_VALIDATORS_FILE, metaSchemaValidatorsModule } from './generate/meta-schema-validators.ts';

const root = join(import.meta.dirname, '..');
await mkdir(join(root, 'schemas'), { recursive: true });
for (const [name, schema] of Object.entries(publishedJsonSchemas())) {
  await writeFile(join(root, 'schemas', name), `${JSON.stringify(schema, null, 2)}\n`);
}
await writeFile(join(root, RUNTIME_SHAPES_FILE), runtimeShapesModule());
await writeFile(RULES_FILE, await renderRulesDoc());
await writeFile(SECURITY_FILE, await renderSecurityDoc());
await writeFile(CONTRIBUTING_FILE, await renderContributing());
await writeFile(CLI_DOC_FILE, await renderCliDoc());
await writeFile(join(root, META_SCHEMA_VALIDATORS_FILE), metaSchemaValidatorsModule());
console.log('schemas/, src/runtime/published-shapes.ts, src/core/meta-schema-validators.ts, docs/rules.md, docs/security.md, CONTRIBUTING.md\'s rule table and docs/cli.md are up to date');
