import semver from 'semver';
import type { RegistryConfig } from '../core/schemas/config.ts';
import type { ValidatorDiagnostic } from '../core/schemas/diagnostic.ts';
import { resolveDiagnostic } from '../pipeline/diagnostics.ts';
import { publishMixedChange, publishVersionLowered, publishVersionNotBumped } from '../pipeline/rules/publish.ts';
import { skillKey, type SkillSnapshot } from './snapshot.ts';

/**
 * Pure pull-request logic: which skills a set of changed files touches, how each changed
 * (added / changed / moved / removed), the version-immutability verdicts, the mixed-change
 * warning, and which validation diagnostics belong to the change.
 */

export type ChangeStatus = 'added' | 'changed' | 'moved' | 'removed';

export interface SkillChange {
  status: ChangeStatus;
  /** Name when readable (head's, else base's). */
  name: string | undefined;
  /** Folder in the working tree, or in the base for a removed skill. */
  dir: string;
  before?: Pick<SkillSnapshot, 'dir' | 'version' | 'digest'>;
  after?: SkillSnapshot;
}

const under = (file: string, dir: string) => file.startsWith(`${dir}/`);

/**
 * Classifies the skills touched by `changedFiles` (paths relative to the registry root). A skill
 * is matched across revisions by name, so moving a folder into a category is a move, not a
 * removal plus an addition. Touched skills whose files end up identical are left out.
 *
 * @example
 * classifyChanges(baseSnapshots, headSnapshots, ['skills/a/SKILL.md']) // [{ status: 'changed', name: 'a', … }]
 */
export function classifyChanges(base: readonly SkillSnapshot[], head: readonly SkillSnapshot[], changedFiles: readonly string[]): SkillChange[] {
  const touched = (s: SkillSnapshot) => changedFiles.some((f) => under(f, s.dir));
  const baseByKey = new Map<string, SkillSnapshot>();
  for (const s of base) if (!baseByKey.has(skillKey(s))) baseByKey.set(skillKey(s), s);
  const headKeys = new Set(head.map(skillKey));
  // A declaration broken (or mended) in place has a name on one side only, so its keys differ.
  // Paired by folder, such an edit reads as a change to that skill rather than as its removal
  // plus an unnamed addition, which would tell a reviewer the skill was deleted.
  const inPlace = new Map<SkillSnapshot, SkillSnapshot>();
  for (const after of head) {
    if (baseByKey.has(skillKey(after))) continue;
    const before = base.find((b) => b.dir === after.dir && (b.name === undefined) !== (after.name === undefined) && !headKeys.has(skillKey(b)));
    if (before) inPlace.set(after, before);
  }
  const paired = new Set(inPlace.values());
  const changes: SkillChange[] = [];
  for (const after of head) {
    if (!touched(after)) continue;
    const before = baseByKey.get(skillKey(after)) ?? inPlace.get(after);
    const name = after.name ?? before?.name;
    if (!before) changes.push({ status: 'added', name, dir: after.dir, after });
    else if (before.digest !== after.digest) changes.push({ status: 'changed', name, dir: after.dir, before: pick(before), after });
    else if (before.dir !== after.dir) changes.push({ status: 'moved', name, dir: after.dir, before: pick(before), after });
  }
  for (const before of base) {
    if (touched(before) && !headKeys.has(skillKey(before)) && !paired.has(before)) changes.push({ status: 'removed', name: before.name, dir: before.dir, before: pick(before) });
  }
  return changes.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}

const pick = (s: SkillSnapshot) => ({ dir: s.dir, version: s.version, digest: s.digest });

/** A published version of a skill to compare with: from the base revision or from index.json. */
export interface PublishedVersion {
  version: string;
  digest: string;
  /** Where it was published, for messages: `origin/main`, `https://…/index.json`. */
  source: string;
}

/**
 * Version immutability for one skill: content changed but `version` did not →
 * `publish/version-not-bumped`; `version` went down → `publish/version-lowered`.
 */
