import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeRegistry, openRegistry } from '../../src/runtime/node/index.ts';
import { runSkilldex } from '../helpers/cli.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';
import { buildFixtures, REPO_ROOT, tempDir } from './_registries.ts';

/** What an extended package's `type` changes: static runs nothing, service warns without network, internal fires on events only. */
let server: StaticServer;
let registry: NodeRegistry;
let cacheDir: string;

beforeAll(async () => {
  server = await serveDirectory(await buildFixtures());
  cacheDir = await tempDir('cache');
  registry = await openRegistry(server.url, { cacheDir });
});
afterAll(() => server.close());

describe('package types', () => {
  it('returns the instructions of a static package and never executes its script', async () => {
    const outcome = await registry.run('static-kit', {});
    expect(outcome).toMatchObject({ status: 'success', format: 'markdown' });
    expect(outcome.output).toContain('Follow the house style guide');
    const cli = await runSkilldex(REPO_ROOT, ['run', 'static-kit', '--registry', server.url, '--cache-dir', cacheDir]);
    expect(cli.status).toBe(0);
    expect(cli.stdout).not.toContain('executed');
  });

  it('warns when a service package has no network to reach its service', async () => {
    const outcome = await registry.run('service-probe', {});
    expect(outcome.status).toBe('success');
    expect(outcome.warnings).toEqual([expect.stringContaining('service package but its security policy grants no network')]);
  });

  it('fires an internal package on its events only', () => {
    expect(registry.match('where is the style guide?').map((m) => m.skill.name)).toEqual(['static-kit']);
    expect(registry.match('', { event: 'session.started' }).map((m) => m.skill.name)).toEqual(['internal-hook']);
  });
});
