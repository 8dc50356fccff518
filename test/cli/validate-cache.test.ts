/**
 * `skilldex validate` in a registry that was built reads what the build recorded in its cache:
 * skills whose files are as the build found them are not checked again. Its report must be the
 * very report of a validation without the cache, follow every edit, and leave the cache file alone.
 * The real CLI, spawned, on real folders.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateBack } from '../helpers/at-rest.ts';
import { REPO, runSkilldex } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'skilldex-validate-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const root = join(dir, 'registry');
const cacheFile = join(root, '.cache', 'skilldex', 'build-cache.json');
const validate = (...args: string[]) => runSkilldex(root, ['validate', ...args]);

/** Every report a validation can give, without the cache: what the cached runs must repeat. */
let uncached: Record<string, { status: number; stdout: string }>;
const REPORTS: Record<string, string[]> = {
  human: [],
  json: ['--format', 'json'],
  github: ['--format', 'github'],
  oneSkill: ['skills/extra'],
  noScan: ['--no-scan', '--format', 'json'],
};

beforeAll(async () => {
  // The example skills (scripts, schemas, references: every kind the scanner reads) and a
  // folder of mistakes: errors and warnings of several rules.
  cpSync(join(REPO, 'skills'), join(root, 'skills'), { recursive: true });
  cpSync(join(REPO, 'test', 'fixtures', 'rules', 'cli-mistakes', 'skills'), join(root, 'skills'), { recursive: true });
  // A link to a skill that is not there: the registry-wide link rule reads each skill's links
  // from the cache as well.
  writeFileSync(join(root, 'skills', 'good', 'SKILL.md'), `${readFileSync(join(root, 'skills', 'good', 'SKILL.md'), 'utf8')}\nSee [the old guide](../gone/SKILL.md).\n`);
  dateBack(join(root, 'skills'));
  uncached = {};
  for (const [name, args] of Object.entries(REPORTS)) {
    const { status, stdout, stderr } = await validate(...args);
    // Errors, or (one skill) a warning: a report, not a crash or a usage error.
    expect(status, stderr).toBe(name === 'oneSkill' ? 0 : 1);
    uncached[name] = { status, stdout };
  }
  expect(uncached.human?.stdout).toMatch(/^skills\/good\/SKILL\.md:\d+:\d+ {2}registry\/broken-link {2}warning/m);
  // The build refuses to publish with these errors, and records every skill in its cache.
  const build = await runSkilldex(root, ['build', '--out', join(dir, 'out')]);
  expect(build.status).toBe(1);
  expect(statSync(cacheFile).size).toBeGreaterThan(0);
}, 120_000);

describe('skilldex validate in a built registry', () => {
  it('reports exactly what a validation without the cache reports, in every format, and writes nothing to the cache', async () => {
    const before = readFileSync(cacheFile);
    const stamp = statSync(cacheFile).mtimeMs;
    for (const [name, args] of Object.entries(REPORTS)) {
      const { status, stdout } = await validate(...args);
      expect({ status, stdout }, name).toEqual(uncached[name]);
    }
    expect(readFileSync(cacheFile)).toEqual(before);
    expect(statSync(cacheFile).mtimeMs).toBe(stamp);
  });

  it('follows an edit: a mistake fixed and another made are reported as they are now', async () => {
    // extra/ has an unknown frontmatter field (a warning); a name that breaks the charset rule now.
    const file = join(root, 'skills', 'extra', 'SKILL.md');
    const text = readFileSync(file, 'utf8');
    try {
      writeFileSync(file, text.replace(/^name: .*$/m, 'name: Extra Skill!'));
      const run = await validate('skills/extra');
      expect(run.stdout).toMatch(/^skills\/extra\/SKILL\.md:\d+:\d+ {2}name\/charset {2}error/m);
      expect(run.status).toBe(1);
    } finally {
      writeFileSync(file, text);
    }
    // Put back: the same report as before, though the build's record of the folder no longer holds.
    const { status, stdout } = await validate('skills/extra');
    expect({ status, stdout }).toEqual(uncached.oneSkill);
  });

  it('takes nothing from a cache a pull request committed, even salted for this very code and config', async () => {
    // The salt is no secret (a build anywhere with the same package, Node and config shows it), so
    // a pull request can commit a cache file with the right one, and entries that stamp nothing
    // and name no problem for its broken skills.
    const [header] = readFileSync(cacheFile, 'utf8').split('\n');
    const forged = ['broken_json', 'extra', 'long-desc', 'no-close', 'pdf-tools'].map((name) =>
      JSON.stringify({ dir: `skills/${name}`, declaration: name === 'broken_json' ? 'skill.json' : 'SKILL.md', dirs: [], files: [], diagnostics: [] }),
    );
    writeFileSync(cacheFile, `${[header, ...forged].join('\n')}\n`);
    for (const [name, args] of Object.entries(REPORTS)) {
      const { status, stdout } = await validate(...args);
      expect({ status, stdout }, name).toEqual(uncached[name]);
    }
    // Nor does a build publish them.
    const build = await runSkilldex(root, ['build', '--out', join(dir, 'forged-out')]);
    expect(build.status).toBe(1);
    expect(build.stderr).toContain('nothing written');
  });
});
