/**
 * The pure half of the history walk: from commits to version records, and the raw log parser.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseRawLog, type LogCommit } from '../../../src/pipeline/history/git-reader.ts';
import { changesByFolder, MAX_SUBJECTS, versionRecords } from '../../../src/pipeline/history/version-walk.ts';
import { GitRepo, skillMd } from '../../helpers/git-repo.ts';

let n = 0;
/** A commit changing files of skills/a: `null` deletes, a string is the blob id (its version for a declaration). */
const commit = (subject: string, files: Record<string, string | null>): LogCommit => ({
  id: `${++n}`.padStart(40, '0'),
  time: n * 100,
  subject,
  changes: Object.entries(files).map(([path, oid]) => ({ path: `skills/a/${path}`, mode: oid === null ? '000000' : '100644', oid: oid ?? undefined })),
});
/** Declaration blobs are named `v<version>`; `bad` cannot be read. */
const versionOf = (_declaration: string, oid: string) => (oid.startsWith('v') ? oid.slice(1) : undefined);
const records = (commits: LogCommit[]) => {
  // changesByFolder takes the log as git prints it: newest first.
  const { byFolder } = changesByFolder([...commits].reverse(), 'skills', new Set(['skills/a']));
  return versionRecords(byFolder.get('skills/a') ?? [], versionOf);
};
const summary = (list: ReturnType<typeof records>) => list.map((r) => ({ version: r.version, first: r.firstCommit.replace(/^0+/, ''), last: r.lastCommit.replace(/^0+/, ''), files: r.files.map((f) => `${f.path}=${f.oid}`).sort() }));

describe('versionRecords', () => {
  it('splits history where the declared version changes, each version keeping its last files', () => {
    n = 0;
    const list = records([
      commit('add', { 'SKILL.md': 'v1.0.0' }),
      commit('notes', { 'notes.md': 'n1' }),
      commit('bump', { 'SKILL.md': 'v1.1.0', 'notes.md': null }),
      commit('typo', { 'x.md': 'x1' }),
    ]);
    expect(summary(list)).toEqual([
      { version: '1.0.0', first: '1', last: '2', files: ['SKILL.md=v1.0.0', 'notes.md=n1'] },
      { version: '1.1.0', first: '3', last: '4', files: ['SKILL.md=v1.1.0', 'x.md=x1'] },
    ]);
    expect(list.map((r) => r.subjects)).toEqual([['add', 'notes'], ['bump', 'typo']]);
  });

  it('treats a declaration edit that keeps the version (or only adds a v or build metadata) as the same version', () => {
    n = 0;
    const list = records([commit('add', { 'SKILL.md': 'v1.0.0' }), commit('reword', { 'SKILL.md': 'vv1.0.0' }), commit('meta', { 'SKILL.md': 'v1.0.0+build.2' })]);
    expect(summary(list)).toEqual([{ version: '1.0.0+build.2', first: '1', last: '3', files: ['SKILL.md=v1.0.0+build.2'] }]);
  });

  it('gives a version that comes back its first date and its latest files', () => {
    n = 0;
    const list = records([commit('one', { 'SKILL.md': 'v1.0.0' }), commit('two', { 'SKILL.md': 'v2.0.0' }), commit('back', { 'SKILL.md': 'v1.0.0', 'fix.md': 'f' })]);
    expect(summary(list)).toEqual([
      { version: '2.0.0', first: '2', last: '2', files: ['SKILL.md=v2.0.0'] },
      { version: '1.0.0', first: '1', last: '3', files: ['SKILL.md=v1.0.0', 'fix.md=f'] },
    ]);
  });

  it('counts no version while the declaration is missing, unreadable or ambiguous', () => {
    n = 0;
    const list = records([
      commit('add', { 'SKILL.md': 'v1.0.0' }),
      commit('break', { 'SKILL.md': 'bad' }),
      commit('fix', { 'SKILL.md': 'v1.1.0' }),
      commit('both', { 'skill.json': 'v9.0.0' }),
      commit('remove', { 'SKILL.md': null, 'skill.json': null }),
      commit('again', { 'SKILL.md': 'v2.0.0' }),
    ]);
    expect(summary(list).map((r) => [r.version, r.first, r.last])).toEqual([
      ['1.0.0', '1', '1'],
      ['1.1.0', '3', '3'],
      ['2.0.0', '6', '6'],
    ]);
  });

  it(`keeps the latest ${MAX_SUBJECTS} subjects of a long-lived version`, () => {
    n = 0;
    const list = records([commit('add', { 'SKILL.md': 'v1.0.0' }), ...Array.from({ length: 60 }, (_, i) => commit(`edit ${i}`, { 'x.md': `x${i}` }))]);
    expect(list[0]?.subjects).toHaveLength(MAX_SUBJECTS);
    expect(list[0]?.subjects.at(-1)).toBe('edit 59');
  });

  it('assigns a path to the skill folder that holds it, with or without a category folder', () => {
    const c: LogCommit = { id: 'c', time: 1, subject: 's', changes: ['skills/a/SKILL.md', 'skills/cat/b/SKILL.md', 'skills/cat/b/x/y.md', 'skills/README.md', 'other/a/SKILL.md'].map((path) => ({ path, mode: '100644', oid: 'v1.0.0' })) };
    const { byFolder, declarations } = changesByFolder([c], 'skills', new Set(['skills/a', 'skills/cat/b']));
    expect([...byFolder.keys()].sort()).toEqual(['skills/a', 'skills/cat/b']);
    expect(byFolder.get('skills/cat/b')?.[0]?.changes.map((ch) => ch.path)).toEqual(['SKILL.md', 'x/y.md']);
    expect(declarations).toHaveLength(2);
  });
});

describe('parseRawLog', () => {
  it('reads commit messages holding the separators the format uses, and any path bytes', () => {
    const repo = new GitRepo('raw-log');
    repo.write('skills/a/SKILL.md', skillMd('a', '1.0.0')).write('skills/a/ünï cødé\tname.md', 'x').commit('first \x1e\x1f: odd subject', '2026-01-02T10:00:00Z');
    repo.write('skills/a/SKILL.md', skillMd('a', '1.1.0')).commit('second\n\nbody\x1e:100644 line', '2026-01-03T10:00:00Z');
    const out = execFileSync('git', ['log', '--first-parent', '--raw', '-z', '--no-abbrev', '--no-renames', '--relative', '--format=%x1e%H%x1f%P%x1f%ct%x1f%B', 'HEAD', '--', 'skills'], { cwd: repo.root });
    const commits = parseRawLog(out);
    expect(commits.map((c) => [c.subject, c.changes.map((ch) => ch.path).sort()])).toEqual([
      ['second', ['skills/a/SKILL.md']],
      ['first : odd subject', ['skills/a/SKILL.md', 'skills/a/ünï cødé\tname.md']],
    ]);
    expect(commits.every((c) => /^[0-9a-f]{40}$/.test(c.id) && c.changes.every((ch) => ch.mode === '100644' && /^[0-9a-f]{40}$/.test(ch.oid ?? '')))).toBe(true);
  });
});
