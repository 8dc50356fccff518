/**
 * The validator's phases on their own: parse is pure (a folder in memory, no disk), decide
 * splits folders by their own errors and the registry-wide rejects, and the scan gate turns a
 * verdict at `scan.blockOn` into one `security/blocked` error.
 */
import { describe, expect, it } from 'vitest';
import { RegistryConfig } from '../../src/core/schemas/config.ts';
import type { Diagnostic } from '../../src/core/schemas/diagnostic.ts';
import type { SkillSource } from '../../src/pipeline/model.ts';
import { DiagnosticSink } from '../../src/pipeline/diagnostics.ts';
import { sha256HexSync } from '../../src/pipeline/hash.ts';
import { gateScans, partition, type ValidatedSkill } from '../../src/pipeline/phases/decide.ts';
import { parseSkill } from '../../src/pipeline/phases/parse.ts';
import { ruleById } from '../../src/pipeline/rules/all-rules.ts';

const config = RegistryConfig.parse({});
const source = (name: string, files: Record<string, string>): SkillSource => ({
  dir: `skills/${name}`,
  absDir: `/nowhere/skills/${name}`,
  folderName: name,
  declaration: 'SKILL.md',
  files: Object.entries(files).map(([path, text]) => {
    const bytes = new TextEncoder().encode(text);
    return { path, bytes, size: bytes.length, hex: sha256HexSync(bytes) };
  }),
});
const md = (name: string, body = 'Do the thing.') => `---\nname: ${name}\ndescription: Does a thing.\n---\n\n${body}\n`;
const brief = (d: Diagnostic) => `${d.severity} ${d.rule} ${d.file}:${d.line}:${d.column}`;

describe('parse phase', () => {
  it('parses a folder held in memory into a draft, with no diagnostics', () => {
    const parsed = parseSkill(source('notes', { 'SKILL.md': md('notes') }), config);
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.draft?.name).toBe('notes');
    expect(parsed.draft?.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('reports every per-skill rule in one pass, in the order of the rule list, and still locates them', () => {
    const parsed = parseSkill(source('notes', { 'SKILL.md': md('other', 'Hidden\u200Bspace.'), 'a.md': 'x\u202Ey' }), config);
    expect(parsed.diagnostics.map(brief)).toEqual([
      'error files/bidi skills/notes/a.md:1:2',
      'warning files/zero-width skills/notes/SKILL.md:6:7',
      'error name/folder-mismatch skills/notes/SKILL.md:2:7',
    ]);
  });
});

describe('decide phase', () => {
  const member = (name: string): ValidatedSkill => {
    const src = source(name, { 'SKILL.md': md(name) });
    const { draft, locate } = parseSkill(src, config);
    return { draft: draft!, file: `${src.dir}/SKILL.md`, locate, source: src, scan: { verdict: 'pass', rulesVersion: '', findings: [] } };
  };

  it('accepts members without errors, rejects the rest with their reasons, and keeps folders refused before reading', () => {
    const [a, b, c] = [member('alpha'), member('beta'), member('gamma')];
    const sink = new DiagnosticSink();
    sink.report(ruleById('body/empty'), 'skills/alpha/SKILL.md', { line: 5, column: 1 }, 'empty');
    sink.report(ruleById('name/charset'), 'skills/beta/SKILL.md', { line: 2, column: 7 }, 'bad');
    sink.report(ruleById('discovery/too-deep'), 'skills/a/b/c/SKILL.md', { line: 1, column: 1 }, 'deep');
    const { accepted, rejected } = partition([a, b, c].map((m) => m.source), [a, b, c], sink.diagnostics, new Set([c]));
    expect(accepted.map((m) => m.draft.name)).toEqual(['alpha']);
    expect(rejected.map((r) => `${r.dir} ${r.errors.map((e) => e.rule).join(',')}`)).toEqual(['skills/a/b/c discovery/too-deep', 'skills/beta name/charset', 'skills/gamma ']);
  });

  it('gates a failing scan into one security/blocked error and the other findings into warnings', () => {
    const m = member('alpha');
    const finding = (rule: string, severity: 'critical' | 'warn' | 'info', line: number) => ({ rule, severity, file: 'SKILL.md', line, column: 1, evidence: 'x', message: `${rule} found`, docs: '' });
    const sink = new DiagnosticSink();
    gateScans([m], [{ verdict: 'fail', rulesVersion: '1', findings: [finding('exec/download-pipe-shell', 'critical', 6), finding('net/raw-ip-url', 'warn', 7), finding('x/info', 'info', 8)] }], config, sink);
    expect(sink.diagnostics.map(brief)).toEqual(['error security/blocked skills/alpha/SKILL.md:6:1', 'warning security/finding skills/alpha/SKILL.md:7:1']);
  });
});
