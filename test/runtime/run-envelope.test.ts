import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeRegistry, openRegistry } from '../../src/runtime/node/index.ts';
import { runSkilldex } from '../helpers/cli.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';
import { buildFixtures, REPO_ROOT, tempDir } from './_registries.ts';

/** Envelopes, exit statuses and logs of real scripts, through the library and the CLI, over HTTP. */
let server: StaticServer;
let registry: NodeRegistry;
let cacheDir: string;

beforeAll(async () => {
  server = await serveDirectory(await buildFixtures());
  cacheDir = await tempDir('cache');
  registry = await openRegistry(server.url, { cacheDir });
});
afterAll(() => server.close());

const cli = (args: string[]) => runSkilldex(REPO_ROOT, ['run', ...args, '--registry', server.url, '--cache-dir', cacheDir], { ...process.env, NO_COLOR: '1' });

describe('script envelopes and exit statuses', () => {
  it('reports a Python crash as INTERNAL_ERROR with the traceback in details', async () => {
    const outcome = await registry.run('crasher', { mode: 'crash' }, { retry: 0 });
    expect(outcome.error?.code).toBe('INTERNAL_ERROR');
    expect(outcome.error?.message).toContain('ZeroDivisionError: division by zero');
    const details = outcome.error?.details as { exitCode: number; traceback: string };
    expect(details.exitCode).toBe(1);
    expect(details.traceback).toMatch(/^Traceback \(most recent call last\):/);
    expect(details.traceback).toContain('in divide');
  });

  it('does not trust a success envelope followed by a failing exit status', async () => {
    const outcome = await registry.run('crasher', { mode: 'lie' }, { retry: 0 });
    expect(outcome.status).toBe('error');
    expect(outcome.output).toBeNull();
    expect(outcome.error?.code).toBe('INTERNAL_ERROR');
    expect(outcome.error?.message).toContain('exit code 3');
    const result = await cli(['crasher', '--input', '{"mode":"lie"}', '--protocol', '--quiet']);
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ success: false, error: { code: 'INTERNAL_ERROR', details: { exitCode: 3 } } });
  });

  it('refuses a result nested 100,000 levels deep as INVALID_OUTPUT, and skilldex run prints the outcome', async () => {
    const outcome = await registry.run('crasher', { mode: 'deep' }, { retry: 0 });
    expect(outcome.status).toBe('error');
    expect(outcome.error).toMatchObject({ code: 'INVALID_OUTPUT', message: 'crasher printed JSON nested deeper than 64 levels on stdout' });
    const result = await cli(['crasher', '--input', '{"mode":"deep"}', '--quiet']);
    expect(result.status).toBe(1);
    expect(result.stderr).not.toContain('internal error');
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'error', error: { code: 'INVALID_OUTPUT' } });
  });

  it('refuses a result that is not UTF-8 as INVALID_OUTPUT, rather than changing its text', async () => {
    const outcome = await registry.run('crasher', { mode: 'latin1' }, { retry: 0 });
    expect(outcome.output).toBeNull();
    // `{"success": true, "data": {"city": "Montr` is 41 bytes, so the Latin-1 é is at offset 41.
    expect(outcome.error).toMatchObject({ code: 'INVALID_OUTPUT', message: 'crasher printed bytes that are not UTF-8 on stdout (the first at offset 41)' });
  });

  it('answers input, context or config nested 100,000 levels deep with INVALID_PARAM, without starting the skill', async () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    const asInput = await registry.run('crasher', { mode: deep });
    expect(asInput.error).toMatchObject({ code: 'INVALID_PARAM', message: 'input nests deeper than 64 levels' });
    for (const what of ['context', 'config'] as const) {
      const outcome = await registry.run('crasher', { mode: 'crash' }, { [what]: { deep } });
      expect(outcome.error).toMatchObject({ code: 'INVALID_PARAM', message: `the ${what} nests deeper than 64 levels` });
    }
    // Fifty levels are an input like any other: the schema answers it.
    const fifty = JSON.parse(`${'['.repeat(50)}${']'.repeat(50)}`);
    expect((await registry.run('crasher', { mode: fifty })).error).toMatchObject({ code: 'INVALID_PARAM', message: expect.stringContaining('input schema') });
  });

  it('answers a retry or timeout that is not a whole number with INVALID_PARAM, instead of running no try at all', async () => {
    for (const retry of [Number.NaN, -1, 1.5]) {
      const outcome = await registry.run('crasher', { mode: 'crash' }, { retry });
      expect(outcome.error, String(retry)).toMatchObject({ code: 'INVALID_PARAM', message: `retry must be a whole number of extra tries, 0 to 5, not ${String(retry)}` });
    }
    for (const timeoutMs of [Number.NaN, 0, 2.5]) {
      const outcome = await registry.run('crasher', { mode: 'crash' }, { timeoutMs });
      expect(outcome.error, String(timeoutMs)).toMatchObject({ code: 'INVALID_PARAM', message: `timeoutMs must be a whole number of milliseconds, at least 1, not ${String(timeoutMs)}` });
    }
    // A retry above the bound is clamped, as documented, and the skill runs.
    expect((await registry.run('crasher', { mode: 'crash' }, { retry: 9 })).error?.code).toBe('INTERNAL_ERROR');
  });

  it('lets a skill log more than the 10 MB result cap, keeping the tail of its logs', async () => {
    const chunks: string[] = [];
    let streamed = 0;
    const outcome = await registry.run('chatty', {}, { onStderr: (text) => { streamed += Buffer.byteLength(text); chunks.push(text.slice(-40)); } });
    expect(outcome).toMatchObject({ status: 'success', output: { ok: true } });
    expect(streamed).toBeGreaterThan(12 * 1024 * 1024);
    expect(chunks.join('')).toContain('last log line');
  });

  it("merges the script's own metadata with the runner's in the --protocol envelope", async () => {
    const library = await registry.run('chatty', {});
    expect(library.metadata).toEqual({ source: 'chatty', lines: 12 * 1024 + 1 });
    const result = await cli(['chatty', '--protocol', '--quiet']);
    expect(result.status).toBe(0);
    const envelope = JSON.parse(result.stdout);
    expect(envelope).toMatchObject({ success: true, data: { ok: true }, metadata: { source: 'chatty', lines: 12 * 1024 + 1 } });
    expect(typeof envelope.metadata.execution_time_ms).toBe('number');
  });

  it("keeps a thrown Error's code and message in a package's StepTrace, and the steps in --protocol output", async () => {
    const outcome = await registry.run('step-tracer', {});
    expect(outcome.status).toBe('partial');
    expect(outcome.intermediateSteps?.[1]?.error).toEqual({ code: 'EXTERNAL_SERVICE_ERROR', message: 'the lookup service refused the query' });
    const result = await cli(['step-tracer', '--protocol']);
    const envelope = JSON.parse(result.stdout);
    expect(envelope.intermediateSteps.map((s: { stepId: string }) => s.stepId)).toEqual(['fetch', 'lookup']);
    expect(envelope.intermediateSteps[1].error.message).toBe('the lookup service refused the query');
  });
});
