import { discoveryName, nameKey } from '../../core/names.ts';
import type { RelatedLocation } from '../../core/schemas/diagnostic.ts';
import type { DiagnosticSink } from '../diagnostics.ts';
import { RULES_BY_ID, type RuleInfo, type ValidatorRuleId } from './catalog.ts';
import type { DraftManifest } from '../model.ts';
import type { Position } from '../../core/parse/source-text.ts';

export interface RegistryMember {
  draft: DraftManifest;
  /** File that declared the skill, relative to the registry root. */
  file: string;
  locate: (path: readonly (string | number)[]) => Position;
}

/** What a registry rule sees: every member, sorted by file, and what earlier rules rejected. */
export interface RegistryContext {
  /** Every member, sorted by the file that declares it. */
  members: readonly RegistryMember[];
  /** The first member (by file) of each case-folded, NFC-normalised name. */
  unique: readonly RegistryMember[];
  /** Members rejected so far; a rule reads it (a caller of a rejected skill) and `report` adds to it. */
  rejected: ReadonlySet<RegistryMember>;
}

export type RegistryReport = (member: RegistryMember, path: (string | number)[], message: string, options?: { hint?: string; related?: RelatedLocation[] }) => void;

/**
 * One rule across skills, ESLint style like the SKILL.md rules: its metadata (from the catalog,
 * with the hint it gives) and a check that reports a member at a path of its declaration. Every
 * reported member is rejected. Registered, in the order they run, in `REGISTRY_RULES`.
 */
export interface RegistryRule {
  meta: RuleInfo & { id: ValidatorRuleId; hint: string };
  check(ctx: RegistryContext, report: RegistryReport): void;
}

const defineRegistryRule = (id: ValidatorRuleId, hint: string, check: RegistryRule['check']): RegistryRule => ({ meta: { ...(RULES_BY_ID.get(id) as RuleInfo), id, hint }, check });

const declaredHere = (o: RegistryMember): RelatedLocation => ({ file: o.file, ...o.locate(['name']), message: `'${o.draft.name}' is declared here` });

const duplicateName = defineRegistryRule('registry/duplicate-name', 'choose a different name; names are compared case-insensitively after NFC normalisation', ({ members, unique }, report) => {
  const first = new Map(unique.map((m) => [nameKey(m.draft.name), m]));
  for (const m of members) {
    const kept = first.get(nameKey(m.draft.name)) as RegistryMember;
    if (kept !== m) report(m, ['name'], `skill name '${m.draft.name}' is already used by ${kept.file}`, { related: [declaredHere(kept)] });
  }
});

// Discovery clients (`npx skills add`, agent folders) know a skill by its published name only:
// `code_review` (skill.json) and `code-review` (SKILL.md), or `a_b` and `a__b`, would share one
// entry and one folder, so whichever came second could take the other's place. Neither is kept.
const crossFormatCollision = defineRegistryRule('registry/cross-format-collision', 'rename one of them; discovery indexes and agent folders would hold both under one name', ({ unique }, report) => {
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
});

const callCycle = defineRegistryRule('registry/call-cycle', 'a skill may not call itself, directly or through others', ({ unique, rejected }, report) => {
  const byName = new Map(unique.map((m) => [m.draft.name, m]));
  for (const cycle of findCycles(unique.filter((m) => !rejected.has(m)).map((m) => m.draft))) {
    for (const name of cycle) report(byName.get(name) as RegistryMember, ['calls'], `calls form a cycle: ${[...cycle, cycle[0]].join(' → ')}`);
  }
});

// A caller of a missing or rejected skill cannot run, so it is rejected too — until nothing changes.
const unknownCall = defineRegistryRule('registry/unknown-call', 'fix the name or add the skill', ({ unique, rejected }, report) => {
  const byName = new Map(unique.map((m) => [m.draft.name, m]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const m of unique.filter((u) => !rejected.has(u))) {
      m.draft.calls.forEach((callee, i) => {
        const target = byName.get(callee);
        if (target && !rejected.has(target)) return;
        const why = target ? `'${callee}' (${target.file}), which is rejected; see its errors` : `'${callee}', which is not in the registry`;
        report(m, ['calls', i], `'${m.draft.name}' calls ${why}`, target ? { hint: `fix ${target.file} first` } : {});
        changed = true;
      });
    }
  }
});

/** The rules across skills, in the order they run: later ones read what earlier ones rejected. */
export const REGISTRY_RULES: readonly RegistryRule[] = [duplicateName, crossFormatCollision, callCycle, unknownCall];

/**
 * Runs the rules across skills: unique names, unique published (discovery) names, `calls` that
 * resolve, no call cycles. Returns the members that should be rejected (in lenient mode the first
 * of a duplicate pair, by path, is kept).
 */
export function checkRegistry(members: readonly RegistryMember[], sink: DiagnosticSink, blocked: ReadonlySet<RegistryMember> = new Set()): Set<RegistryMember> {
  const rejected = new Set<RegistryMember>(blocked);
  const sorted = [...members].sort((a, b) => (a.file < b.file ? -1 : 1));
  const first = new Map<string, RegistryMember>();
  for (const m of sorted) if (!first.has(nameKey(m.draft.name))) first.set(nameKey(m.draft.name), m);
  const ctx: RegistryContext = { members: sorted, unique: [...first.values()], rejected };
  for (const rule of REGISTRY_RULES) {
    rule.check(ctx, (m, path, message, options = {}) => {
      sink.report(rule.meta.id, m.file, m.locate(path), message, { hint: options.hint ?? rule.meta.hint, skill: m.draft.name, ...(options.related ? { related: options.related } : {}) });
      rejected.add(m);
    });
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
