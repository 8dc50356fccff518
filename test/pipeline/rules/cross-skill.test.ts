/**
 * Registry-wide rules as units: name keys (case-fold + NFC), and the cycle finder.
 * The fixture-level cases live in rules.test.ts; these cover what valid skill names cannot reach.
 */
import { describe, expect, it } from 'vitest';
import { DiagnosticSink } from '../../../src/pipeline/diagnostics.ts';
import { ALL_RULES, rulesOfScope } from '../../../src/pipeline/rules/all-rules.ts';
import { checkRegistry } from '../../../src/pipeline/rules/check-registry.ts';
import { findCycles } from '../../../src/pipeline/rules/cross-skill.ts';
import type { RegistryMember } from '../../../src/pipeline/rules/rule.ts';

const member = (name: string, file: string, extra: { calls?: string[]; format?: string } = {}): RegistryMember =>
  ({ draft: { name, calls: extra.calls ?? [], format: extra.format ?? 'skill-md' }, file, locate: () => ({ line: 2, column: 7 }) }) as unknown as RegistryMember;

describe('checkRegistry', () => {
  it('names the skill a call was meant for, when the called name is its folder\'s: renamed, or held back by its own errors', () => {
    const sink = new DiagnosticSink();
    const renamed = member('word_count_v2', 'skills/word-count/skill.json', { format: 'skill-json' });
    const caller = member('report', 'skills/report/skill.json', { calls: ['word_count', 'summarize', 'Summarize', 'missing'], format: 'skill-json' });
    const problem = { rule: 'frontmatter/yaml', severity: 'error', file: 'skills/summarize/SKILL.md', line: 4, column: 1, message: 'YAML: bad', skill: 'summarize' } as const;
    const held = { dir: 'skills/summarize', file: 'skills/summarize/SKILL.md', problem, names: ['summarize'] };
    checkRegistry([renamed, caller], sink, new Set(), [{ dir: 'skills/word-count', file: renamed.file, member: renamed }, { dir: 'skills/report', file: caller.file, member: caller }, held]);
    expect(sink.diagnostics.map((d) => [d.message, d.hint, d.related])).toEqual([
      ["'report' calls 'word_count', which is not in the registry", "call 'word_count_v2', or name the skill in skills/word-count 'word_count' again", [{ file: renamed.file, line: 2, column: 7, message: "the skill in this folder is named 'word_count_v2'" }]],
      // Called by a name it may have: its own first error says why it is not there.
      ["'report' calls 'summarize', which is not published: skills/summarize/SKILL.md has errors (frontmatter/yaml: YAML: bad)", 'fix skills/summarize/SKILL.md first', [{ file: held.file, line: 4, column: 1, message: "why 'summarize' is not published" }]],
      // Called by its folder's name in another case: still the folder meant, pointed at where it went wrong.
      ["'report' calls 'Summarize', which is not in the registry", 'fix skills/summarize/SKILL.md first: its errors leave no skill to call', [{ file: held.file, line: 4, column: 1, message: 'the skill in this folder is held back by its own errors' }]],
      ["'report' calls 'missing', which is not in the registry", 'fix the name or add the skill', undefined],
    ]);
  });

  it('runs every registry/* rule of the one list as a rule module, each with its hint', () => {
    const across = [...rulesOfScope('registry-links'), ...rulesOfScope('registry')];
    expect(across.map((r) => r.meta.id).sort()).toEqual(ALL_RULES.filter((r) => r.meta.id.startsWith('registry/')).map((r) => r.meta.id).sort());
    for (const r of across) expect(r.meta.hint.length, r.meta.id).toBeGreaterThan(10);
  });

  it('keeps a skill with a broken link to another skill, unless the registry makes that an error', () => {
    const linker = member('linker', 'skills/linker/SKILL.md');
    const caller = member('caller', 'skills/caller/SKILL.md', { calls: ['linker'] });
    const folders = (m: RegistryMember) => ({
      dir: m.file.slice(0, m.file.lastIndexOf('/')),
      file: m.file,
      member: m,
      files: ['SKILL.md'],
      links: m === linker ? [{ file: 'SKILL.md', line: 8, column: 9, destination: '../gone/SKILL.md', target: 'skills/gone/SKILL.md' }] : [],
    });
    const warned = new DiagnosticSink();
    expect([...checkRegistry([linker, caller], warned, new Set(), [linker, caller].map(folders))]).toEqual([]);
    expect(warned.diagnostics.map((d) => [d.rule, d.severity, d.file, d.line, d.column, d.skill])).toEqual([['registry/broken-link', 'warning', 'skills/linker/SKILL.md', 8, 9, 'linker']]);
    const strict = new DiagnosticSink({ 'registry/broken-link': 'error' });
    // As an error it keeps the skill out, and with it the skill that calls it.
    expect(new Set(checkRegistry([linker, caller], strict, new Set(), [linker, caller].map(folders)))).toEqual(new Set([linker, caller]));
    expect(strict.diagnostics.map((d) => [d.rule, d.severity, d.file])).toEqual([
      ['registry/broken-link', 'error', 'skills/linker/SKILL.md'],
      ['registry/unknown-call', 'error', 'skills/caller/SKILL.md'],
    ]);
  });

  it('treats names that differ only by case as duplicates, and keeps the first by path', () => {
    const sink = new DiagnosticSink();
    const a = member('pdf', 'skills/a/pdf/SKILL.md');
    const b = member('PDF', 'skills/b/PDF/SKILL.md');
    const rejected = checkRegistry([b, a], sink);
    expect([...rejected]).toEqual([b]);
    expect(sink.diagnostics.map((d) => [d.rule, d.file, d.line, d.message])).toEqual([
      ['registry/duplicate-name', 'skills/b/PDF/SKILL.md', 2, "skill name 'PDF' is already used by skills/a/pdf/SKILL.md"],
    ]);
  });

  it('treats NFC and NFD spellings of a name as duplicates', () => {
    const sink = new DiagnosticSink();
    const nfc = member('caf\u00e9', 'skills/a/SKILL.md');
    const nfd = member('cafe\u0301', 'skills/b/SKILL.md');
    expect([...checkRegistry([nfc, nfd], sink)]).toEqual([nfd]);
    expect(sink.diagnostics.map((d) => d.rule)).toEqual(['registry/duplicate-name']);
  });

  it('rejects both skills when a skill.json name and a SKILL.md name are published under one discovery name', () => {
    const sink = new DiagnosticSink();
    const json = member('code_review', 'skills/code_review/skill.json', { format: 'skill-json' });
    const md = member('code-review', 'skills/code-review/SKILL.md');
    expect(new Set(checkRegistry([json, md], sink))).toEqual(new Set([json, md]));
    expect(sink.diagnostics.map((d) => [d.rule, d.severity, d.file])).toEqual([
      ['registry/cross-format-collision', 'error', 'skills/code-review/SKILL.md'],
      ['registry/cross-format-collision', 'error', 'skills/code_review/skill.json'],
    ]);
  });

  it('rejects two skill.json names that kebab-case to one name (a_b and a__b)', () => {
    const sink = new DiagnosticSink();
    const one = member('a_b', 'skills/one/skill.json', { format: 'skill-json' });
    const two = member('a__b', 'skills/two/skill.json', { format: 'skill-json' });
    expect(checkRegistry([one, two], sink).size).toBe(2);
    expect(sink.diagnostics.map((d) => d.rule)).toEqual(['registry/cross-format-collision', 'registry/cross-format-collision']);
  });

  it('does not warn for two SKILL.md names (they cannot differ by _)', () => {
    const sink = new DiagnosticSink();
    checkRegistry([member('a-b', 'skills/a-b/SKILL.md'), member('c', 'skills/c/SKILL.md')], sink);
    expect(sink.diagnostics).toEqual([]);
  });

  it('rejects unknown calls, self-calls and cycles; a severity override to "off" does not hide the rejection: internal/held-back says why', () => {
    const sink = new DiagnosticSink({ 'registry/unknown-call': 'off' });
    const lone = member('lone', 'skills/lone/skill.json', { calls: ['ghost'], format: 'skill-json' });
    const me = member('me', 'skills/me/skill.json', { calls: ['me'], format: 'skill-json' });
    const rejected = checkRegistry([lone, me], sink);
    expect(new Set(rejected)).toEqual(new Set([lone, me]));
    expect(sink.diagnostics.map((d) => [d.rule, d.severity, d.file])).toEqual([
      ['registry/call-cycle', 'error', 'skills/me/skill.json'],
      ['internal/held-back', 'error', 'skills/lone/skill.json'],
    ]);
    expect(sink.diagnostics[1]?.message).toContain("('registry/unknown-call', which skilldex.config.json turns off or makes a warning)");
  });
});

describe('findCycles', () => {
  it('finds each strongly connected component once, sorted, and self-calls', () => {
    const cycles = findCycles([
      { name: 'a', calls: ['b'] },
      { name: 'b', calls: ['c'] },
      { name: 'c', calls: ['a', 'd'] },
      { name: 'd', calls: [] },
      { name: 'e', calls: ['e'] },
      { name: 'f', calls: ['a', 'missing'] },
    ]);
    expect(cycles).toEqual([['a', 'b', 'c'], ['e']]);
  });

  it('handles a long chain without a cycle', () => {
    const chain = Array.from({ length: 2000 }, (_, i) => ({ name: `s${i}`, calls: i + 1 < 2000 ? [`s${i + 1}`] : [] }));
    expect(findCycles(chain)).toEqual([]);
  });
});