export function versionDiagnostics(after: SkillSnapshot, published: PublishedVersion, overrides: RegistryConfig['rules'] = {}): ValidatorDiagnostic[] {
  const name = after.name ?? after.dir;
  const field = after.file.endsWith('skill.json') ? (v: string) => `"version": "${v}"` : (v: string) => `version: ${v}`;
  const out: (ValidatorDiagnostic | undefined)[] = [];
  const bothSemver = semver.valid(after.version) !== null && semver.valid(published.version) !== null;
  if (bothSemver && semver.lt(after.version, published.version)) {
    out.push(resolveDiagnostic(publishVersionLowered, overrides, after.file, after.versionAt,
      `version ${after.version} of '${name}' is lower than ${published.version}, published in ${published.source}`,
      { hint: `set ${field(semver.inc(published.version, 'patch') ?? published.version)} or higher; versions only move forward`, skill: name }));
  } else if (after.digest !== published.digest && (bothSemver ? semver.eq(after.version, published.version) : after.version === published.version)) {
    const next = semver.valid(after.version) ? semver.inc(after.version, 'patch') : undefined;
    const how = after.versionDeclared ? `raise it` : `declare a version (the default is ${after.version})`;
    out.push(resolveDiagnostic(publishVersionNotBumped, overrides, after.file, after.versionAt,
      `'${name}' ${after.version} is already published in ${published.source} with different content (${short(published.digest)} → ${short(after.digest)}); ${how}`,
      { hint: `${next ? `set ${field(next)} (patch), or a minor/major bump` : 'bump the version'}; a published version never changes content`, skill: name }));
  }
  return out.filter((d): d is ValidatorDiagnostic => d !== undefined);
}

/** `sha256:0123456789abcdef…` — enough to tell digests apart in a message. */
export function short(digest: string): string {
  return `${digest.slice(0, 'sha256:'.length + 12)}…`;
}

/**
 * Paths whose change alters what the registry runs or publishes: build code, workflows, the
 * toolchain. A pull request touching these and skills together needs a maintainer, because the
 * PR check itself runs the PR's build code.
 */
const BUILD_PATH_PREFIXES = ['src/', 'scripts/', 'bin/', '.github/', '.ci/', 'public/', 'schemas/', 'test/'] as const;
const BUILD_FILES = [
  'package.json', 'package-lock.json', 'npm-shrinkwrap.json', '.npmrc', '.nvmrc', 'astro.config.mjs', 'tsconfig.json', 'vitest.config.ts', 'skilldex.config.json',
] as const;

function isBuildPath(file: string): boolean {
  return BUILD_PATH_PREFIXES.some((p) => file.startsWith(p)) || (BUILD_FILES as readonly string[]).includes(file);
}

/** `publish/mixed-change` when skills and build code change together; reported on the first build file. */
export function mixedChangeDiagnostic(changedFiles: readonly string[], skillsDir: string, overrides: RegistryConfig['rules'] = {}): ValidatorDiagnostic | undefined {
  const skills = changedFiles.filter((f) => under(f, skillsDir));
  const build = changedFiles.filter(isBuildPath);
  const first = build[0];
  if (skills.length === 0 || first === undefined) return undefined;
  const listed = build.slice(0, 5).join(', ') + (build.length > 5 ? `, and ${build.length - 5} more` : '');
  return resolveDiagnostic(publishMixedChange, overrides, first, { line: 1, column: 1 },
    `this change edits build code or workflows (${listed}) together with ${skills.length} skill file${skills.length === 1 ? '' : 's'}`,
    { hint: 'a maintainer must review it; split skill changes and build changes into separate pull requests where you can' });
}

/**
 * Keeps the diagnostics a change is responsible for: those in a touched skill's folder or in a
 * changed file, those that name a place in one as involved (`related`: the caller a changed skill
 * breaks, a link into it), and registry-wide ones (duplicate names, unknown `calls`, cycles)
 * that involve a changed skill by name or folder — those may sit in an untouched skill's file,
 * e.g. the caller of a skill this change removed.
 */
export function diagnosticsForChange(diagnostics: readonly ValidatorDiagnostic[], changes: readonly SkillChange[], changedFiles: readonly string[]): ValidatorDiagnostic[] {
  const dirs = changes.flatMap((c) => [c.dir, ...(c.before ? [c.before.dir] : [])]);
  const names = new Set(changes.map((c) => c.name).filter((n): n is string => n !== undefined));
  const files = new Set(changedFiles);
  return diagnostics.filter((d) => {
    const touched = (file: string) => files.has(file) || dirs.some((dir) => under(file, dir));
    if (touched(d.file) || d.related?.some((r) => touched(r.file))) return true;
    if (!d.rule.startsWith('registry/')) return false;
    if ((d.skill !== undefined && names.has(d.skill)) || dirs.some((dir) => d.message.includes(`${dir}/`))) return true;
    return d.message.split(/[\s'"`→:,()]+/).some((token) => names.has(token));
  });
}
