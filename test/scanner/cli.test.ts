import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from './_fixtures.ts';

const ROOT = join(import.meta.dirname, '../..');
const NODE = join(ROOT, 'node_modules/.bin/node');
const run = (...args: string[]) => spawnSync(NODE, ['bin/skilldex.mjs', 'scan', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
const rel = (p: string) => relative(ROOT, p).split('\\').join('/');

describe('skilldex scan (real process)', () => {
  it('exits 1 with JSON findings for a malicious skill', () => {
    const dir = join(FIXTURES, 'malicious', 'curl-pipe-sh');
    const r = run(dir, '--format', 'json');
    expect(r.status, r.stderr).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.verdict).toBe('fail');
    expect(out.skills).toHaveLength(1);
    expect(out.skills[0].findings[0]).toMatchObject({ rule: 'exec/download-pipe-shell', file: `${rel(dir)}/SKILL.md`, line: 13, column: 1 });
  });

  it('exits 0 for the benign corpus (a folder of skills) and honours --fail-on', () => {
    const dir = join(FIXTURES, 'benign');
    const r = run(dir, '--format', 'json');
    expect(r.status, r.stdout).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.skills.length).toBeGreaterThanOrEqual(15);
    expect(out.skills.every((s: { verdict: string }) => s.verdict === 'pass')).toBe(true);
    // url-shortener is only `warn` severity → verdict review: passes by default, fails with --fail-on review.
    const shortener = join(FIXTURES, 'malicious', 'url-shortener');
    expect(run(shortener).status).toBe(0);
    expect(run(shortener, '--fail-on', 'review').status).toBe(1);
  });

  it('reports a symlink instead of reading its target, and writes SARIF and GitHub annotations', () => {
    const dir = join(FIXTURES, 'malicious', 'symlink-escape');
    const sarif = run(dir, '--format', 'sarif', '--site-url', 'https://skills.example.org/');
    const log = JSON.parse(sarif.stdout);
    expect(log.runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toEqual(['file/symlink']);
    expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe(`${rel(dir)}/references/keys`);
    const gh = run(dir, '--format', 'github');
    expect(gh.stdout).toMatch(/^::error file=test\/fixtures\/security\/malicious\/symlink-escape\/references\/keys,line=1,col=1,title=file\/symlink \(high\)::/);
    expect(gh.stdout).not.toContain('root:');
  });

  it('exits 2 with a hint for a path that does not exist', () => {
    const r = run('no/such/folder');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('no/such/folder does not exist');
    expect(r.stderr).toContain('hint: check the path');
  });

  it('exits 2 with a hint for a file given as the folder, as validate does', () => {
    const r = run('test/fixtures/security/malicious/base64-pipe-shell/SKILL.md');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('test/fixtures/security/malicious/base64-pipe-shell/SKILL.md is not a folder');
    expect(r.stderr).toContain('hint: pass a skill folder or a folder of skills, not a file');
  });
});
