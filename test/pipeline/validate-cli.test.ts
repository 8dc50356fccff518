/**
 * The real CLI, spawned: `skilldex validate` on a tree with several mistakes prints every problem
 * with file, line, rule and hint in each format, and the exit code says what happened
 * (0 clean, 1 validation errors, 2 bad usage).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, REPO, scrub } from './rules/_harness.ts';

const MISTAKES = join(FIXTURES, 'rules', 'cli-mistakes');
const CLEAN = join(FIXTURES, 'rules', 'cli-clean');

function skilldex(...args: string[]) {
  const run = spawnSync(process.execPath, [join(REPO, 'bin', 'skilldex.mjs'), ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    timeout: 60_000,
  });
  return { code: run.status, stdout: scrub(run.stdout, REPO), stderr: scrub(run.stderr, REPO) };
}

/** Every mistake in the fixture: file, line, column, rule, severity, and a fragment of its hint. */
const EXPECTED = [
  { file: 'skills/broken_json/skill.json', line: 5, column: 1, rule: 'skill-json/syntax', severity: 'error', hint: 'trailing comma' },
  { file: 'skills/extra/SKILL.md', line: 4, column: 8, rule: 'frontmatter/unknown-field', severity: 'warning', hint: 'metadata:' },
  { file: 'skills/long-desc/SKILL.md', line: 3, column: 14, rule: 'description/length', severity: 'error', hint: 'move detail into the body' },
  { file: 'skills/no-close/SKILL.md', line: 1, column: 1, rule: 'frontmatter/unclosed', severity: 'error', hint: 'a line containing only `---`' },
  { file: 'skills/pdf-tools/SKILL.md', line: 2, column: 7, rule: 'name/folder-mismatch', severity: 'error', hint: "rename the folder to 'pdf-tool'" },
] as const;

describe('skilldex validate (spawned)', () => {
  it('human: prints every problem as path:line:col  rule  severity  message with a hint line, and exits 1', async () => {
    const { code, stdout } = skilldex('validate', '--root', MISTAKES, '--no-scan');
    expect(code).toBe(1);
    const lines = stdout.split('\n');
    for (const e of EXPECTED) {
      const i = lines.findIndex((l) => l.startsWith(`${e.file}:${e.line}:${e.column}  ${e.rule}  ${e.severity}  `));
      expect(i, `${e.file}:${e.line} ${e.rule}`).toBeGreaterThanOrEqual(0);
      expect(lines[i + 1]).toMatch(/^ {4}hint: /);
      expect(lines[i + 1]).toContain(e.hint);
      expect(lines[i + 1]).toContain(`(docs/rules.md#${e.rule.replace('/', '-')})`);
    }
    expect(stdout).toContain('4 errors, 1 warning\n');
    expect(stdout).not.toContain('skills/good/');
    await expect(stdout).toMatchFileSnapshot('__snapshots__/validate-cli/human.txt');
  });

  it('json: every diagnostic with file, line, column, rule and hint; accepted and rejected skills; exits 1', async () => {
    const { code, stdout } = skilldex('validate', '--root', MISTAKES, '--no-scan', '--format', 'json');
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as {
      errors: number;
      warnings: number;
      accepted: string[];
      rejected: { dir: string }[];
      diagnostics: { file: string; line: number; column: number; rule: string; severity: string; hint?: string }[];
    };
    expect([report.errors, report.warnings]).toEqual([4, 1]);
    expect(report.diagnostics.map((d) => ({ file: d.file, line: d.line, column: d.column, rule: d.rule, severity: d.severity }))).toEqual(
      EXPECTED.map(({ hint: _hint, ...rest }) => rest),
    );
    report.diagnostics.forEach((d, i) => expect(d.hint).toContain(EXPECTED[i]!.hint));
    expect(report.accepted).toEqual(['extra', 'good']);
    expect(report.rejected.map((r) => r.dir)).toEqual(['skills/broken_json', 'skills/long-desc', 'skills/no-close', 'skills/pdf-tools']);
    await expect(stdout).toMatchFileSnapshot('__snapshots__/validate-cli/report.json');
  });

  it('github: one workflow command per problem, with file, line, col, the rule as title, and the hint; exits 1', async () => {
    const { code, stdout } = skilldex('validate', '--root', MISTAKES, '--no-scan', '--format', 'github');
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(EXPECTED.length);
    EXPECTED.forEach((e, i) => {
      expect(lines[i]!.startsWith(`::${e.severity} file=${e.file},line=${e.line},col=${e.column},title=${e.rule.replace(':', '%3A')}::`), lines[i]).toBe(true);
      expect(lines[i]).toContain('(hint: ');
    });
  });

  it('exits 0 on a clean tree', () => {
    const { code, stdout } = skilldex('validate', '--root', CLEAN, '--no-scan');
    expect(stdout).toBe('0 errors, 0 warnings\n');
    expect(code).toBe(0);
  });

  it('exits 2 on an unknown command, with a hint', () => {
    const { code, stderr } = skilldex('valdiate', '--root', CLEAN);
    expect(code).toBe(2);
    expect(stderr).toContain("unknown command 'valdiate'");
    expect(stderr).toContain('hint: ');
  });

  it('exits 2 on an unknown flag instead of ignoring it', () => {
    const { code, stderr } = skilldex('validate', '--root', CLEAN, '--no-scan', '--formt', 'json');
    expect(code).toBe(2);
    expect(stderr).toContain('formt');
  });

  it('exits 2 on an unknown --format value, with a message and no stack trace', () => {
    const { code, stderr } = skilldex('validate', '--root', CLEAN, '--no-scan', '--format', 'xml');
    expect(code).toBe(2);
    expect(stderr).toContain('xml');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
