import { nameKey } from '../../core/names.ts';
import type { DiagnosticSink } from '../diagnostics.ts';
import { REGISTRY_RULES } from './cross-skill.ts';
import { reportExclusion } from './internal.ts';
import type { ValidatorDiagnostic } from '../../core/schemas/diagnostic.ts';
import type { SkillSource } from '../model.ts';
import type { CheckedRule, RegistryContext, RegistryMember, UnreadableSkill } from './rule.ts';

/**
 * The registry engine: runs the rules across skills (unique names, unique published names,
 * `calls` that resolve, no call cycles) in their order (./cross-skill.ts), and returns the
 * members that should be rejected. Every member a rule reports is rejected; `blocked` are those
 * their own errors already keep out. In lenient mode the first of a duplicate pair, by path, is kept.
 */
export function checkRegistry(
  members: readonly RegistryMember[],
  sink: DiagnosticSink,
  blocked: ReadonlySet<RegistryMember> = new Set(),
  unreadable: ReadonlyMap<string, UnreadableSkill> = new Map(),
): Set<RegistryMember> {
  const rejected = new Set<RegistryMember>(blocked);
  const sorted = [...members].sort((a, b) => (a.file < b.file ? -1 : 1));
  const first = new Map<string, RegistryMember>();
  for (const m of sorted) if (!first.has(nameKey(m.draft.name))) first.set(nameKey(m.draft.name), m);
  const ctx: RegistryContext = { members: sorted, unique: [...first.values()], rejected, unreadable };
  for (const rule of REGISTRY_RULES as readonly CheckedRule<string, 'registry'>[]) {
    rule.check(ctx, (m, path, message, options = {}) => {
      // The member is rejected whatever the rule's severity: say so if the config silenced it.
      reportExclusion(sink, rule, m.file, m.locate(path), message, { ...options, skill: m.draft.name });
      rejected.add(m);
    });
  }
  return rejected;
}

/**
 * The skills read without a draft, by every name a `calls` entry may give them: the names their
 * diagnostics carry (the declared name, once the declaration parsed far enough to have one) and
 * their folder's (for a skill.json, also in snake_case: `word-count/` holds `word_count`). Without
 * them, a call to a skill whose declaration is broken was reported as a call to no skill at all.
 * The first folder (by file) keeps a name.
 *
 * @example
 * unreadableSkills([{ source, file: 'skills/leaf/skill.json', diagnostics: [syntaxError] }]); // Map { 'leaf' => { file, problem: syntaxError } }
 */
export function unreadableSkills(skills: readonly { source: Pick<SkillSource, 'folderName' | 'declaration'>; file: string; diagnostics: readonly ValidatorDiagnostic[]; draft?: unknown }[]): Map<string, UnreadableSkill> {
  const out = new Map<string, UnreadableSkill>();
  for (const skill of [...skills].sort((a, b) => (a.file < b.file ? -1 : 1))) {
    if (skill.draft) continue;
    const problem = skill.diagnostics.find((d) => d.severity === 'error') ?? skill.diagnostics[0];
    const { folderName, declaration } = skill.source;
    const names = new Set([...skill.diagnostics.flatMap((d) => (d.skill ? [d.skill] : [])), folderName, ...(declaration === 'skill.json' ? [folderName.replace(/-/g, '_')] : [])]);
    for (const name of names) if (!out.has(name)) out.set(name, { file: skill.file, ...(problem ? { problem } : {}) });
  }
  return out;
}
