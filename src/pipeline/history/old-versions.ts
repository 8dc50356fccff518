import { versionKey } from '../../core/changelog.ts';
import { pathProblem } from '../../core/paths.ts';
import type { RegistryConfig } from '../../core/schemas/config.ts';
import type { ValidatorDiagnostic } from '../../core/schemas/diagnostic.ts';
import type { SkillManifest } from '../../core/schemas/manifest.ts';
import type { ScanResult } from '../../core/schemas/scan.ts';
import { SEMVER_PATTERN } from '../../core/schemas/versions.ts';
import type { BuildCache, OldVersionVerdict } from '../cache.ts';
import { DiagnosticSink, START } from '../diagnostics.ts';
import { isUnpublishedEntry } from '../discover.ts';
import { sha256HexSync } from '../hash.ts';
import type { DraftManifest, SkillSource, SkillSourceFile } from '../model.ts';
import type { ValidatedSkill } from '../phases/decide.ts';
import { filesPath, filesSkillTooLarge, filesSymlink, filesTooLarge, filesTooMany } from '../rules/files.ts';
import { versionsVersionRejected } from '../rules/versions.ts';
import { readBlobs, type BlobRead } from './git-reader.ts';
import type { VersionRecord } from './version-walk.ts';

/**
 * Earlier versions pass the same gate as a current skill before they are published: their files
 * (as of the version's last commit) are checked with the same file rules, parsed by the same
 * per-skill rules and scanned by the same scanner under the same verdict threshold. A version that
 * fails is left out with a `versions/version-rejected` warning naming its commit. Verdicts are
 * cached by the version's git objects, so each is checked once per configuration.
 */

/** An earlier version that passed, ready to publish. */
export interface OldVersion {
  record: VersionRecord;
  draft: DraftManifest;
  scan: ScanResult;
  /** The warnings its check reported (its manifest shows them). */
  diagnostics: ValidatorDiagnostic[];
}

/** A current skill whose history is checked. */
export interface CurrentSkill {
  dir: string;
  name: string;
  version: string;
}

const short = (commit: string) => commit.slice(0, 12);
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** Directory-first order as the build reads a folder: entries sorted by name, depth first. */
function bySegments(a: { path: string }, b: { path: string }): number {
  const x = a.path.split('/');
  const y = b.path.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const s = x[i] as string;
    const t = y[i] as string;
    if (s !== t) return s < t ? -1 : 1;
  }
  return x.length - y.length;
}

/**
 * The files a build of a checkout at the version's last commit would have read, with the same
 * file rules (reported into `sink`): dot-entries and ignored folders skipped, links refused,
 * submodules absent, unsafe paths and the size and count limits reported. `missing` lists the
 * files whose blobs git does not have (a partial clone): such a version cannot be published.
 */
export function snapshotSource(dir: string, record: VersionRecord, blobs: ReadonlyMap<string, BlobRead>, limits: RegistryConfig['limits'], sink: DiagnosticSink): { source: SkillSource; missing: string[] } {
  const files: SkillSourceFile[] = [];
  const missing: string[] = [];
  let count = 0;
  let total = 0;
  for (const entry of [...record.files].sort(bySegments)) {
    if (entry.mode === '160000' || entry.path.split('/').some(isUnpublishedEntry)) continue;
    const file = `${dir}/${entry.path}`;
    if (entry.mode === '120000') {
      sink.report(filesSymlink, file, START, `'${entry.path}' is a symbolic link; links are never followed or published`, { hint: 'replace the link with the file itself' });
      continue;
    }
    const problem = pathProblem(entry.path);
    if (problem) {
      sink.report(filesPath, file, START, `file path '${entry.path}' ${problem}`, { hint: 'rename the file using letters, digits, `-`, `_` and `.` only' });
      continue;
    }
    if (++count === limits.maxFiles + 1) sink.report(filesTooMany, `${dir}/${record.declaration}`, START, `the skill has more than ${limits.maxFiles} files`, { hint: 'move bulky material out of the skill or raise limits.maxFiles' });
    if (count > limits.maxFiles) continue;
    const blob = blobs.get(entry.oid);
    if (blob && blob.size > limits.maxFileBytes) {
      sink.report(filesTooLarge, file, START, `'${entry.path}' is ${blob.size} bytes; the limit is ${limits.maxFileBytes}`, { hint: 'shrink the file or publish it elsewhere and link to it' });
      continue;
    }
    if (!blob?.bytes) {
      // A partial clone without the blob, or a damaged repository: the version cannot be rebuilt.
      missing.push(entry.path);
      continue;
    }
    total += blob.size;
    files.push({ path: entry.path, bytes: blob.bytes, size: blob.size, hex: sha256HexSync(blob.bytes) });
  }
  if (total > limits.maxSkillBytes) sink.report(filesSkillTooLarge, `${dir}/${record.declaration}`, START, `the skill's files total ${total} bytes; the limit is ${limits.maxSkillBytes}`, { hint: 'move large assets out of the skill' });
  return { source: { dir, absDir: dir, folderName: dir.slice(dir.lastIndexOf('/') + 1), declaration: record.declaration, files }, missing };
}

