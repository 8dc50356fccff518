import { visibleControls } from '../../core/control-chars.ts';
import { SkillManifest } from '../../core/schemas/manifest.ts';
import { RegistryIndex } from '../../core/schemas/registry-index.ts';
import { SkillVersions } from '../../core/schemas/versions.ts';
import { type ShapeCheck, unsafePaths } from '../shape-check.ts';

const issuesOf = (error: { issues: { path: PropertyKey[]; message: string }[] }): string[] =>
  error.issues.map((issue) => visibleControls(`${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`));

/** Full validation against the zod schemas, the single definition of the published shapes. */
export const zodShapeCheck: ShapeCheck = {
  index(raw) {
    const parsed = RegistryIndex.safeParse(raw);
    return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issues: issuesOf(parsed.error) };
  },
  manifest(raw) {
    const parsed = SkillManifest.safeParse(raw);
    if (!parsed.success) return { ok: false, issues: issuesOf(parsed.error) };
    // What the schema cannot say about paths (a file listed inside another), checked as the browser's structural check does.
    const issues = unsafePaths(parsed.data).map(visibleControls);
    return issues.length === 0 ? { ok: true, value: parsed.data } : { ok: false, issues };
  },
  versions(raw) {
    const parsed = SkillVersions.safeParse(raw);
    return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issues: issuesOf(parsed.error) };
  },
};
