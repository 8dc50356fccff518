import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeRegistry, openRegistry } from '../../src/runtime/node/index.ts';
import { runSkilldex } from '../helpers/cli.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';
import { processesWith } from './_processes.ts';
import { buildFixtures, REPO_ROOT, tempDir } from './_registries.ts';

/** A pipeline's deadline stops its running step: the step's process dies and its side effect never happens. */
let server: StaticServer;
let registry: NodeRegistry;
let cacheDir: string;

beforeAll(async () => {
  server = await serveDirectory(await buildFixtures());
  cacheDir = await tempDir('cache');
  registry = await openRegistry(server.url, { cacheDir });
});
afterAll(() => server.close());

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('composite deadline', () => {
  it('cancels the running step and kills its process when the pipeline times out (library)', async () => {
    const tag = String(Date.now());
    let stderr = '';
    const started = performance.now();
    const outcome = await registry.run('slow_pipeline', { tag }, { onStderr: (text) => (stderr += text) });
    const elapsed = performance.now() - started;
    expect(outcome.error?.code).toBe('TIMEOUT');
    expect(outcome.error?.message).toContain('within 1000 ms');
    expect(elapsed).toBeLessThan(2500);
    // The step is recorded, stopped by the deadline.
    expect(outcome.intermediateSteps?.[0]).toMatchObject({ stepId: 'wait', stepName: 'slow-step', error: { code: 'CANCELLED' } });
    await settle();
    expect(processesWith(`4.${tag}`)).toEqual([]);
    // Long enough for the step to have finished had it kept running.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(stderr).not.toContain('side effect');
  });

  it('returns from `skilldex run` at the deadline instead of waiting for the step', async () => {
    const tag = String(Date.now() + 1);
    const started = performance.now();
    const result = await runSkilldex(REPO_ROOT, ['run', 'slow_pipeline', '--input', JSON.stringify({ tag }), '--registry', server.url, '--cache-dir', cacheDir]);
    const elapsed = performance.now() - started;
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout).error.code).toBe('TIMEOUT');
    expect(result.stderr).not.toContain('side effect');
    expect(elapsed).toBeLessThan(4000);
    await settle();
    expect(processesWith(`4.${tag}`)).toEqual([]);
  });

  it("does not count the skill's download against its timeout", async () => {
    // Every file arrives 3.5 s late: a run whose clock started before the download would be over at 3 s.
    const slow = await openRegistry(server.url, { cacheDir: await tempDir('slow-cache') });
    server.setFileDelay(3500);
    try {
      const outcome = await slow.run('greeter', { name: 'Ada' }, { timeoutMs: 3000, action: 'greet' });
      expect(outcome.error).toBeUndefined();
      expect(outcome.output).toMatchObject({ greeting: expect.stringContaining('Ada') });
    } finally {
      server.setFileDelay(0);
    }
  }, 30_000);
});
