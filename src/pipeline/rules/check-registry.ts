import { nameKey } from '../../core/names.ts';
import type { DiagnosticSink } from '../diagnostics.ts';
import { REGISTRY_RULES } from './cross-skill.ts';
import { reportExclusion } from './internal.ts';
import type { CheckedRule, RegistryContext, RegistryMember } from './rule.ts';

/**
 * The registry engine: runs the rules across skills (unique names, unique published names,
 * `calls` that resolve, no call cycles) in their order (./cross-skill.ts), and returns the
 * members that should be rejected. Every member a rule reports is rejected; `blocked` are those
 * their own errors already keep out. In lenient mode the first of a duplicate pair, by path, is kept.
 */
export function checkRegistry(members: readonly RegistryMember[], sink: DiagnosticSink, blocked: ReadonlySet<RegistryMember> = new Set()): Set<RegistryMember> {
  const rejected = new Set<RegistryMember>(blocked);
  const sorted = [...members].sort((a, b) => (a.file < b.file ? -1 : 1));
  const first = new Map<string, RegistryMember>();
  for (const m of sorted) if (!first.has(nameKey(m.draft.name))) first.set(nameKey(m.draft.name), m);
  const ctx: RegistryContext = { members: sorted, unique: [...first.values()], rejected };
  for (const rule of REGISTRY_RULES as readonly CheckedRule<string, 'registry'>[]) {
    rule.check(ctx, (m, path, message, options = {}) => {
      // The member is rejected whatever the rule's severity: say so if the config silenced it.
      reportExclusion(sink, rule, m.file, m.locate(path), message, { ...options, skill: m.draft.name });
      rejected.add(m);
    });
  }
  return rejected;
}
