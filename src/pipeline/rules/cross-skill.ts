import { discoveryName, nameKey } from '../../core/names.ts';
import type { DiagnosticSink } from '../diagnostics.ts';
import type { DraftManifest } from '../model.ts';
import type { Position } from '../../core/parse/source-text.ts';

export interface RegistryMember {
  draft: DraftManifest;
  /** File that declared the skill, relative to the registry root. */
  file: string;
  locate: (path: readonly (string | number)[]) => Position;
}

/**
 * Rules across skills: unique names, unique published (discovery) names, `calls` that
 * resolve, no call cycles. Returns the members that should be
 * rejected (in lenient mode the first of a duplicate pair, by path, is kept).
 */
export function checkRegistry(members: readonly RegistryMember[], sink: DiagnosticSink, blocked: ReadonlySet<RegistryMember> = new Set()): Set<RegistryMember> {
  const rejected = new Set<RegistryMember>(blocked);
  const byKey = new Map<string, RegistryMember>();
  for (const m of [...members].sort((a, b) => (a.file < b.file ? -1 : 1))) {
    const key = nameKey(m.draft.name);
    const first = byKey.get(key);
    if (first) {
      sink.report('registry/duplicate-name', m.file, m.locate(['name']), `skill name '${m.draft.name}' is already used by ${first.file}`, { hint: 'choose a different name; names are compared case-insensitively after NFC normalisation', skill: m.draft.name, related: [{ file: first.file, ...first.locate(['name']), message: `'${first.draft.name}' is declared here` }] });
      rejected.add(m);
    } else byKey.set(key, m);
  }

  // Discovery clients (`npx skills add`, agent folders) know a skill by its published name only:
  // `code_review` (skill.json) and `code-review` (SKILL.md), or `a_b` and `a__b`, would share one
  // entry and one folder, so whichever came second could take the other's place. Neither is kept.
  const byDiscoveryName = new Map<string, RegistryMember[]>();
  for (const m of byKey.values()) {
    const k = nameKey(discoveryName(m.draft.name, m.draft.format));
    byDiscoveryName.set(k, [...(byDiscoveryName.get(k) ?? []), m]);
  }
  for (const [published, group] of byDiscoveryName) {
    if (group.length < 2) continue;
    for (const m of group) {
      const others = group.filter((o) => o !== m).map((o) => `'${o.draft.name}' (${o.file})`).join(', ');
      sink.report('registry/cross-format-collision', m.file, m.locate(['name']), `'${m.draft.name}' is published as '${published}', as is ${others}`, { hint: 'rename one of them; discovery indexes and agent folders would hold both under one name', skill: m.draft.name, related: group.filter((o) => o !== m).map((o) => ({ file: o.file, ...o.locate(['name']), message: `'${o.draft.name}' is declared here` })) });
      rejected.add(m);
    }
  }

  const byName = new Map([...byKey.values()].map((m) => [m.draft.name, m]));
  const live = () => [...byKey.values()].filter((m) => !rejected.has(m));
  for (const cycle of findCycles(live().map((m) => m.draft))) {
    for (const name of cycle) {
      const m = byName.get(name) as RegistryMember;
      sink.report('registry/call-cycle', m.file, m.locate(['calls']), `calls form a cycle: ${[...cycle, cycle[0]].join(' → ')}`, { hint: 'a skill may not call itself, directly or through others', skill: name });
      rejected.add(m);
    }
  }
  // A caller of a missing or rejected skill cannot run, so it is rejected too — until nothing changes.
  for (let changed = true; changed; ) {
    changed = false;
    for (const m of live()) {
      m.draft.calls.forEach((callee, i) => {
        const target = byName.get(callee);
        if (target && !rejected.has(target)) return;
        const why = target ? `'${callee}' (${target.file}), which is rejected; see its errors` : `'${callee}', which is not in the registry`;
        sink.report('registry/unknown-call', m.file, m.locate(['calls', i]), `'${m.draft.name}' calls ${why}`, { hint: target ? `fix ${target.file} first` : 'fix the name or add the skill', skill: m.draft.name });
        rejected.add(m);
        changed = true;
      });
    }
  }
  return rejected;
}

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
