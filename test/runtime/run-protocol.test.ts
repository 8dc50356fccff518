import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeRegistry, openRegistry } from '../../src/runtime/node/index.ts';
import { buildFixtures, tempDir } from './_registries.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';

let server: StaticServer;
let registry: NodeRegistry;

beforeAll(async () => {
  server = await serveDirectory(await buildFixtures());
  registry = await openRegistry(server.url, { cacheDir: await tempDir('cache') });
});
afterAll(() => server.close());

/**
 * True while a process still runs. A killed process whose parent has not reaped it yet is a
 * zombie: `kill(pid, 0)` still succeeds, but it is dead. (In containers whose PID 1 does not reap
 * orphans, a killed grandchild stays a zombie.) So a `Z` state in /proc counts as gone.
 */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
};

describe('seed 004 protocol scripts', () => {
  it('kills a script that sleeps past its timeout together with the grandchild it forked', async () => {
    const started = performance.now();
    const outcome = await registry.run('sleeper', {});
    const elapsed = performance.now() - started;
    expect(outcome.status).toBe('error');
    expect(outcome.error?.code).toBe('TIMEOUT');
    expect(elapsed).toBeLessThan(10_000);
    const stderr = (outcome.error?.details as { stderr: string }).stderr;
    const [, child, grandchild] = /pids (\d+) (\d+)/.exec(stderr)?.map(Number) ?? [];
    expect(child).toBeGreaterThan(0);
    expect(grandchild).toBeGreaterThan(0);
    expect(alive(child as number)).toBe(false);
    expect(alive(grandchild as number)).toBe(false);
  });

  it('stops a script at the 10 MB output cap', async () => {
    const outcome = await registry.run('flood', {});
    expect(outcome.error?.code).toBe('OUTPUT_TOO_LARGE');
    expect(outcome.output).toBeNull();
  });

  it('reports non-JSON stdout as INVALID_OUTPUT', async () => {
    const outcome = await registry.run('not-json', {});
    expect(outcome.error?.code).toBe('INVALID_OUTPUT');
    expect(outcome.error?.message).toContain('hello, I am not JSON');
  });

  it('refuses an action the skill does not declare, without starting it', async () => {
    const outcome = await registry.run('env-probe', {}, { action: 'explode' });
    expect(outcome.error).toMatchObject({ code: 'UNKNOWN_ACTION', details: { supported_actions: ['probe'] } });
  });

  it("passes on a script's own UNKNOWN_ACTION and MISSING_PARAM", async () => {
    const unknown = await registry.run('greeter', { name: 'Ada' }, { action: 'wave' });
    expect(unknown.error).toMatchObject({ code: 'UNKNOWN_ACTION', message: 'Unknown action: wave', details: { supported_actions: ['greet'] } });
    const missing = await registry.run('greeter', {}, { action: 'greet' });
    expect(missing.error).toMatchObject({ code: 'MISSING_PARAM' });
  });

  it('validates input against the input schema, applying defaults', async () => {
    const ok = await registry.run('greeter', { name: 'Ada' }, { action: 'greet' });
    expect(ok).toMatchObject({ status: 'success', output: { greeting: 'Hello, Ada!' }, format: 'object' });
    const invalid = await registry.run('greeter', { name: '' }, { action: 'greet' });
    expect(invalid.error?.code).toBe('INVALID_PARAM');
    expect(invalid.error?.message).toContain('/name');
    const wrongType = await registry.run('greeter', { name: 7 }, { action: 'greet' });
    expect(wrongType.error?.code).toBe('INVALID_PARAM');
  });

  it('validates output against the output schema', async () => {
    const outcome = await registry.run('greeter', { name: 'wrong-shape' }, { action: 'greet' });
    expect(outcome.error?.code).toBe('INVALID_OUTPUT');
    expect(outcome.error?.message).toContain('/greeting');
  });

  it('hides the parent environment: secrets stay out, HOME and cwd are fresh folders', async () => {
    process.env.SKILLDEX_TEST_SECRET = 'sk-live-do-not-leak';
    process.env.AWS_SECRET_ACCESS_KEY = 'also-secret';
    try {
      const outcome = await registry.run('env-probe', {}, { context: { request_id: 'r-1' }, debug: true });
      expect(outcome.status).toBe('success');
      const data = outcome.output as { env: Record<string, string>; cwd: string; cwd_entries: string[]; request: unknown };
      expect(JSON.stringify(data)).not.toContain('sk-live-do-not-leak');
      expect(data.env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
      const allowed = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'SKILL_DEBUG', 'SKILL_DIR', 'PYTHONDONTWRITEBYTECODE', 'PYTHONIOENCODING', 'LC_CTYPE'];
      // A pyenv `python3` shim (a bash script) adds its own PYENV_* variables, PWD and SHLVL.
      const addedByInterpreter = /^(_?PYENV\w*|PWD|SHLVL|_)$/;
      expect(Object.keys(data.env).filter((k) => !allowed.includes(k) && !addedByInterpreter.test(k))).toEqual([]);
      for (const [key, value] of Object.entries(process.env)) {
        if (!allowed.includes(key) && !addedByInterpreter.test(key) && value && value.length > 3) expect(Object.values(data.env)).not.toContain(value);
      }
      expect(data.env.SKILL_DEBUG).toBe('1');
      expect(data.env.HOME).not.toBe(process.env.HOME);
      expect(data.cwd_entries).toEqual([]);
      expect(data.cwd.startsWith(data.env.SKILL_DIR as string)).toBe(false);
      expect(await readFile(join(data.env.SKILL_DIR as string, 'scripts/probe.py'), 'utf8')).toContain('Fixture');
      expect(data.request).toEqual({ action: 'probe', params: {}, context: { request_id: 'r-1' } });
    } finally {
      delete process.env.SKILLDEX_TEST_SECRET;
      delete process.env.AWS_SECRET_ACCESS_KEY;
    }
  });

  it('streams stderr to the caller and keeps stdout for the envelope', async () => {
    const lines: string[] = [];
    const outcome = await registry.run('env-probe', {}, { onStderr: (text) => lines.push(text) });
    expect(outcome.status).toBe('success');
    expect(lines.join('')).toContain('probe: running');
  });

  it('retries retryable failures up to retry times', async () => {
    const counter = join(await tempDir('flaky'), 'count');
    const failing = await registry.run('flaky', { counter, succeed_on: 3 }, { retry: 1 });
    expect(failing.error?.code).toBe('INTERNAL_ERROR');
    expect(await readFile(counter, 'utf8')).toBe('2');
    const counter2 = join(await tempDir('flaky'), 'count');
    const passing = await registry.run('flaky', { counter: counter2, succeed_on: 3 }, { retry: 2 });
    expect(passing).toMatchObject({ status: 'success', output: { calls: 3 } });
    expect(passing.warnings).toHaveLength(2);
  });

  it('returns SKILL_NOT_FOUND as an outcome', async () => {
    const outcome = await registry.run('no-such-skill', {});
    expect(outcome).toMatchObject({ status: 'error', output: null, error: { code: 'SKILL_NOT_FOUND' } });
  });
});

describe('module entries run through the harness', () => {
  it('maps a thrown error with a protocol code', async () => {
    const outcome = await registry.run('thrower', { mode: 'throw' });
    expect(outcome.error).toMatchObject({ code: 'DATA_NOT_FOUND', message: 'the fixture was told to fail' });
  });

  it("confines Node modules to their own folder with Node's permission model", async () => {
    const outcome = await registry.run('thrower', { mode: 'read-outside', path: '/etc/hostname' });
    expect(outcome.status).toBe('error');
    expect(outcome.error?.message).toMatch(/ERR_ACCESS_DENIED|permission|Access to this API has been restricted/i);
    expect((await registry.run('thrower', { mode: 'ok' })).output).toEqual({ ok: true });
  });

  it('rejects a result that does not match the output schema', async () => {
    const outcome = await registry.run('bad_output', {});
    expect(outcome.error?.code).toBe('INVALID_OUTPUT');
    expect(outcome.error?.message).toContain('/count');
  });

  it('checks required input before starting the process', async () => {
    const outcome = await registry.run('thrower', {});
    expect(outcome.error?.code).toBe('MISSING_PARAM');
    expect(outcome.error?.message).toContain("'mode'");
  });
});
