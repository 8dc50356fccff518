import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanSkill, SCANNER_RULES, type Finding } from '../../src/scanner/index.ts';
import { caseNames, FIXTURES, readFixtureSkill } from './_fixtures.ts';

interface Expectation {
  rule: string;
  file: string;
  line: number;
  knownNames?: string[];
}

const expectations = JSON.parse(readFileSync(join(FIXTURES, 'malicious.expect.json'), 'utf8')) as Record<string, Expectation>;
const benignKnownNames = JSON.parse(readFileSync(join(FIXTURES, 'benign.known-names.json'), 'utf8')) as Record<string, string[]>;
const malicious = caseNames('malicious');
const benign = caseNames('benign');
const where = (f: Finding) => `${f.severity} ${f.rule} ${f.file}:${f.line}:${f.column} ${f.evidence}`;

describe('malicious corpus', () => {
  it('has at least 40 cases, each mapped to one expectation and back', () => {
    expect(malicious.length).toBeGreaterThanOrEqual(40);
    expect(Object.keys(expectations).sort()).toEqual(malicious);
  });

  it('exercises every content rule at least once', () => {
    const covered = new Set(Object.values(expectations).map((e) => e.rule));
    const uncovered = SCANNER_RULES.map((r) => r.meta.id).filter((id) => !covered.has(id) && id !== 'scan/truncated');
    expect(uncovered).toEqual([]);
  });

  it.each(malicious)('%s: the intended rule fires at the expected file and line', (name) => {
    const want = expectations[name]!;
    const result = scanSkill(readFixtureSkill(join(FIXTURES, 'malicious', name), name, want.knownNames ?? []));
    const hit = result.findings.find((f) => f.rule === want.rule && f.file === want.file && f.line === want.line);
    expect(hit, `expected ${want.rule} at ${want.file}:${want.line}; got:\n${result.findings.map(where).join('\n')}`).toBeDefined();
    const rule = SCANNER_RULES.find((r) => r.meta.id === want.rule)!.meta;
    // At its default severity: not lowered by context.
    expect(hit!.severity).toBe(rule.severity);
    expect(result.verdict).not.toBe('pass');
    expect(hit!.docs).toBe(`docs/security.md#${want.rule.replace(/[^a-z0-9]+/g, '-')}`);
    expect(hit!.evidence.length).toBeLessThanOrEqual(200);
    expect(hit!.message).toMatch(/Fix: /);
  });
});

describe('benign corpus (false-positive budget: no finding at warn or above; info is allowed)', () => {
  it('has at least 15 look-alike skills', () => {
    expect(benign.length).toBeGreaterThanOrEqual(15);
  });

  it.each(benign)('%s: verdict pass, nothing above info', (name) => {
    const result = scanSkill(readFixtureSkill(join(FIXTURES, 'benign', name), name, benignKnownNames[name] ?? []));
    const serious = result.findings.filter((f) => f.severity !== 'info');
    expect(serious.map(where)).toEqual([]);
    expect(result.verdict).toBe('pass');
  });

  it('reports the quoted injection and the test vector at info rather than ignoring them', () => {
    const teaching = scanSkill(readFixtureSkill(join(FIXTURES, 'benign', 'security-teaching'), 'security-teaching'));
    expect(teaching.findings.map((f) => `${f.rule}:${f.severity}`)).toEqual(
      expect.arrayContaining(['injection/instruction-override:info', 'injection/conceal-from-user:info', 'injection/directive-tag:info']),
    );
    const vectors = scanSkill(readFixtureSkill(join(FIXTURES, 'benign', 'base64-test-vector'), 'base64-test-vector'));
    expect(vectors.findings.map((f) => `${f.rule}:${f.severity}:${f.file}`)).toEqual(['obfuscation/encoded-blob:info:tests/vectors.json']);
  });

  it('stays within budget across the whole benign corpus: total info findings are few', () => {
    let info = 0;
    for (const name of benign) {
      info += scanSkill(readFixtureSkill(join(FIXTURES, 'benign', name), name, benignKnownNames[name] ?? [])).findings.length;
    }
    // Budget: zero findings ≥ warn (asserted per skill above) and at most one info finding per benign skill on average.
    expect(info).toBeLessThanOrEqual(benign.length);
  });
});
