import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { gitHistoryState } from '../../src/pipeline/git-checkout.ts';
import { GitRepo, skillMd } from '../helpers/git-repo.ts';

/**
 * What a build's record keys git's history by, read without starting git
 * (src/pipeline/last-build.ts): it must move whenever git would walk another history, and stay
 * put when only the way the same commit is named changes.
 */
const repo = new GitRepo('history-state');
repo.write('skills/alpha-skill/SKILL.md', skillMd('alpha-skill', '1.0.0'));
const first = repo.commit('first', '2026-01-01T00:00:00Z');
const elsewhere = mkdtempSync(join(tmpdir(), 'skilldex-no-repo-'));
afterAll(() => {
  rmSync(repo.root, { recursive: true, force: true });
  rmSync(`${repo.root}-worktree`, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});
afterEach(() => vi.unstubAllEnvs());

describe('gitHistoryState', () => {
  it('names the commit HEAD is at, however it is named', () => {
    const state = gitHistoryState(repo.root)?.state;
    expect(state).toContain(first);
    expect(gitHistoryState(join(repo.root, 'skills'))?.state).toBe(state);
    repo.git('pack-refs', '--all');
    expect(gitHistoryState(repo.root)?.state).toBe(state);
    repo.git('checkout', '-q', '--detach');
    expect(gitHistoryState(repo.root)?.state).toBe(state);
    repo.git('checkout', '-q', 'main');
    repo.git('worktree', 'add', '-q', `${repo.root}-worktree`);
    expect(gitHistoryState(`${repo.root}-worktree`)?.state).toBe(state);
  });

  it('moves with a new commit, even an empty one, and with a shallow file', () => {
    const before = gitHistoryState(repo.root)?.state;
    const second = repo.commit('empty', '2026-02-01T00:00:00Z');
    expect(gitHistoryState(repo.root)?.state).toContain(second);
    expect(gitHistoryState(repo.root)?.state).not.toBe(before);
    const deep = gitHistoryState(repo.root)?.state;
    writeFileSync(join(repo.root, '.git', 'shallow'), `${second}\n`);
    expect(gitHistoryState(repo.root)?.state).not.toBe(deep);
    rmSync(join(repo.root, '.git', 'shallow'));
  });

  it('cannot tell under a variable that moves the repository, or with replacement refs', () => {
    vi.stubEnv('GIT_SSL_CAINFO', '/etc/ssl/certs/ca-certificates.crt');
    expect(gitHistoryState(repo.root)?.state).toBeDefined();
    vi.stubEnv('GIT_DIR', join(repo.root, '.git'));
    expect(gitHistoryState(repo.root)?.state).toBeUndefined();
    vi.unstubAllEnvs();
    vi.stubEnv('GIT_CONFIG_COUNT', '1');
    expect(gitHistoryState(repo.root)?.state).toBeUndefined();
    vi.unstubAllEnvs();
    repo.git('update-ref', `refs/replace/${first}`, repo.git('rev-parse', 'HEAD').trim());
    expect(gitHistoryState(repo.root)?.state).toBeUndefined();
    repo.git('update-ref', '-d', `refs/replace/${first}`);
    expect(gitHistoryState(repo.root)?.state).toBeDefined();
    // Refs in a reftable (git 2.45+): HEAD names a placeholder branch the files cannot resolve.
    mkdirSync(join(repo.root, '.git', 'reftable'));
    expect(gitHistoryState(repo.root)?.state).toBeUndefined();
    rmSync(join(repo.root, '.git', 'reftable'), { recursive: true });
    expect(gitHistoryState(repo.root)?.state).toBeDefined();
  });

  it('cannot tell, at once, where a folder that looks like a repository holds a link to a device or a pipe', () => {
    // What someone who can write a folder above the registry (or a pull request, into the
    // registry's own folder) could put there: git would take it for a bare repository.
    const planted = mkdtempSync(join(tmpdir(), 'skilldex-planted-'));
    try {
      writeFileSync(join(planted, 'HEAD'), 'ref: refs/heads/main\n');
      mkdirSync(join(planted, 'objects'));
      mkdirSync(join(planted, 'refs'));
      symlinkSync('/dev/zero', join(planted, 'packed-refs'));
      expect(gitHistoryState(planted)).toBeUndefined();
      rmSync(join(planted, 'packed-refs'));
      execFileSync('mkfifo', [join(planted, 'packed-refs')]);
      expect(gitHistoryState(planted)).toBeUndefined();
      rmSync(join(planted, 'packed-refs'));
      expect(gitHistoryState(planted)?.state).toContain('unborn refs/heads/main');
    } finally {
      rmSync(planted, { recursive: true, force: true });
    }
  });

  it('says there is no repository where git would find none', () => {
    expect(gitHistoryState(elsewhere)?.state).toBe('no repository');
  });
});
