import { discoveryName, nameKey, toKebab } from '../../core/names.ts';
import type { RelatedLocation } from '../../core/schemas/diagnostic.ts';
import type { DraftManifest } from '../model.ts';
import { defineRule, type RegistryFolder, type RegistryMember } from './rule.ts';


const declaredHere = (o: RegistryMember): RelatedLocation => ({ file: o.file, ...o.locate(['name']), message: `'${o.draft.name}' is declared here` });

export const registryDuplicateName = defineRule({
  id: 'registry/duplicate-name',
  severity: 'error',
  scope: 'registry',
  description: 'Two skills share a name after case-folding and NFC normalisation.',
  hint: 'choose a different name; names are compared case-insensitively after NFC normalisation',
  check({ members, unique }, report) {
    const first = new Map(unique.map((m) => [nameKey(m.draft.name), m]));
    for (const m of members) {
      const kept = first.get(nameKey(m.draft.name)) as RegistryMember;
      if (kept !== m) report(m, ['name'], `skill name '${m.draft.name}' is already used by ${kept.file}`, { related: [declaredHere(kept)] });
    }
  },
});

// Discovery clients (`npx skills add`, agent folders) know a skill by its published name only:
// `code_review` (skill.json) and `code-review` (SKILL.md), or `a_b` and `a__b`, would share one
// entry and one folder, so whichever came second could take the other's place. Neither is kept.
export const registryCrossFormatCollision = defineRule({
  id: 'registry/cross-format-collision',
  severity: 'error',
  scope: 'registry',
  description: 'Two skills are published under one discovery name (`code_review` and `code-review`); neither is published.',
  hint: 'rename one of them; discovery indexes and agent folders would hold both under one name',
  check({ unique }, report) {
    const byDiscoveryName = new Map<string, RegistryMember[]>();
    for (const m of unique) {
      const k = nameKey(discoveryName(m.draft.name, m.draft.format));
      byDiscoveryName.set(k, [...(byDiscoveryName.get(k) ?? []), m]);
    }
    for (const [published, group] of byDiscoveryName) {
      if (group.length < 2) continue;
      for (const m of group) {
        const others = group.filter((o) => o !== m);
        report(m, ['name'], `'${m.draft.name}' is published as '${published}', as is ${others.map((o) => `'${o.draft.name}' (${o.file})`).join(', ')}`, { related: others.map(declaredHere) });
      }
    }
  },
});

export const registryCallCycle = defineRule({
  id: 'registry/call-cycle',
  severity: 'error',
  scope: 'registry',
  description: '`calls` form a cycle.',
  hint: 'a skill may not call itself, directly or through others',
  check({ unique, rejected }, report) {
    const byName = new Map(unique.map((m) => [m.draft.name, m]));
    for (const cycle of findCycles(unique.filter((m) => !rejected.has(m)).map((m) => m.draft))) {
      for (const name of cycle) report(byName.get(name) as RegistryMember, ['calls'], `calls form a cycle: ${[...cycle, cycle[0]].join(' → ')}`);
    }
  },
});

/** The folder a declaration is in, by its last name (`skills/text/text-stats/skill.json` → `text-stats`). */
const folderNameOf = (file: string): string => file.split('/').at(-2) ?? '';

