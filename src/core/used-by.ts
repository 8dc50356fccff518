import type { ReferenceKind, SkillManifest, SkillUser } from './schemas/manifest.ts';

/**
 * How each way of referring to a skill reads after the referring skill's name, on the skill page
 * and in `skilldex info`: "text_report — calls it, runs it in a pipeline step".
 */
export const REFERENCE_LABELS: Readonly<Record<ReferenceKind, string>> = {
  calls: 'calls it',
  'pipeline-step': 'runs it in a pipeline step',
  dependency: 'declares it a dependency',
  'tool-id': 'uses its tools',
  link: 'links to its docs',
};

/**
 * The skills that refer to this one. A manifest from a registry older than format 2.2.0 has no
 * `usedBy`; its `calledBy` is then all that is known.
 *
 * @example
 * skillUsers(manifest).map((u) => `${u.name} — ${u.kinds.map((k) => REFERENCE_LABELS[k]).join(', ')}`)
 */
export function skillUsers(manifest: Pick<SkillManifest, 'usedBy' | 'calledBy'>): SkillUser[] {
  return manifest.usedBy ?? manifest.calledBy.map((name) => ({ name, kinds: ['calls'] }));
}