/** The cache key of one version's check: its git objects, folder and the skill's name. */
const verdictKey = (skill: CurrentSkill, record: VersionRecord): string =>
  sha256HexSync(JSON.stringify([skill.dir, skill.name, record.declaration, [...record.files].sort(bySegments).map((f) => [f.path, f.mode, f.oid])]));

/**
 * Checks every earlier version of the given skills (every record whose version differs from the
 * current one) and returns those that pass, by skill folder, oldest first, with a warning for
 * each one left out.
 */
export async function checkOldVersions(root: string, config: RegistryConfig, skills: readonly CurrentSkill[], records: ReadonlyMap<string, VersionRecord[]>, options: { cache?: BuildCache; scan?: boolean } = {}): Promise<{ byDir: Map<string, OldVersion[]>; diagnostics: ValidatorDiagnostic[] }> {
  const sink = new DiagnosticSink(config.rules);
  const reject = (skill: CurrentSkill, record: VersionRecord, why: string) =>
    sink.report(versionsVersionRejected, `${skill.dir}/${record.declaration}`, START, `version ${record.version} of '${skill.name}' (last published from commit ${short(record.lastCommit)}, ${day(record.lastTime)}) is left out: ${why}`, {
      hint: 'an earlier version is published only as it was at its last commit, so a fix goes out under a new version number; set the rule to "off" to stop this report (docs/registry-format.md#versions)',
      skill: skill.name,
    });

  // Only semantic versions are published: no range could select any other.
  const semver = (record: VersionRecord) => record.version.length <= 256 && SEMVER_PATTERN.test(record.version);
  const pending: { skill: CurrentSkill; record: VersionRecord; key: string; verdict?: OldVersionVerdict }[] = [];
  for (const skill of skills) {
    for (const record of records.get(skill.dir) ?? []) {
      if (versionKey(record.version) === versionKey(skill.version)) continue;
      const key = verdictKey(skill, record);
      pending.push({ skill, record, key, ...(semver(record) ? { verdict: options.cache?.oldVersion(key) } : {}) });
    }
  }
  const unchecked = pending.filter((p) => !p.verdict && semver(p.record));
  if (unchecked.length > 0) await checkUncached(root, config, unchecked, options.scan !== false);
  const fresh = new Set(unchecked.map((u) => u.key));

  const byDir = new Map<string, OldVersion[]>();
  for (const { skill, record, key, verdict } of pending) {
    if (!semver(record)) {
      reject(skill, record, `'${record.version}' is not a semantic version, so no version range can select it`);
      continue;
    }
    const checked = verdict as OldVersionVerdict;
    // Not kept when files were missing: fetching them must be enough to publish the version.
    if (fresh.has(key) && !checked.missing) options.cache?.recordOldVersion(key, checked);
    const error = checked.diagnostics.find((d) => d.severity === 'error');
    if (checked.missing) reject(skill, record, `git does not have its file ${checked.missing.map((m) => `'${m}'`).join(', ')} (a partial clone?); build from a complete clone`);
    else if (error) reject(skill, record, `${error.rule}: ${error.message}`);
    else if (!checked.draft || !checked.scan) reject(skill, record, `its ${record.declaration} cannot be read`);
    else if (checked.draft.name !== skill.name) reject(skill, record, `it was published as '${checked.draft.name}', not '${skill.name}'`);
    else byDir.set(skill.dir, [...(byDir.get(skill.dir) ?? []), { record, draft: checked.draft, scan: checked.scan, diagnostics: checked.diagnostics }]);
  }
  return { byDir, diagnostics: sink.diagnostics };
}

