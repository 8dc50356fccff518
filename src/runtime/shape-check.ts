import { checkJsonShape } from '../core/json-shape.ts';
import { isSafeSkillPath } from '../core/paths.ts';
import type { SkillManifest } from '../core/schemas/manifest.ts';
import type { RegistryIndex } from '../core/schemas/registry-index.ts';
import { INDEX_SHAPE, MANIFEST_SHAPE } from './published-shapes.ts';

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
}

export type ShapeResult<T> = { ok: true; value: T } | { ok: false; issues: string[] };

/**
 * File paths carry a refinement JSON Schema cannot say (no `.`/`..` segments, no `\ ? # [ ]`):
 * checked here, since the client builds URLs and disk paths from them.
 */
function unsafePaths(files: unknown, prefix: string): string[] {
  if (!Array.isArray(files)) return [];
  return files.flatMap((file: { path?: unknown }, i) => (typeof file?.path === 'string' && !isSafeSkillPath(file.path) ? [`${prefix}files.${i}.path: not a safe relative path`] : []));
}

/** The generated index and manifest shapes; small enough for the browser bundle. */
export const structuralShapeCheck: ShapeCheck = {
  index(raw) {
    const issues = checkJsonShape(raw, INDEX_SHAPE);
    if (issues.length === 0) (raw as { skills: { files: unknown }[] }).skills.forEach((skill, i) => issues.push(...unsafePaths(skill.files, `skills.${i}.`)));
    return issues.length === 0 ? { ok: true, value: raw as RegistryIndex } : { ok: false, issues };
  },
  manifest(raw) {
    const issues = checkJsonShape(raw, MANIFEST_SHAPE);
    if (issues.length === 0) issues.push(...unsafePaths((raw as { files: unknown }).files, ''));
    return issues.length === 0 ? { ok: true, value: raw as SkillManifest } : { ok: false, issues };
  },
};
