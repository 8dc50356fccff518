import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * Workflows cannot run here, so their safety properties are checked as data: the triggers
 * (never pull_request_target, FIELD-NOTES §6), minimal token permissions, and every action pinned
 * to a full commit SHA with a readable version comment.
 */
const DIR = join(import.meta.dirname, '..', '..', '.github', 'workflows');

type Step = { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string>; id?: string };
type Job = { permissions?: Record<string, string>; steps?: Step[]; needs?: string };
type Workflow = { on: Record<string, unknown>; permissions?: Record<string, string>; jobs: Record<string, Job> };

async function load(name: string): Promise<{ text: string; workflow: Workflow }> {
  const text = await readFile(join(DIR, name), 'utf8');
  return { text, workflow: parse(text) as Workflow };
}

const steps = (w: Workflow) => Object.values(w.jobs).flatMap((j) => j.steps ?? []);

describe('GitHub workflows', () => {
  it('are exactly validate.yml, deploy.yml and release.yml', async () => {
    expect((await readdir(DIR)).sort()).toEqual(['deploy.yml', 'release.yml', 'validate.yml']);
  });

  for (const name of ['validate.yml', 'deploy.yml', 'release.yml']) {
    it(`${name}: never runs on pull_request_target and pins every action to a commit SHA`, async () => {
      const { text, workflow } = await load(name);
      expect(Object.keys(workflow.on)).not.toContain('pull_request_target');
      expect(text.split('\n').filter((l) => !/^\s*#/.test(l)).join('\n')).not.toMatch(/pull_request_target/);
      const uses = steps(workflow).flatMap((s) => (s.uses ? [s.uses] : []));
      expect(uses.length).toBeGreaterThan(0);
      for (const u of uses) expect(u).toMatch(/^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@[0-9a-f]{40}$/);
      // The raw line carries the human-readable tag the SHA was taken from.
      for (const line of text.split('\n').filter((l) => /^\s*(-\s*)?uses:/.test(l))) expect(line).toMatch(/@[0-9a-f]{40} # v\d+(\.\d+){0,2}$/);
      // Checkouts never leave the token in .git/config for later steps.
      for (const s of steps(workflow).filter((s) => s.uses?.startsWith('actions/checkout@'))) expect(s.with).toMatchObject({ 'fetch-depth': 0, 'persist-credentials': false });
    });
  }

  it('validate.yml: pull_request only, read-only token, validates changed skills, builds and uploads the site', async () => {
    const { workflow } = await load('validate.yml');
    expect(Object.keys(workflow.on)).toEqual(['pull_request']);
    expect(workflow.permissions).toEqual({ contents: 'read' });
    for (const job of Object.values(workflow.jobs)) expect(job.permissions).toBeUndefined();
    const all = steps(workflow);
    const validate = all.find((s) => s.run?.includes('skilldex validate'));
    expect(validate?.run).toBe('npx --no-install skilldex validate --changed-since "origin/$BASE_REF" --format github --summary "$GITHUB_STEP_SUMMARY"');
    expect(validate?.env).toEqual({ BASE_REF: '${{ github.base_ref }}' });
    // No `${{ }}` expression is spliced into a shell script (expression injection).
    for (const s of all) expect(s.run ?? '').not.toContain('${{');
    const order = all.map((s) => s.run ?? s.uses?.split('@')[0]);
    expect(order).toEqual(['actions/checkout', 'actions/setup-node', 'npm install --no-audit --no-fund', validate?.run, 'npm run build', 'actions/upload-artifact']);
    expect(all.at(-1)?.with).toMatchObject({ path: 'dist', 'if-no-files-found': 'error' });
  });

  it('deploy.yml: push to main, Pages permissions only, npm and build caches, deploys with deploy-pages', async () => {
    const { workflow } = await load('deploy.yml');
    expect(workflow.on).toMatchObject({ push: { branches: ['main'] } });
    expect(Object.keys(workflow.on).sort()).toEqual(['push', 'workflow_dispatch']);
    expect(workflow.permissions).toEqual({ contents: 'read', pages: 'write', 'id-token': 'write', attestations: 'write' });
    const all = steps(workflow);
    const order = all.map((s) => s.run ?? s.uses?.split('@')[0]);
    expect(order).toEqual([
      'actions/checkout',
      'actions/setup-node',
      'npm install --no-audit --no-fund',
      'actions/configure-pages',
      'actions/cache',
      'npm run build',
      'sh scripts/pages-artifact.sh dist "$RUNNER_TEMP/artifact.tar"',
      'actions/attest-build-provenance',
      'actions/upload-artifact',
      'actions/deploy-pages',
    ]);
    expect(all.find((s) => s.uses?.startsWith('actions/setup-node@'))?.with).toMatchObject({ cache: 'npm' });
    // The site is built for the URL Pages serves it at (a project site lives under /<repo>/).
    const configure = all.find((s) => s.uses?.startsWith('actions/configure-pages@'));
    const onDefaultBranch = "github.ref == format('refs/heads/{0}', github.event.repository.default_branch)";
    // The signing key reaches the build on the default branch only; provenance likewise.
    expect(all.find((s) => s.run === 'npm run build')?.env).toEqual({
      SKILLDEX_SITE_URL: `\${{ steps.${configure?.id}.outputs.base_url }}`,
      SKILLDEX_SIGNING_KEY: `\${{ ${onDefaultBranch} && secrets.SKILLDEX_SIGNING_KEY || '' }}`,
    });
    expect((all.find((s) => s.uses?.startsWith('actions/attest-build-provenance@')) as Step & { if?: string })?.if).toBe(onDefaultBranch);
    // The artifact is packed by the script the tests run (upload-pages-artifact drops .well-known/),
    // and uploaded in the shape deploy-pages reads.
    expect(all.some((s) => s.uses?.startsWith('actions/upload-pages-artifact@'))).toBe(false);
    expect(all.find((s) => s.uses?.startsWith('actions/upload-artifact@'))?.with).toEqual({
      name: 'github-pages',
      path: '${{ runner.temp }}/artifact.tar',
      'retention-days': 1,
      'if-no-files-found': 'error',
    });
    for (const s of all) expect(s.run ?? '').not.toContain('${{');
    expect(workflow.jobs.deploy?.needs).toBe('build');
  });

  it('release.yml: a v* tag only, OIDC for provenance, tag checked against package.json, tests before publish, no cache', async () => {
    const { workflow } = await load('release.yml');
    expect(workflow.on).toEqual({ push: { tags: ['v*'] } });
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(workflow.jobs.publish?.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
    const all = steps(workflow);
    for (const s of all) expect(s.run ?? '').not.toContain('${{');
    expect(all.find((s) => s.uses?.startsWith('actions/setup-node@'))?.with).toEqual({ 'node-version': 24, 'registry-url': 'https://registry.npmjs.org' });
    const order = all.map((s) => s.run?.split('\n')[0] ?? s.uses?.split('@')[0]);
    expect(order).toEqual([
      'actions/checkout',
      'actions/setup-node',
      'version="$(node -p \'require("./package.json").version\')"',
      'npm install --no-audit --no-fund',
      'npm test',
      'npm pkg set repository.type=git "repository.url=git+https://github.com/${GITHUB_REPOSITORY}.git"',
      'npm publish --provenance --access public',
    ]);
    expect(all[2]?.env).toEqual({ TAG: '${{ github.ref_name }}' });
  });

  it('CODEOWNERS gives build code and workflows to the maintainers', async () => {
    const owners = await readFile(join(DIR, '..', 'CODEOWNERS'), 'utf8');
    for (const path of ['/src/', '/scripts/', '/.github/', '/package.json', '/astro.config.mjs']) {
      expect(owners).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\s+@skilldex/maintainers$`, 'm'));
    }
  });
});
