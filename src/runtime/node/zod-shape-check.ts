import { visibleControls } from '../../core/control-chars.ts';
import { SkillManifest } from '../../core/schemas/manifest.ts';
import { RegistryIndex } from '../../core/schemas/registry-index.ts';
import { SkillVersions } from '../../core/schemas/versions.ts';
import type { ShapeCheck } from '../shape-check.ts';

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
    return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issues: issuesOf(parsed.error) };
  },
  versions(raw) {
    const parsed = SkillVersions.safeParse(raw);
    return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issues: issuesOf(parsed.error) };
  },
};