// A caller of a missing or rejected skill cannot run, so it is rejected too — until nothing changes.
// The skill that broke it is named as a related place: a publisher checking only that skill's
// folder is then shown the callers it breaks.
export const registryUnknownCall = defineRule({
  id: 'registry/unknown-call',
  severity: 'error',
  scope: 'registry',
  description: 'A `calls` entry names no skill in the registry, or one whose declaration has errors that keep it out (the message quotes its first).',
  hint: 'fix the name or add the skill',
  check({ folders, unique, rejected, unreadable }, report) {
    const byName = new Map(unique.map((m) => [m.draft.name, m]));
    // A called name that is no skill's but a folder's: most likely the skill in that folder was
    // renamed and its callers were not, or its own errors leave no skill to call.
    let byFolderName: Map<string, RegistryFolder[]> | undefined;
    const namesake = (callee: string) => {
      if (!byFolderName) {
        byFolderName = new Map();
        for (const f of folders) {
          const key = nameKey(toKebab(folderNameOf(f.file)));
          byFolderName.set(key, [...(byFolderName.get(key) ?? []), f]);
        }
      }
      return byFolderName.get(nameKey(toKebab(callee))) ?? [];
    };
    for (let changed = true; changed; ) {
      changed = false;
      for (const m of unique.filter((u) => !rejected.has(u))) {
        m.draft.calls.forEach((callee, i) => {
          const target = byName.get(callee);
          if (target && !rejected.has(target)) return;
          changed = true;
          if (target) {
            report(m, ['calls', i], `'${m.draft.name}' calls '${callee}' (${target.file}), which is rejected; see its errors`, { hint: `fix ${target.file} first`, related: [declaredHere(target)] });
            return;
          }
          // A folder by that very name whose declaration has errors: its own first error says why.
          const broken = unreadable.get(callee);
          if (broken) {
            report(m, ['calls', i], `'${m.draft.name}' calls '${callee}', which is not published: ${unreadableWhy(broken)}`, { hint: `fix ${broken.problem?.file ?? broken.file} first`, related: [problemAt(callee, broken)] });
            return;
          }
          const [likely, ...others] = namesake(callee).filter((f) => f.member !== m);
          const message = `'${m.draft.name}' calls '${callee}', which is not in the registry`;
          if (!likely) return report(m, ['calls', i], message);
          report(m, ['calls', i], message, {
            hint: likely.member ? `call '${likely.member.draft.name}', or name the skill in ${likely.dir} '${callee}' again` : `fix ${likely.file} first: its errors leave no skill to call`,
            related: [likely, ...others].map((f) =>
              f.member ? { file: f.file, ...f.member.locate(['name']), message: `the skill in this folder is named '${f.member.draft.name}'` } : { ...placeOf(f), message: 'the skill in this folder is held back by its own errors' }),
          });
        });
      }
    }
  },
});

/** What keeps an unreadable callee out, as its own first error says it: `skills/leaf/skill.json has errors (skill-json/syntax: invalid JSON: …)`. */
const unreadableWhy = ({ file, problem }: RegistryFolder): string =>
  problem ? `${file} has errors (${problem.rule}: ${problem.message})` : `${file} yields no skill; see its diagnostics`;

/** Where a folder without a member went wrong: its first error, or the top of its declaration. */
const placeOf = ({ file, problem }: RegistryFolder): { file: string; line: number; column: number } =>
  problem ? { file: problem.file, line: problem.line, column: problem.column } : { file, line: 1, column: 1 };

/** The related place of a call to a folder without a member: what keeps it out, in that folder (so a report on the folder alone shows the call). */
const problemAt = (callee: string, folder: RegistryFolder): RelatedLocation => ({ ...placeOf(folder), message: `why '${callee}' is not published` });

/**
 * The rules across skills, in the order they run: later ones read what earlier ones rejected.
 * The one rule list registers them as this list, and the registry engine (./check-registry.ts)
 * runs it from here rather than from the one list: a rebuild whose skills are all cached runs
 * only these rules, and loading every rule module for them (the scanner's included) cost that
 * rebuild about 15 % of its CPU time on the example registry.
 */
export const REGISTRY_RULES = [registryDuplicateName, registryCrossFormatCollision, registryCallCycle, registryUnknownCall] as const;

/** Strongly connected components with more than one member, or a self-call (Tarjan). */
export function findCycles(drafts: readonly Pick<DraftManifest, 'name' | 'calls'>[]): string[][] {
  const graph = new Map(drafts.map((d) => [d.name, d.calls.filter((c) => c !== undefined)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const name of [...graph.keys()].sort()) if (!index.has(name)) visit(name);
  return cycles;
}
