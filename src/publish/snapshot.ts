import type { Limits } from '../core/schemas/config.ts';
import { discoverSkills, readSkillSource } from '../pipeline/discover.ts';
import type { SkillSource } from '../pipeline/model.ts';
import { DiagnosticSink } from '../pipeline/diagnostics.ts';
import { treeDigestSync } from '../pipeline/hash.ts';
import { parseFrontmatter } from '../core/parse/frontmatter.ts';
import { parseJsonFile } from '../core/parse/json-file.ts';
import { decodeUtf8, type Position } from '../core/parse/source-text.ts';

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

const DEFAULT_VERSION = '1.0.0';

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
  const file = `${source.dir}/${source.declaration}`;
  const base = { dir: source.dir, file, digest };
  const declaration = source.files.find((f) => f.path === source.declaration);
  const decoded = declaration ? decodeUtf8(declaration.bytes) : undefined;
  const unreadable = { ...base, name: undefined, version: DEFAULT_VERSION, versionDeclared: false, versionAt: { line: 1, column: 1 } };
  if (!decoded?.ok) return unreadable;

  if (source.declaration === 'SKILL.md') {
    const fm = parseFrontmatter(decoded.source, limits);
    if (!fm.data) return unreadable;
    const metadata = fm.data.metadata && typeof fm.data.metadata === 'object' ? (fm.data.metadata as Record<string, unknown>) : {};
    // Same precedence as the build's normaliser: `version`, then `metadata.version`.
    const [version, path] = typeof fm.data.version === 'string' ? [fm.data.version, ['version']] : typeof metadata.version === 'string' ? [metadata.version, ['metadata', 'version']] : [undefined, ['name']];
    return {
      ...base,
      name: typeof fm.data.name === 'string' ? fm.data.name : undefined,
      version: version ?? DEFAULT_VERSION,
      versionDeclared: version !== undefined,
      versionAt: fm.locate(path),
    };
  }
  const json = parseJsonFile(decoded.source, limits);
  const data = json.data && typeof json.data === 'object' && !Array.isArray(json.data) ? (json.data as Record<string, unknown>) : undefined;
  if (!data) return unreadable;
  const version = typeof data.version === 'string' ? data.version : undefined;
  return {
    ...base,
    name: typeof data.name === 'string' ? data.name : undefined,
    version: version ?? DEFAULT_VERSION,
    versionDeclared: version !== undefined,
    versionAt: json.locate(version !== undefined ? ['version'] : ['name']),
  };
}
