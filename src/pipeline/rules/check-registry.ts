import { nameKey } from '../../core/names.ts';
import type { ValidatorDiagnostic } from '../../core/schemas/diagnostic.ts';
import type { DiagnosticSink } from '../diagnostics.ts';
import type { SkillSource } from '../model.ts';
import type { OutwardLink } from '../references.ts';
import { REGISTRY_RULES } from './cross-skill.ts';
import { LINK_RULES } from './links.ts';
import { reportExclusion } from './internal.ts';
import type { CheckedRule, RegistryContext, RegistryFolder, RegistryMember } from './rule.ts';

/**
 * The registry engine: runs the rules across skills (links that lead to another skill, unique
 * names, unique published names, `calls` that resolve, no call cycles) in their order
 * (./links.ts, ./cross-skill.ts), and returns the members that should be rejected. Every member
 * a rule of ./cross-skill.ts reports is rejected, whatever its severity; a link rule's problem
 * rejects one only as an error, as a skill's own rules do. `blocked` are those
 * their own errors already keep out. `folders` are every skill folder read, members or not (by
 * default the members' own; see {@link registryFolder}). In lenient mode the first of a
 * duplicate pair, by path, is kept.
 */
export function checkRegistry(
  members: readonly RegistryMember[],
  sink: DiagnosticSink,
  blocked: ReadonlySet<RegistryMember> = new Set(),
  folders: readonly RegistryFolder[] = members.map((m) => ({ dir: m.file.slice(0, m.file.lastIndexOf('/')), file: m.file, member: m })),
): Set<RegistryMember> {
  const rejected = new Set<RegistryMember>(blocked);
  const sorted = [...members].sort((a, b) => (a.file < b.file ? -1 : 1));
  const first = new Map<string, RegistryMember>();
  for (const m of sorted) if (!first.has(nameKey(m.draft.name))) first.set(nameKey(m.draft.name), m);
  const ctx: RegistryContext = { members: sorted, folders: [...folders].sort((a, b) => (a.dir < b.dir ? -1 : 1)), unique: [...first.values()], rejected, unreadable: unreadableByName(folders) };
  // First, so that a registry that makes a broken link an error has the callers of that skill
  // rejected with it, as for any other error of its own.
  for (const rule of LINK_RULES as readonly CheckedRule<string, 'registry-links'>[]) {
    rule.check({ folders: ctx.folders }, (folder, at, message, options = {}) => {
      const severity = sink.report(rule, `${folder.dir}/${at.file}`, at, message, { ...options, ...(folder.member ? { skill: folder.member.draft.name } : {}) });
      if (severity === 'error' && folder.member) rejected.add(folder.member);
    });
  }
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
 * A skill folder as the registry rules see it, from what reading it gave: its files and its links
 * into other skills' folders; its member when it gave a draft; otherwise its first error and
 * every name a `calls` entry may give it: the names its diagnostics carry (the declared name,
 * once the declaration parsed far enough to have one) and its folder's (for a skill.json, also in
 * snake_case: `word-count/` holds `word_count`). Without them, a call to a skill whose
 * declaration is broken was reported as a call to no skill at all.
 *
 * @example
 * registryFolder({ source, file: 'skills/leaf/skill.json', diagnostics: [syntaxError] }); // { dir: 'skills/leaf', file, files, problem: syntaxError, names: ['leaf'] }
 */
export function registryFolder(
  skill: { source: Pick<SkillSource, 'dir' | 'folderName' | 'declaration' | 'files'>; file: string; diagnostics: readonly ValidatorDiagnostic[]; outwardLinks?: readonly OutwardLink[] },
  member?: RegistryMember,
): RegistryFolder {
  const { dir, folderName, declaration } = skill.source;
  const folder: RegistryFolder = { dir, file: skill.file, files: skill.source.files.map((f) => f.path), ...(skill.outwardLinks ? { links: skill.outwardLinks } : {}) };
  if (member) return { ...folder, member };
  const problem = skill.diagnostics.find((d) => d.severity === 'error') ?? skill.diagnostics[0];
  const names = new Set([...skill.diagnostics.flatMap((d) => (d.skill ? [d.skill] : [])), folderName, ...(declaration === 'skill.json' ? [folderName.replace(/-/g, '_')] : [])]);
  return { ...folder, ...(problem ? { problem } : {}), names: [...names] };
}

/** The folders without a member, by each name a call may give them (by default their folder's); the first folder by file keeps a name. */
function unreadableByName(folders: readonly RegistryFolder[]): Map<string, RegistryFolder> {
  const out = new Map<string, RegistryFolder>();
  for (const folder of [...folders].sort((a, b) => (a.file < b.file ? -1 : 1))) {
    if (folder.member) continue;
    for (const name of folder.names ?? [folder.dir.slice(folder.dir.lastIndexOf('/') + 1)]) if (!out.has(name)) out.set(name, folder);
  }
  return out;
}
