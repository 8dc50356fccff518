import type { SkillManifest } from '../../core/schemas/manifest.ts';

/**
 * What an extended package's `type` changes in a run (docs/extended-package.md#package-types):
 * - `static`: content, not a program: the run returns the instructions and executes nothing, even
 *   if the package ships scripts (they are assets for the agent to read).
 * - `service`: a front for an outside service. It still runs confined; when its policy grants no
 *   network (`security.network` is not `allowlist`), the outcome warns, because the call it exists
 *   to make cannot leave the sandbox.
 * - `direct`, `distributed`, `preprocessor`, `internal`: run like any package. Where the work runs
 *   (`distributed`) and when a host calls a skill (`preprocessor` before the others) are the host's
 *   decisions, which this runner leaves to it; `internal` is handled by trigger matching.
 */
export function applyPackageType(manifest: SkillManifest): { manifest: SkillManifest; warnings: string[] } {
  if (manifest.format !== 'package') return { manifest, warnings: [] };
  if (manifest.type === 'static' && manifest.mode !== 'instructions') {
    // The output schema describes what the program would return; the instructions are Markdown.
    const { entry: _entry, pipeline: _pipeline, outputSchema: _output, ...rest } = manifest;
    return { manifest: { ...rest, mode: 'instructions' }, warnings: [] };
  }
  if (manifest.type === 'service' && manifest.mode === 'code' && manifest.security?.network !== 'allowlist') {
    return { manifest, warnings: [`${manifest.name} is a service package but its security policy grants no network (security.network is not 'allowlist'), so it cannot reach its service from the sandbox`] };
  }
  return { manifest, warnings: [] };
}
