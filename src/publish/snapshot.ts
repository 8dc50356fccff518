import type { Limits } from '../core/schemas/config.ts';
import { discoverSkills, readSkillSource } from '../pipeline/discover.ts';
import type { SkillSource } from '../pipeline/model.ts';
import { DiagnosticSink } from '../pipeline/diagnostics.ts';
import { treeDigestSync } from '../pipeline/hash.ts';
import { declaredIdentity } from '../core/parse/declared-identity.ts';
import type { Position } from '../core/parse/source-text.ts';

/**
 * What identifies a published skill version: its name, its version and the tree digest of its
 * files. Computed with the build's own discovery and file reading, so the digest here is the
 * digest the build publishes (docs/registry-format.md#digests).
 */
export interface SkillSnapshot {
  /** Folder relative to the registry root: `skills/text/text-stats`. */
  dir: string;
  /** Declaring file relative to the registry root. */
  file: string;
  /** The declared name, or undefined when the declaration is unreadable. */
  name: string | undefined;
  /** The declared version; `1.0.0` when none is declared (the build's default). */
  version: string;
  /** Whether `version` was written in the declaration (vs the default). */
  versionDeclared: boolean;
  /** Where `version` is written (or where it should go), for diagnostics. */
  versionAt: Position;
  /** `sha256:<hex>` tree digest of the skill's files. */
  digest: string;
}

/** Identity of a skill across revisions: its name, or its folder when the name is unreadable. */
export function skillKey(s: Pick<SkillSnapshot, 'name' | 'dir'>): string {
  return s.name !== undefined ? `name:${s.name}` : `dir:${s.dir}`;
}

/**
 * Reads every skill folder under `root/skillsDir`. Problems (broken YAML, oversize files) are not
 * reported here — validation does that — a snapshot only records what can be read.
 */
export async function snapshotSkills(root: string, skillsDir: string, limits: Limits): Promise<SkillSnapshot[]> {
  const sink = new DiagnosticSink();
  const found = await discoverSkills(root, skillsDir, sink);
  const out: SkillSnapshot[] = [];
  for (const { dir, declaration } of found) {
    const source = readSkillSource(root, dir, declaration, limits, sink);
    out.push(snapshotOf(source, limits));
  }
  return out;
}

/** Pure: the snapshot of one skill source already read from disk. */
export function snapshotOf(source: SkillSource, limits: Pick<Limits, 'maxFrontmatterBytes' | 'maxDepth' | 'maxAliases'>): SkillSnapshot {
  const digest = treeDigestSync(source.files.map((f) => ({ path: f.path, hex: f.hex })));
  const declaration = source.files.find((f) => f.path === source.declaration);
  const { name, version, versionDeclared, versionAt } = declaredIdentity(source.declaration, declaration?.bytes ?? new Uint8Array(), limits);
  return { dir: source.dir, file: `${source.dir}/${source.declaration}`, digest, name, version, versionDeclared, versionAt };
}
