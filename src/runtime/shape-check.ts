import { checkJsonShape } from '../core/json-shape.ts';
import { pathProblem, repeatedPath } from '../core/paths.ts';
import { isNameTemplate, NAME_PLACEHOLDER } from '../core/url-template.ts';
import type { SkillManifest } from '../core/schemas/manifest.ts';
import type { RegistryIndex } from '../core/schemas/registry-index.ts';
import type { SkillVersions } from '../core/schemas/versions.ts';
import { INDEX_SHAPE, MANIFEST_SHAPE, VERSIONS_SHAPE } from './published-shapes.ts';

/**
 * How the runtime checks the JSON a registry serves before trusting it. The zod schemas in
 * core/schemas are the single definition of these shapes, and the Node runtime validates with
 * them (`zodShapeCheck`). zod adds ~95 kB gzipped to a browser bundle, though, so the
 * browser-safe runtime defaults to {@link structuralShapeCheck}: the same shapes, as the JSON
 * Schemas `npm run schemas` generates from the zod definitions (published-shapes.ts), checked by
 * a small validator.
 */
export interface ShapeCheck {
  index(raw: unknown): ShapeResult<RegistryIndex>;
  manifest(raw: unknown): ShapeResult<SkillManifest>;
  /** A skill's versions document; a check without it falls back to {@link structuralShapeCheck}'s. */
  versions?(raw: unknown): ShapeResult<SkillVersions>;
}

export type ShapeResult<T> = { ok: true; value: T } | { ok: false; issues: string[] };

/*
 * The zod refinements JSON Schema cannot say, checked here once the shape fits: the client builds
 * URLs and disk paths from these strings.
 */

/**
 * The first listed file that another listed path puts a folder under (`scripts/run.sh` and
 * `scripts/run.sh/x`), as `[file, inside]`. No folder a build reads can hold both, and no install
 * can write both, so a client refuses the manifest rather than fail half-way through writing it.
 * Sorted with `/` as the lowest character, a path's nearest follower starts with `path/` if any
 * listed path does: one pass, however long or deep the paths a hostile manifest lists.
 *
 * @example
 * fileUnderFile(['scripts/run.sh', 'scripts/run.sh/x']); // ['scripts/run.sh', 'scripts/run.sh/x']
 */
export function fileUnderFile(paths: readonly string[]): [string, string] | undefined {
  const keys = paths.map((path) => ({ path, key: path.replaceAll('/', '\0') })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let i = 1; i < keys.length; i++) {
    const [file, next] = [keys[i - 1]!, keys[i]!];
    if (next.key.startsWith(`${file.key}\0`)) return [file.path, next.path];
  }
  return undefined;
}

/**
 * The file list (the manifest's `files`): SKILL.md in it when `hasSkillMd` says so, the entry in
 * it, every path safe and portable ({@link pathProblem}), none listed twice (also up to case) and
 * none inside another listed file. Both shape checks apply it.
 */
export const unsafePaths = (manifest: SkillManifest): string[] => {
  const issues = manifest.files.flatMap((file, i) => {
    const problem = pathProblem(file.path);
    return problem ? [`files.${i}.path: '${file.path}' ${problem}`] : [];
  });
  const paths = manifest.files.map((f) => f.path);
  // An agent reads SKILL.md first: a manifest that promises one and lists none would install a skill without instructions.
  if (manifest.hasSkillMd && !paths.includes('SKILL.md')) issues.push('files: must list SKILL.md, as hasSkillMd says the skill has one');
  // The runner starts the entry from the installed folder: a path it does not list (`../x`) would
  // be a file the digests never covered, or one outside the folder.
  if (manifest.entry && !paths.includes(manifest.entry.path)) issues.push(`entry.path: '${manifest.entry.path}' must be one of the listed files`);
  if (repeatedPath(paths) !== undefined) issues.push('files: must not list a path twice');
  const nested = fileUnderFile(paths);
  if (nested) issues.push(`files: must not list a path inside another listed file (${nested[0]} and ${nested[1]})`);
  // On macOS and Windows these are one file: installing both would leave one path holding the other's bytes.
  const folded = paths.map((path) => path.toLowerCase());
  const twin = repeatedPath(folded);
  if (twin !== undefined && repeatedPath(paths) === undefined) {
    const [a, b] = paths.filter((_, i) => folded[i] === twin);
    issues.push(`files: must not list two paths that differ only in case (${a} and ${b})`);
  }
  return issues;
};

/** The index's URL templates: `{name}` exactly once. */
const badTemplates = (index: RegistryIndex): string[] =>
  (['manifest', 'page'] as const).flatMap((key) => (isNameTemplate(index.urls[key]) ? [] : [`urls.${key}: must contain ${NAME_PLACEHOLDER} exactly once`]));

/** The generated index, manifest and versions shapes; small enough for the browser bundle. */
export const structuralShapeCheck: Required<ShapeCheck> = {
  index(raw) {
    const shapeIssues = checkJsonShape(raw, INDEX_SHAPE);
    const issues = shapeIssues.length === 0 ? badTemplates(raw as RegistryIndex) : shapeIssues;
    return issues.length === 0 ? { ok: true, value: raw as RegistryIndex } : { ok: false, issues };
  },
  manifest(raw) {
    // Not issues.push(...unsafePaths(…)): a forged manifest's 200,000 bad paths as arguments overflow the stack.
    const shapeIssues = checkJsonShape(raw, MANIFEST_SHAPE);
    const issues = shapeIssues.length === 0 ? unsafePaths(raw as SkillManifest) : shapeIssues;
    return issues.length === 0 ? { ok: true, value: raw as SkillManifest } : { ok: false, issues };
  },
  versions(raw) {
    const issues = checkJsonShape(raw, VERSIONS_SHAPE);
    return issues.length === 0 ? { ok: true, value: raw as SkillVersions } : { ok: false, issues };
  },
};
