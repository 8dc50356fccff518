import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRegistry } from '../../../src/pipeline/index.ts';
import { GitRepo, skillMd } from '../../helpers/git-repo.ts';

/**
 * A blobless clone holds the current files but not the earlier versions': git fetches those from
 * the remote on demand. With the remote out of reach the build stopped on an "internal error";
 * it is a history git cannot read, reported as such.
 */
const work = mkdtempSync(join(tmpdir(), 'skilldex-partial-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A blobless clone of a skill's two versions, whose upstream is then deleted: the 1.0.0 blob is not in it. */
function bloblessClone(name: string): string {
  const upstream = new GitRepo(`partial-upstream-${name}`);
  upstream.write('skills/alpha-skill/SKILL.md', skillMd('alpha-skill', '1.0.0')).commit('first', '2026-01-01T00:00:00Z');
  upstream.write('skills/alpha-skill/SKILL.md', skillMd('alpha-skill', '1.0.1', '# alpha-skill\n\nDo the thing, better.\n')).commit('second', '2026-02-01T00:00:00Z');
  upstream.git('config', 'uploadpack.allowFilter', 'true');
  const clone = join(work, name);
  execFileSync('git', ['clone', '-q', '--no-local', '--filter=blob:none', `file://${upstream.root}`, clone]);
  rmSync(upstream.root, { recursive: true, force: true });
  return clone;
}

describe('a partial clone whose remote is gone', () => {
  it('publishes the current versions with a warning, and says the history was not read', async () => {
    const clone = bloblessClone('clone');
    const result = await buildRegistry({ root: clone, outDir: join(work, 'out'), cache: false, scan: false });
    expect(result.manifests.map((m) => m.version)).toEqual(['1.0.1']);
    const warning = result.diagnostics.find((d) => d.rule === 'versions/history-incomplete');
    expect(warning?.message).toContain("git cannot read the registry's history");
    expect(result.historyRead).toBe(false);
  });

  it('says so too when the clone has no remote to fetch from, instead of dropping the version without a word', async () => {
    const clone = bloblessClone('clone-without-remote');
    execFileSync('git', ['remote', 'remove', 'origin'], { cwd: clone });
    const cache = join(work, 'cache-without-remote.json');
    const result = await buildRegistry({ root: clone, outDir: join(work, 'out-2'), cache, scan: false });
    expect(result.diagnostics.find((d) => d.rule === 'versions/history-incomplete')?.message).toContain('1 earlier declaration is not in the clone');
    expect(result.historyRead).toBe(false);
  });
});

