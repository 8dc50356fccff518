import { declaredIdentity } from '../../core/parse/declared-identity.ts';
import type { RegistryConfig } from '../../core/schemas/config.ts';
import type { BuildCache } from '../cache.ts';
import { DiagnosticSink, START } from '../diagnostics.ts';
import { sha256HexSync } from '../hash.ts';
import { readBlobs, readGitLog, readHead } from './git-reader.ts';
import { changesByFolder, versionRecords, type VersionRecord } from './version-walk.ts';

export interface SkillHistories {
  /** Each skill folder's versions, oldest first; absent for a folder git knows nothing of. */
  records: Map<string, VersionRecord[]>;
  /** Why history is missing or partial (a shallow clone, an unreadable repository). */
  diagnostics: DiagnosticSink['diagnostics'];
}

/**
 * The version history of the given skill folders, from the git checkout `root` is in. One
 * `git log` over the skills folder, one `git cat-file` batch for the declarations it has not
 * seen before; the result is cached by HEAD, so a rebuild without a new commit reads nothing but
 * HEAD. A folder that is not a checkout has no history, silently; a shallow clone or a repository
 * git cannot read gets one warning (`versions/history-incomplete`) and only current versions.
 */
export async function readSkillHistories(root: string, config: RegistryConfig, dirs: readonly string[], cache?: BuildCache): Promise<SkillHistories> {
  const incomplete = (why: string, hint: string): SkillHistories => {
    const sink = new DiagnosticSink(config.rules);
    sink.report('versions/history-incomplete', config.skillsDir, START, `${why}: only the current version of each skill is published, and earlier versions' files and archives are left out`, { hint: `${hint}; see docs/hosting.md` });
    return { records: new Map(), diagnostics: sink.diagnostics };
  };
  const unreadable = (reason: string) => incomplete(`git cannot read the registry's history (${reason})`, 'build from a readable, complete git checkout of the registry');
  const head = await readHead(root);
  if (head.status === 'none') return { records: new Map(), diagnostics: [] };
  if (head.status === 'shallow') return incomplete('the checkout is a shallow clone', 'fetch the whole history (`git fetch --unshallow`; in GitHub Actions, actions/checkout with `fetch-depth: 0`)');
  if (head.status === 'unreadable') return unreadable(head.reason);
  const sorted = [...dirs].sort();
  const key = sha256HexSync(JSON.stringify([head.head, config.skillsDir, sorted]));
  const cached = cache?.history(key);
  if (cached) return { records: new Map(Object.entries(cached)), diagnostics: [] };

  const log = await readGitLog(root, config.skillsDir, head.head);
  if ('unreadable' in log) return unreadable(log.unreadable);
  const { byFolder, declarations } = changesByFolder(log.commits, config.skillsDir, new Set(sorted));
  // Each declaration blob is parsed once, ever: the cache keeps what it declares by blob id.
  const versions = new Map<string, string | null>();
  const unknown: typeof declarations = [];
  for (const d of declarations) {
    const known = cache?.declarationVersion(d.oid);
    if (known !== undefined) versions.set(d.oid, known);
    else if (!versions.has(d.oid)) unknown.push(d);
  }
  if (unknown.length > 0) {
    const blobs = await readBlobs(root, unknown.map((d) => d.oid), config.limits.maxFileBytes);
    for (const d of unknown) {
      const bytes = blobs.get(d.oid)?.bytes;
      const identity = bytes ? declaredIdentity(d.declaration, bytes, config.limits) : undefined;
      versions.set(d.oid, identity?.readable ? identity.version : null);
    }
  }
  const records = new Map<string, VersionRecord[]>();
  for (const [dir, events] of byFolder) {
    const list = versionRecords(events, (_declaration, oid) => versions.get(oid) ?? undefined);
    if (list.length > 0) records.set(dir, list);
  }
  cache?.recordHistory(key, Object.fromEntries(records), Object.fromEntries(versions));
  return { records, diagnostics: [] };
}
