/**
 * One skill folder that cannot be listed (no permission) must not hide the others: validate and
 * build report it as `internal/check-failed` with the folder and the fix, a lenient build publishes
 * the rest, and scan says it could not scan it instead of passing in silence. The CLI runs without
 * the capabilities that let root read any folder (or as the user it is, when not root), so the
 * permissions apply as they do for a publisher.
 */
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSkilldexUnprivileged } from '../helpers/cli.ts';

let root: string;

const skillMd = (name: string) => `---\nname: ${name}\ndescription: Says hello. Use it when someone asks for a greeting.\n---\n\nSay hello.\n`;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skilldex-unreadable-'));
  for (const name of ['good-one', 'locked', 'private-file', 'private-sub']) {
    await mkdir(join(root, 'skills', name), { recursive: true });
    await writeFile(join(root, 'skills', name, 'SKILL.md'), skillMd(name));
  }
  await chmod(join(root, 'skills', 'locked'), 0o000);
  await writeFile(join(root, 'skills', 'private-file', 'notes.md'), '# Notes\n');
  await chmod(join(root, 'skills', 'private-file', 'notes.md'), 0o000);
  await mkdir(join(root, 'skills', 'private-sub', 'references'));
  await writeFile(join(root, 'skills', 'private-sub', 'references', 'a.md'), '# A\n');
  await chmod(join(root, 'skills', 'private-sub', 'references'), 0o000);
});
afterAll(async () => {
  await chmod(join(root, 'skills', 'locked'), 0o755);
  await chmod(join(root, 'skills', 'private-sub', 'references'), 0o755);
  await rm(root, { recursive: true, force: true });
});

const REPORTED = /skills\/locked:1:1 +internal\/check-failed +error +'skills\/locked' could not be listed \(permission denied, EACCES\)/;

describe('a skill folder that cannot be listed', () => {
  it('is reported by validate, which still checks the others', async () => {
    const result = await runSkilldexUnprivileged(root, ['validate']);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(REPORTED);
    expect(result.stdout).toContain('hint: make the folder readable (chmod a+rX skills/locked)');
    expect(result.stdout).toContain('3 errors, 0 warnings');
    expect(result.stderr).toBe('');
  });

  it('has a file or a folder inside a skill that cannot be read named where it is, with the fix, not as a bug', async () => {
    const result = await runSkilldexUnprivileged(root, ['validate']);
    expect(result.stdout).toMatch(/skills\/private-file\/notes\.md:1:1 +internal\/check-failed +error +the skill could not be checked: 'skills\/private-file\/notes\.md' cannot be read \(permission denied, EACCES\)\n +hint: make it readable \(chmod a\+rX skills\/private-file\/notes\.md\), or remove it/);
    expect(result.stdout).toMatch(/skills\/private-sub\/references:1:1 +internal\/check-failed +error +the skill could not be checked: 'skills\/private-sub\/references' cannot be read \(permission denied, EACCES\)\n +hint: make it readable \(chmod a\+rX skills\/private-sub\/references\)/);
    expect(result.stdout).not.toContain('Skilldex bug');
  });

  it('is reported when it is the folder named', async () => {
    const result = await runSkilldexUnprivileged(root, ['validate', 'skills/locked']);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(REPORTED);
  });

  it('is left out of a lenient build, which publishes the others', async () => {
    const result = await runSkilldexUnprivileged(root, ['build', '--lenient', '--out', 'out']);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('rejected skills/locked: internal/check-failed');
    expect((await readdir(join(root, 'out', 'skills'))).filter((f) => f.endsWith('.json') && !f.endsWith('.versions.json'))).toEqual(['good-one.json']);
    expect(result.stderr).toContain('rejected skills/private-file: internal/check-failed');
  });

  it('validate goes without a build cache it cannot look into', async () => {
    await mkdir(join(root, '.cache', 'skilldex'), { recursive: true });
    await chmod(join(root, '.cache'), 0o000);
    try {
      const result = await runSkilldexUnprivileged(root, ['validate', 'skills/good-one']);
      expect(result.stderr).toBe('');
      expect(result.stdout).toContain('0 errors, 0 warnings');
      expect(result.status).toBe(0);
    } finally {
      await chmod(join(root, '.cache'), 0o755);
    }
  });

  it('makes scan fail, saying it was not scanned', async () => {
    const result = await runSkilldexUnprivileged(root, ['scan']);
    expect(result.status).toBe(1);
    // The skills with a file or a folder that cannot be read are scanned but for it, which is named.
    expect(result.stdout).toContain('3 skills scanned');
    expect(result.stderr).toMatch(/not scanned skills\/private-file\/notes\.md: could not be opened/);
    expect(result.stderr).toMatch(/not scanned skills\/private-sub\/references: the folder cannot be listed \(permission denied\), so nothing in it was scanned/);
    expect(result.stderr).toMatch(/not scanned skills\/locked: the folder cannot be listed/);
  });
});
