import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { RegistryConfig } from '../core/schemas/config.ts';
import type { ValidatorDiagnostic } from '../core/schemas/diagnostic.ts';
import { IndexEntry } from '../core/schemas/registry-index.ts';
import { sortDiagnostics } from '../pipeline/diagnostics.ts';
import { classifyChanges, diagnosticsForChange, mixedChangeDiagnostic, versionDiagnostics, type SkillChange } from './changes.ts';
import { changedFiles, extractTree, mergeBase } from './git.ts';
import { snapshotSkills, type SkillSnapshot } from './snapshot.ts';

/**
 * The part of a published index.json a version check needs, taken from the index schema so the
 * two cannot drift; the rest of each entry is let through unchecked, so an index a newer Skilldex
 * wrote (more fields) is still read.
 */
const PublishedIndex = z.object({
  skills: z.array(IndexEntry.pick({ name: true, version: true, digest: true }).loose()),
});
export type PublishedIndex = z.infer<typeof PublishedIndex>;

export interface PullRequestCheckOptions {
  /** Registry root (a git working tree when `changedSince` is set). */
  root: string;
  config: RegistryConfig;
  /** Every diagnostic of the working tree, from `validateRegistry`. */
  diagnostics: readonly ValidatorDiagnostic[];
  /** Git ref the branch is compared with (its merge base with HEAD). */
  changedSince?: string;
  /** A published index.json to check versions against, with where it came from. */
  againstIndex?: { source: string; index: PublishedIndex };
}

export interface PullRequestCheck {
  baseCommit?: string;
  changedFiles?: string[];
  changes: SkillChange[];
  /** Diagnostics for this change: filtered validation results plus the publish rules. */
  diagnostics: ValidatorDiagnostic[];
}

/**
 * The pull-request check behind `skilldex validate --changed-since`: which skills changed since
 * the merge base with `changedSince`, the validation diagnostics they are responsible for, and the
 * publish rules (immutable versions, mixed changes). Without `changedSince` every diagnostic is
 * kept and, given `againstIndex`, every skill is compared with the published index.
 */
export async function checkPullRequest(options: PullRequestCheckOptions): Promise<PullRequestCheck> {
  const { root, config } = options;
  const overrides = config.rules;
  const head = await snapshotSkills(root, config.skillsDir, config.limits);
  const publish: ValidatorDiagnostic[] = [];
  let changes: SkillChange[] = [];
  let kept: ValidatorDiagnostic[] = [...options.diagnostics];
  let baseCommit: string | undefined;
  let files: string[] | undefined;

  if (options.changedSince !== undefined) {
    baseCommit = await mergeBase(root, options.changedSince);
    files = await changedFiles(root, baseCommit);
    const base = await snapshotAt(root, baseCommit, config);
    changes = classifyChanges(base, head, files);
    for (const c of changes) {
      // An unreadable declaration on either side has no version to compare, only the default;
      // its syntax error is what the author must fix first.
      if (c.after?.name !== undefined && c.before && !unreadableBefore(base, c.before.dir)) publish.push(...versionDiagnostics(c.after, { ...c.before, source: options.changedSince }, overrides));
    }
    kept = diagnosticsForChange(options.diagnostics, changes, files);
    const mixed = mixedChangeDiagnostic(files, config.skillsDir, overrides);
    if (mixed) publish.push(mixed);
  }

  if (options.againstIndex) {
    const { source, index } = options.againstIndex;
    const byName = new Map(index.skills.map((s) => [s.name, s]));
    const candidates: SkillSnapshot[] = options.changedSince !== undefined ? changes.flatMap((c) => (c.after ? [c.after] : [])) : head;
    if (options.changedSince === undefined) changes = indexChanges(head, byName);
    for (const after of candidates) {
      const entry = after.name !== undefined ? byName.get(after.name) : undefined;
      if (entry) publish.push(...versionDiagnostics(after, { version: entry.version, digest: entry.digest, source }, overrides));
    }
  }

  // The base ref and the index can report the same problem; say it once.
  const seen = new Set<string>();
  const unique = publish.filter((d) => {
    const key = `${d.rule}\0${d.file}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return {
    ...(baseCommit ? { baseCommit } : {}),
    ...(files ? { changedFiles: files } : {}),
    changes,
    diagnostics: sortDiagnostics([...kept, ...unique]),
  };
}

/** Whether the base's skill in `dir` could not be read (its version is then only the default). */
const unreadableBefore = (base: readonly SkillSnapshot[], dir: string): boolean => base.some((s) => s.dir === dir && s.name === undefined);

/** Snapshots the skills folder as it was at `rev`, read with `git archive` into a temporary folder. */
async function snapshotAt(root: string, rev: string, config: RegistryConfig): Promise<SkillSnapshot[]> {
  const dir = await mkdtemp(join(tmpdir(), 'skilldex-base-'));
  try {
    const existed = await extractTree(root, rev, config.skillsDir, dir);
    return existed ? await snapshotSkills(dir, config.skillsDir, config.limits) : [];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Without a git base, the published index decides what counts as added or changed. */
function indexChanges(head: readonly SkillSnapshot[], byName: ReadonlyMap<string, { version: string; digest: string }>): SkillChange[] {
  const out: SkillChange[] = [];
  for (const after of head) {
    const entry = after.name !== undefined ? byName.get(after.name) : undefined;
    if (!entry) out.push({ status: 'added', name: after.name, dir: after.dir, after });
    else if (entry.digest !== after.digest) out.push({ status: 'changed', name: after.name, dir: after.dir, before: { dir: after.dir, version: entry.version, digest: entry.digest }, after });
  }
  return out;
}

/** Reads a published index.json from a URL or a file. */
export async function loadPublishedIndex(location: string): Promise<PublishedIndex> {
  let text: string;
  if (/^https?:\/\//i.test(location)) {
    const response = await fetch(location, { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`GET ${location} answered ${response.status} ${response.statusText}`);
    text = await response.text();
  } else {
    text = await readFile(location, 'utf8');
  }
  const parsed = PublishedIndex.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${location} is not a Skilldex index.json: ${parsed.error.issues[0]?.message ?? 'unexpected shape'}`);
  return parsed.data;
}
