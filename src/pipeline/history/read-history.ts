import { createHash } from 'node:crypto';
import type { RegistryConfig } from '../../core/schemas/config.ts';
import type { BuildCache } from '../cache.ts';
import { DiagnosticSink, START } from '../diagnostics.ts';
import { versionsHistoryIncomplete } from '../rules/versions.ts';
import { sha256HexSync } from '../hash.ts';
import { readBlobs, readGitLog, readHead } from './git-reader.ts';
import { HistoryUnreadableError } from './history-error.ts';
import { versionKey } from '../../core/changelog.ts';
import { changesByFolder, decodeWalk, encodeWalk, versionRecords, type VersionRecord } from './version-walk.ts';

/** A current skill's folder, version and declaration bytes (read only when history must be walked again). */
export interface CurrentDeclaration {
  dir: string;
  version: string;
  bytes: () => Uint8Array;
}

/** The id git gives a blob with these bytes: sha1 (or, in a sha256 repository, sha256) of `blob <size>\0` and the bytes. */
export function gitBlobId(bytes: Uint8Array, length = 40): string {
  const hash = createHash(length === 64 ? 'sha256' : 'sha1');
  hash.update(`blob ${bytes.length}\0`);
  hash.update(bytes);
  return hash.digest('hex');
}

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
export async function readSkillHistories(root: string, config: RegistryConfig, skills: readonly CurrentDeclaration[], cache?: BuildCache): Promise<SkillHistories> {
  const dirs = skills.map((s) => s.dir);
  const incomplete = (why: string, hint: string): SkillHistories => {
    const sink = new DiagnosticSink(config.rules);
    sink.report(versionsHistoryIncomplete, config.skillsDir, START, `${why}: only the current version of each skill is published, and earlier versions' files and archives are left out`, { hint: `${hint}; see docs/hosting.md` });
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
  if (cached) {
    const records = decodeWalk(cached);
    // A folder's latest version comes without files; it needs them only if the working tree now declares another.
    const bumped = skills.some((s) => {
      const latest = records.get(s.dir)?.at(-1);
      return latest !== undefined && versionKey(latest.version) !== versionKey(s.version);
    });
    if (!bumped) return { records, diagnostics: [] };
  }

  const log = await readGitLog(root, config.skillsDir, head.head);
  if ('unreadable' in log) return unreadable(log.unreadable);
  const { byFolder, declarations } = changesByFolder(log.commits, config.skillsDir, new Set(sorted));
  // Each declaration blob is parsed once, ever: the cache keeps what it declares by blob id.
  const versions = new Map<string, string | null>();
  // Most declarations in history are the one in the working tree (a skill that never changed its
  // version): its git id is computed from bytes already read, and its version is the current one.
  // Reading and parsing 10,000 of them from git took 5 s; hashing them takes a fraction of that.
  if (declarations.some((d) => cache?.declarationVersion(d.oid) === undefined)) {
    const oidLength = declarations[0]?.oid.length ?? 40;
    for (const skill of skills) versions.set(gitBlobId(skill.bytes(), oidLength), skill.version);
  }
  const unknown = new Map<string, (typeof declarations)[number]>();
  for (const d of declarations) {
    if (versions.has(d.oid)) continue;
    const known = cache?.declarationVersion(d.oid);
    if (known !== undefined) versions.set(d.oid, known);
    else unknown.set(d.oid, d);
  }
  if (unknown.size > 0) {
    // The declaration parser (and the YAML library) loads only here: a rebuild at a known HEAD never needs it.
    let read;
    try {
      read = await Promise.all([import('../../core/parse/declared-identity.ts'), readBlobs(root, [...unknown.keys()], config.limits.maxFileBytes)]);
    } catch (error) {
      if (error instanceof HistoryUnreadableError) return unreadable(error.reason);
      throw error;
    }
    const [{ declaredIdentity }, blobs] = read;
    // A blob git does not have (a partial clone, objects lost) is not a declaration without a
    // version: reading it as one dropped that version without a word, and the cache kept it so.
    const absent = [...unknown.keys()].filter((oid) => !blobs.has(oid)).length;
    if (absent > 0) return unreadable(`${absent} earlier ${absent === 1 ? 'declaration is' : 'declarations are'} not in the clone, as in a partial clone`);
    for (const d of unknown.values()) {
      const bytes = blobs.get(d.oid)?.bytes;
      const identity = bytes ? declaredIdentity(d.declaration, bytes, config.limits) : undefined;
      versions.set(d.oid, identity?.readable ? identity.version : null);
    }
  }
  const used = new Map(declarations.map((d) => [d.oid, versions.get(d.oid) ?? null]));
  const records = new Map<string, VersionRecord[]>();
  for (const [dir, events] of byFolder) {
    const list = versionRecords(events, (_declaration, oid) => versions.get(oid) ?? undefined);
    if (list.length > 0) records.set(dir, list);
  }
  cache?.recordHistory(key, encodeWalk(records), Object.fromEntries(used));
  return { records, diagnostics: [] };
}
