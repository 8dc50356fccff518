import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistry } from '../../src/pipeline/index.ts';
import type { DiscoveryIndexV2 } from '../../src/core/schemas/registry-index.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';

/**
 * The `skills` npm CLI (what `npx skills add <url>` runs) installs from a served build. This is
 * the compatibility promise of the well-known index, tested against the real client.
 */
const repo = join(import.meta.dirname, '..', '..');
const skillsCli = join(repo, 'node_modules', 'skills', 'bin', 'cli.mjs');

let out: string;
let server: StaticServer;
let discovery: DiscoveryIndexV2;

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'skilldex-wk-'));
  const result = await buildRegistry({ root: repo, outDir: out, sourceDateEpoch: 1_700_000_000, cache: false });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  discovery = JSON.parse(await readFile(join(out, '.well-known/agent-skills/index.json'), 'utf8')) as DiscoveryIndexV2;
  server = await serveDirectory(out);
});

afterAll(async () => {
  await server?.close();
  await rm(out, { recursive: true, force: true });
});

/** Runs the client asynchronously: the registry server lives in this process and must keep answering. */
function skillsAdd(cwd: string, ...extra: string[]): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [skillsCli, 'add', server.url, '--agent', 'claude-code', '-y', '--copy', ...extra],
      { cwd, timeout: 120_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, DISABLE_TELEMETRY: '1', DO_NOT_TRACK: '1', CI: '1', NO_COLOR: '1' } },
      (error, stdout, stderr) => resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}`.slice(-4000) }),
    );
  });
}

describe('npx skills add <registry>', () => {
  it('installs every skill of the discovery index, byte for byte', async () => {
    const project = await mkdtemp(join(tmpdir(), 'skilldex-proj-'));
    const run = await skillsAdd(project, '--skill', '*');
    expect(run.status, run.output).toBe(0);
    const installed = (await readdir(join(project, '.claude', 'skills'))).sort();
    expect(installed).toEqual(discovery.skills.map((s) => s.name).sort());
    expect(installed.length).toBeGreaterThanOrEqual(12);

    // Every installed file equals the published one, and each SKILL.md has a name the client accepts.
    const index = JSON.parse(await readFile(join(out, 'index.json'), 'utf8')) as { skills: { name: string; format: string }[] };
    for (const { name } of index.skills) {
      // The file lists are in the manifests (index.json lists none).
      const entry = JSON.parse(await readFile(join(out, 'skills', `${name}.json`), 'utf8')) as { name: string; format: string; files: { path: string; digest: string }[] };
      const dir = join(project, '.claude', 'skills', entry.format === 'skill-json' ? entry.name.replace(/_/g, '-') : entry.name);
      for (const file of entry.files) {
        const bytes = await readFile(join(dir, file.path));
        expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`, `${entry.name}/${file.path}`).toBe(file.digest);
      }
      const skillMd = await readFile(join(dir, 'SKILL.md'), 'utf8');
      expect(skillMd).toMatch(/^---\nname: [a-z0-9-]+\n/);
    }
    await rm(project, { recursive: true, force: true });
  });

  it('installs one named skill, including a skill.json function through its generated SKILL.md', async () => {
    const project = await mkdtemp(join(tmpdir(), 'skilldex-proj-'));
    const run = await skillsAdd(project, '--skill', 'text-stats');
    expect(run.status, run.output).toBe(0);
    expect(await readdir(join(project, '.claude', 'skills'))).toEqual(['text-stats']);
    const md = await readFile(join(project, '.claude', 'skills', 'text-stats', 'SKILL.md'), 'utf8');
    expect(md).toContain('## Signature');
    expect(md).toContain('text_stats(');
    await rm(project, { recursive: true, force: true });
  });

  it('the client refuses an artifact whose digest does not match', async () => {
    const wk = join(out, '.well-known/agent-skills/index.json');
    const original = await readFile(wk, 'utf8');
    const tampered = JSON.parse(original) as DiscoveryIndexV2;
    const target = tampered.skills[0] as DiscoveryIndexV2['skills'][number];
    target.digest = `sha256:${'0'.repeat(64)}`;
    await writeFile(wk, JSON.stringify(tampered));
    try {
      const project = await mkdtemp(join(tmpdir(), 'skilldex-proj-'));
      await skillsAdd(project, '--skill', target.name);
      const installed = await readdir(join(project, '.claude', 'skills')).catch(() => [] as string[]);
      expect(installed).not.toContain(target.name);
      await rm(project, { recursive: true, force: true });
    } finally {
      await writeFile(wk, original);
    }
  });
});
