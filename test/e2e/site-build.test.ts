/**
 * `node scripts/build.ts` as a user runs it: the failures it must report before any page is built.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureRegistry } from '../fixtures/site/registry.ts';

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

  it('publishes an already-built registry with --registry', () => {
    // The hand-written registry in test/fixtures/site holds what the examples may not: a Japanese
    // llm skill and an extended package with triggers, security policy, resources and ABP tools.
    const registry = path.join(work, 'registry');
    mkdirSync(registry);
    const index = writeFixtureRegistry(registry);
    const out = path.join(work, 'out-registry');
    const run = build(['--root', work, '--out', out, '--registry', registry]);
    expect(run.status, run.stderr).toBe(0);
    for (const skill of index.skills) expect(readFileSync(path.join(out, skill.urls.page, 'index.html'), 'utf8')).toContain('data-pagefind-body');
    expect(readFileSync(path.join(out, 'skills/translate-ja/index.html'), 'utf8')).toMatch(/^<!DOCTYPE html><html lang="ja">/);
    const pkg = readFileSync(path.join(out, 'skills/memory-search/index.html'), 'utf8');
    expect(pkg).toMatch(/^<!DOCTYPE html><html lang="zh">/);
    for (const heading of ['Triggers', 'Security policy', 'Resources', 'ABP tools']) expect(pkg).toContain(`<h3>${heading}`);
    expect(pkg).toContain('<code>search(query: string) → array</code>');
    expect(readFileSync(path.join(out, 'skills/code_review/index.html'), 'utf8')).toContain('href="/skills/review_pipeline/"');
    // The caller's registry is copied into the site, never moved out of its folder.
    for (const skill of index.skills) {
      expect(existsSync(path.join(registry, skill.urls.manifest)), skill.urls.manifest).toBe(true);
      expect(readFileSync(path.join(out, skill.urls.manifest), 'utf8')).toBe(readFileSync(path.join(registry, skill.urls.manifest), 'utf8'));
    }
  });

  it('explains a --registry folder without index.json', () => {
    const run = build(['--root', work, '--out', path.join(work, 'out-empty'), '--registry', path.join(work, 'nothing-here')]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('E_NO_REGISTRY');
  });
});