/** Reads, parses and scans the versions no earlier build checked; fills in each one's verdict. */
async function checkUncached(root: string, config: RegistryConfig, unchecked: { skill: CurrentSkill; record: VersionRecord; verdict?: OldVersionVerdict }[], scanning: boolean): Promise<void> {
  // Loaded here: a rebuild whose every version is cached never loads the parser or the scanner.
  const { parseSkill } = await import('../phases/parse.ts');
  const blobs = await readBlobs(root, unchecked.flatMap((u) => u.record.files.map((f) => f.oid)), config.limits.maxFileBytes);
  const members: (ValidatedSkill & { sink: DiagnosticSink })[] = [];
  const memberOf = new Map<(typeof unchecked)[number], (typeof members)[number]>();
  for (const item of unchecked) {
    const sink = new DiagnosticSink(config.rules);
    const { source, missing } = snapshotSource(item.skill.dir, item.record, blobs, config.limits, sink);
    if (missing.length > 0) {
      item.verdict = { diagnostics: [], missing };
      continue;
    }
    const parsed = parseSkill(source, config, sink);
    item.verdict = { diagnostics: sink.diagnostics, ...(parsed.draft ? { draft: parsed.draft } : {}) };
    if (!parsed.draft) continue;
    const member = { draft: parsed.draft, file: `${source.dir}/${source.declaration}`, locate: parsed.locate, source, scan: { verdict: 'pass' as const, rulesVersion: '', findings: [] }, sink };
    members.push(member);
    memberOf.set(item, member);
  }
  if (scanning && members.length > 0) await scanMembers(config, members);
  for (const [item, member] of memberOf) item.verdict = { draft: member.draft, scan: member.scan, diagnostics: member.sink.diagnostics };
}

/** Scans parsed versions and applies the registry's scan gate to each (its allowlist, then `scan.blockOn`). */
async function scanMembers(config: RegistryConfig, members: readonly (ValidatedSkill & { sink: DiagnosticSink })[]): Promise<void> {
  const [{ scanAll }, { gateScans }] = await Promise.all([import('../phases/scan.ts'), import('../phases/decide.ts')]);
  const results = await scanAll(
    members.map((m) => ({ name: m.draft.name, digest: m.draft.digest, source: m.source })),
    config,
    undefined,
  );
  for (const [i, member] of members.entries()) gateScans([member], [results[i] as ScanResult], config, member.sink);
}

/**
 * The files of earlier versions, read from git in one batch, each checked against the digest
 * its manifest lists: what the emitter writes under the versions' content-addressed URLs.
 */
export async function readOldFiles(root: string, older: readonly { manifest: SkillManifest; record: VersionRecord }[], maxFileBytes: number): Promise<Map<SkillManifest, SkillSourceFile[]>> {
  const oidOf = (record: VersionRecord, path: string) => record.files.find((f) => f.path === path)?.oid ?? '';
  const blobs = await readBlobs(root, older.flatMap(({ manifest, record }) => manifest.files.map((f) => oidOf(record, f.path))), maxFileBytes);
  const out = new Map<SkillManifest, SkillSourceFile[]>();
  for (const { manifest, record } of older) {
    out.set(
      manifest,
      manifest.files.map((f) => {
        const bytes = blobs.get(oidOf(record, f.path))?.bytes;
        const hex = bytes ? sha256HexSync(bytes) : '';
        if (!bytes || `sha256:${hex}` !== f.digest) throw new Error(`${manifest.sourcePath}/${f.path} of version ${manifest.version} cannot be read back from git as it was checked; run the build again`);
        return { path: f.path, bytes, size: bytes.length, hex };
      }),
    );
  }
  return out;
}
