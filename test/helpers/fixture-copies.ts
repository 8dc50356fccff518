import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/**
 * Returns a function that copies `fixture` into a fresh temp folder (named after `prefix`), for
 * tests that rewrite a registry in place; every copy is removed after its test.
 */
export function fixtureCopier(fixture: string, prefix: string): () => Promise<string> {
  const temps: string[] = [];
  afterEach(async () => {
    for (const t of temps.splice(0)) await rm(t, { recursive: true, force: true });
  });
  return async () => {
    const root = await mkdtemp(join(tmpdir(), prefix));
    temps.push(root);
    await cp(fixture, root, { recursive: true });
    return root;
  };
}
