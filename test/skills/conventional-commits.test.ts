import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SKILLS_DIR, ok, runScript } from './_protocol.ts';

const SCRIPT = 'dev/conventional-commits/scripts/lint_commit.py';
const run = (req: unknown, env?: Record<string, string>) => runScript('python3', SCRIPT, req, env);
const lint = (message: string, extra: Record<string, unknown> = {}) => ok(run({ action: 'lint', params: { message, ...extra } }), 'lint');
const rules = (problems: { rule: string }[]) => problems.map((p) => p.rule);

describe('conventional-commits lint_commit.py (python3, seed 004)', () => {
  it('lint: a good message passes and implies the right release bump', () => {
    expect(lint('fix(parser): handle empty input')).toMatchObject({ valid: true, errors: [], warnings: [], releaseBump: 'patch' });
    expect(lint('feat: add cursor pagination').releaseBump).toBe('minor');
    expect(lint('docs: explain retries').releaseBump).toBe('none');
    expect(lint('feat(cli)!: rename --out to --output\n\nBREAKING CHANGE: use --output.').releaseBump).toBe('major');
  });

  it('lint: reports errors and warnings by rule id', () => {
    expect(rules(lint('Fixed stuff.').errors)).toEqual(['header-format']);
    expect(rules(lint('feature: add x').errors)).toEqual(['type-enum']);
    expect(rules(lint('Feat: add x').errors)).toEqual(['type-case']);
    expect(rules(lint('fix(): add x').errors)).toEqual(['scope-empty']);
    expect(rules(lint('fix: add x\nbody right after').errors)).toEqual(['body-leading-blank']);
    expect(rules(lint(`fix: ${'a'.repeat(80)}`).errors)).toEqual(['header-max-length']);
    expect(lint(`fix: ${'a'.repeat(80)}`, { max_header_length: 100 }).valid).toBe(true);
    expect(rules(lint('fix: add x', { require_scope: true }).errors)).toEqual(['scope-required']);
    expect(rules(lint('chore: Updated deps.').warnings)).toEqual(['subject-full-stop', 'subject-case', 'subject-mood']);
    expect(lint('fix: Updates the parser').warnings.find((w: { rule: string }) => w.rule === 'subject-mood').message).toContain("'update'");
    expect(rules(lint('wip: x', { types: ['wip'] }).errors)).toEqual([]);
  });

  it('lint: ignores git comment lines and the scissors section', () => {
    const message = 'fix: handle CRLF\r\n\r\n# Please enter the commit message\r\n# ------------------------ >8 ------------------------\r\ndiff --git a b';
    const data = lint(message);
    expect(data.valid).toBe(true);
    expect(data.parsed.body).toBeNull();
  });

  it('parse: splits header, body and footers', () => {
    const data = ok(
      run({ action: 'parse', params: { message: 'feat(api)!: add pagination\n\nFirst paragraph.\n\nSecond paragraph.\n\nBREAKING CHANGE: page size\n  is now 50\nRefs #42' } }),
      'parse',
    );
    expect(data).toEqual({
      header: 'feat(api)!: add pagination',
      type: 'feat',
      scope: 'api',
      breaking: true,
      description: 'add pagination',
      body: 'First paragraph.\n\nSecond paragraph.',
      footers: [
        { token: 'BREAKING CHANGE', value: 'page size\n  is now 50' },
        { token: 'Refs', value: '42' },
      ],
      conventional: true,
    });
  });

  it('types: lists the standard types', () => {
    const data = ok(run({ action: 'types' }), 'types');
    expect(data.types.map((t: { type: string }) => t.type)).toEqual(['feat', 'fix', 'docs', 'style', 'refactor', 'perf', 'test', 'build', 'ci', 'chore', 'revert']);
  });

  it('unknown action → UNKNOWN_ACTION', () => {
    expect(run({ action: 'amend', params: {} }).envelope).toMatchObject({ success: false, action: 'amend', error: { code: 'UNKNOWN_ACTION' } });
  });

  it('missing or mistyped params → MISSING_PARAM / INVALID_PARAM', () => {
    expect(run({ action: 'lint', params: {} }).envelope).toMatchObject({ success: false, action: 'lint', error: { code: 'MISSING_PARAM', details: { param: 'message' } } });
    expect(run({ action: 'parse' }).envelope.error.code).toBe('MISSING_PARAM');
    expect(run({ action: 'lint', params: { message: 42 } }).envelope.error.code).toBe('INVALID_PARAM');
    expect(run({ action: 'lint', params: { message: 'fix: x', types: [] } }).envelope.error).toMatchObject({ code: 'INVALID_PARAM', details: { param: 'types' } });
  });

  it('invalid JSON on stdin → INVALID_JSON and exit status 1', () => {
    const r = run('not json');
    expect(r.envelope).toMatchObject({ success: false, error: { code: 'INVALID_JSON' } });
    expect(r.status).toBe(1);
  });

  it('SKILL_DEBUG=1 logs the request on stderr', () => {
    expect(run({ action: 'types' }, { SKILL_DEBUG: '1' }).stderr).toContain('debug: request');
  });

  describe('commit-msg hook mode', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilldex-commit-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const hook = (message: string) => {
      const file = join(dir, 'COMMIT_EDITMSG');
      writeFileSync(file, message);
      return spawnSync('python3', [SKILLS_DIR + SCRIPT, file], { encoding: 'utf8' });
    };

    it('exits 0 for a valid message and 1 with a report for an invalid one', () => {
      expect(hook('fix: handle empty input\n').status).toBe(0);
      const bad = hook('Fix bug\n');
      expect(bad.status).toBe(1);
      expect(bad.stderr).toContain('header-format');
      expect(bad.stdout).toBe('');
    });
  });
});
