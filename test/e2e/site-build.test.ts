/**
 * `node scripts/build.ts` as a user runs it: the failures it must report before any page is built.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');
let work: string;

function build(args: string[]) {
  return spawnSync(process.execPath, [path.join(repoRoot, 'scripts/build.ts'), ...args], { cwd: repoRoot, encoding: 'utf8' });
}

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'skilldex-site-build-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('scripts/build.ts', () => {
  it('stops with the registry errors, located, and a non-zero exit', () => {
    const root = path.join(work, 'broken');
    mkdirSync(path.join(root, 'skills/good-name'), { recursive: true });
    writeFileSync(path.join(root, 'skills/good-name/SKILL.md'), '---\nname: other-name\ndescription: Mismatched on purpose.\n---\n# Body\n');
    const run = build(['--root', root, '--out', path.join(work, 'out-broken')]);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/skills\/good-name\/SKILL\.md:\d+:\d+ \S+/);
    expect(run.stderr).toMatch(/error E_REGISTRY: The registry has \d+ errors?/);
  });

  it('refuses to empty an output folder that is not a build', () => {
    const out = path.join(work, 'precious');
    mkdirSync(out);
    writeFileSync(path.join(out, 'thesis.tex'), 'years of work');
    const run = build(['--root', work, '--out', out, '--registry', work]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('E_OUT_DIR');
  });

  it('explains a --registry folder without index.json', () => {
    const run = build(['--root', work, '--out', path.join(work, 'out-empty'), '--registry', path.join(work, 'nothing-here')]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('E_NO_REGISTRY');
  });
});
