import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll } from 'vitest';
import { buildRegistry } from '../../src/pipeline/index.ts';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
export const FIXTURE_ROOT = resolve(import.meta.dirname, '../fixtures/runtime');

const created: string[] = [];
// Registered when a test file imports this module, so it runs after that file's own hooks (vitest
// runs after-hooks in reverse): every folder a file made is gone once its servers are closed.
afterAll(async () => {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 3 })));
});

/** A fresh temporary folder, removed when the test file that made it is done. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `skilldex-test-${prefix}-`));
  created.push(dir);
  return dir;
}

/** Builds a registry from a repository root (real buildRegistry) into a temp folder. */
export async function buildInto(root: string, prefix: string): Promise<string> {
  const outDir = await tempDir(prefix);
  const result = await buildRegistry({ root, outDir, sourceDateEpoch: 1_700_000_000, lenient: true, cache: false });
  if (!result.index || result.index.skills.length === 0) throw new Error(`building ${root} published nothing: ${JSON.stringify(result.diagnostics.slice(0, 5))}`);
  return outDir;
}

/** The registry's own example skills (skills/), built. */
export const buildExamples = (): Promise<string> => buildInto(REPO_ROOT, 'examples');
/** The runtime test fixtures (test/fixtures/runtime/skills), built. */
export const buildFixtures = (): Promise<string> => buildInto(FIXTURE_ROOT, 'fixtures');

/**
 * Rewrites a skill's manifest in a built registry the way a consistent (hostile) host would:
 * the manifest changes and index.json pins the new bytes, so only the checks under test stand
 * between the forged manifest and the client.
 */
export async function rewriteManifest(registryDir: string, name: string, change: (manifest: Record<string, any>) => void): Promise<void> {
  const { readFile, writeFile } = await import('node:fs/promises');
  const { createHash } = await import('node:crypto');
  const path = join(registryDir, 'skills', `${name}.json`);
  const manifest = JSON.parse(await readFile(path, 'utf8'));
  change(manifest);
  const text = JSON.stringify(manifest);
  await writeFile(path, text);
  const indexPath = join(registryDir, 'index.json');
  const index = JSON.parse(await readFile(indexPath, 'utf8'));
  for (const entry of index.skills) if (entry.name === name) entry.manifestDigest = `sha256:${createHash('sha256').update(text).digest('hex')}`;
  await writeFile(indexPath, JSON.stringify(index));
}
