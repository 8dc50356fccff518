/**
 * Shared by the rule suite and the bad-input suite: every case runs on a fresh copy of its
 * fixture in os.tmpdir() (so a test can add symlinks, FIFOs and odd bytes that git does not keep
 * well), and diagnostics are scrubbed of machine paths before they are compared or snapshotted.
 */
import { cp, lstat, mkdtemp, readdir, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Diagnostic } from '../../../src/core/schemas/diagnostic.ts';
import type { ValidationResult } from '../../../src/pipeline/index.ts';

export const REPO = join(import.meta.dirname, '..', '..', '..');
export const FIXTURES = join(REPO, 'test', 'fixtures');

/** Copies `fixture` (absolute) into a new temporary registry root and returns that root. */
export async function materialise(fixture: string, prefix = 'skilldex-rules-'): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  try {
    await cp(fixture, root, { recursive: true, verbatimSymlinks: true });
  } catch (error) {
    await removeRoot(root);
    throw error;
  }
  return root;
}

export async function removeRoot(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true });
}

/** Replaces every occurrence of the given absolute paths (and the temp dir) with placeholders. */
export function scrub<T>(value: T, ...roots: string[]): T {
  let text = JSON.stringify(value);
  for (const root of roots) text = text.split(JSON.stringify(root).slice(1, -1)).join('<root>');
  text = text.split(JSON.stringify(tmpdir()).slice(1, -1)).join('<tmp>');
  return JSON.parse(text) as T;
}

/** `severity rule file:line` — the part of a diagnostic a snapshot update must not silently change. */
export const brief = (d: Diagnostic): string => `${d.severity} ${d.rule} ${d.file}:${d.line}`;

/** What a case's snapshot file holds: accepted names, rejected folders with error rules, every diagnostic. */
export function snapshotOf(result: ValidationResult, root: string): string {
  const view = {
    accepted: result.accepted.map((s) => s.draft.name),
    rejected: result.rejected.map((r) => ({ dir: r.dir, ...(r.name ? { name: r.name } : {}), errors: r.errors.map((e) => e.rule) })),
    diagnostics: result.diagnostics,
  };
  return `${JSON.stringify(scrub(view, root), null, 2)}\n`;
}

/** Every entry under `dir` as `path kind size|target`, for before/after comparisons. */
export async function treeListing(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    for (const e of await readdir(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      const abs = join(dir, path);
      if (e.isSymbolicLink()) out.push(`${path} link ${await readlink(abs)}`);
      else if (e.isDirectory()) {
        out.push(`${path} dir`);
        await walk(path);
      } else out.push(`${path} ${e.isFile() ? 'file' : 'special'} ${(await lstat(abs)).size}`);
    }
  };
  await walk('');
  return out.sort();
}
