import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishedJsonSchemas, RUNTIME_SHAPES_FILE, runtimeShapesModule } from '../../src/core/schemas/json-schemas.ts';

const root = join(import.meta.dirname, '..', '..');

describe('generated documents', () => {
  it.each(Object.keys(publishedJsonSchemas()))('schemas/%s matches the zod definitions (run `npm run schemas` when this fails)', async (name) => {
    const committed = JSON.parse(await readFile(join(root, 'schemas', name), 'utf8')) as unknown;
    expect(committed).toEqual(publishedJsonSchemas()[name]);
  });

  it(`${RUNTIME_SHAPES_FILE}, the browser runtime's shapes, matches the zod definitions (run \`npm run schemas\` when this fails)`, async () => {
    expect(await readFile(join(root, RUNTIME_SHAPES_FILE), 'utf8')).toBe(runtimeShapesModule());
  });
});
