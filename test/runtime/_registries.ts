import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildRegistry } from '../../src/build/index.ts';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
export const FIXTURE_ROOT = resolve(import.meta.dirname, '../fixtures/runtime');

/** A fresh temporary folder. */
export const tempDir = (prefix: string): Promise<string> => mkdtemp(join(tmpdir(), `skilldex-test-${prefix}-`));

/** Builds a registry from a repository root (real buildRegistry) into a temp folder. */
export async function buildInto(root: string, prefix: string): Promise<string> {
  const outDir = await tempDir(prefix);
  const result = await buildRegistry({ root, outDir, sourceDateEpoch: 1_700_000_000, lenient: true });
  if (!result.index || result.index.skills.length === 0) throw new Error(`building ${root} published nothing: ${JSON.stringify(result.diagnostics.slice(0, 5))}`);
  return outDir;
}

/** The registry's own example skills (skills/), built. */
export const buildExamples = (): Promise<string> => buildInto(REPO_ROOT, 'examples');
/** The runtime test fixtures (test/fixtures/runtime/skills), built. */
export const buildFixtures = (): Promise<string> => buildInto(FIXTURE_ROOT, 'fixtures');
