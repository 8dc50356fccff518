import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeRegistry, openRegistry } from '../../src/runtime/node/index.ts';
import { processesWith } from './_processes.ts';
import { buildFixtures, tempDir } from './_registries.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';

let server: StaticServer;
let registry: NodeRegistry;

beforeAll(async () => {
  server = await serveDirectory(await buildFixtures());
  registry = await openRegistry(server.url, { cacheDir: await tempDir('cache') });
});
afterAll(() => server.close());

describe('seed 004 protocol scripts', () => {
  it('kills a script that sleeps past its timeout together with its grandchildren, setsid ones included', async () => {
    const tag = String(Date.now());
    const started = performance.now();
    const outcome = await registry.run('sleeper', { tag });
    const elapsed = performance.now() - started;
    expect(outcome.status).toBe('error');
    expect(outcome.error?.code).toBe('TIMEOUT');
    // The message names the skill's timeout, not what was left of it once the process started.
    expect(outcome.error?.message).toContain(`did not finish within ${(await registry.manifest('sleeper')).timeoutMs} ms`);
    expect(elapsed).toBeLessThan(10_000);
    expect((outcome.error?.details as { stderr: string }).stderr).toMatch(/started \d+ \d+/);
    // The kernel tears the sandbox's PID namespace down when its first process dies; give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(processesWith(`60.${tag}`)).toEqual([]);
  });

  it('treats the timeout as a deadline for the whole run, retries included', async () => {
    const started = performance.now();
    // Four tries of a script that always times out would take 4 × 1.5 s without a shared deadline.
    const outcome = await registry.run('sleeper', { tag: '1' }, { retry: 3, timeoutMs: 1500 });
    const elapsed = performance.now() - started;
    expect(outcome.error?.code).toBe('TIMEOUT');
    expect(elapsed).toBeLessThan(3000);
    expect(outcome.error?.message).toContain('the timeout covers retries');
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
      const allowed = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'SKILL_DEBUG', 'SKILL_DIR', 'PYTHONDONTWRITEBYTECODE', 'PYTHONIOENCODING', 'LC_CTYPE', 'SKILLDEX_SERVICES_FD'];
      // A pyenv `python3` shim (a bash script) adds its own PYENV_* variables, PWD and SHLVL.
      const addedByInterpreter = /^(_?PYENV\w*|PWD|SHLVL|_)$/;
      expect(Object.keys(data.env).filter((k) => !allowed.includes(k) && !addedByInterpreter.test(k))).toEqual([]);
      for (const [key, value] of Object.entries(process.env)) {
        if (!allowed.includes(key) && !addedByInterpreter.test(key) && value && value.length > 3) expect(Object.values(data.env)).not.toContain(value);
      }
      expect(data.env.SKILL_DEBUG).toBe('1');
      // The sandbox's own view: the skill at /skill, a fresh work folder as cwd and HOME.
      expect(data.env.HOME).toBe('/work');
      expect(data.cwd).toBe('/work');
      expect(data.cwd_entries).toEqual([]);
      expect(data.env.SKILL_DIR).toBe('/skill');
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

  // The fixture counts its calls in a host file, which the sandbox rightly forbids; retries do not
  // depend on confinement, so this one runs unconfined.
  it('retries retryable failures up to retry times', async () => {
    const counter = join(await tempDir('flaky'), 'count');
    const failing = await registry.run('flaky', { counter, succeed_on: 3 }, { retry: 1, unsandboxed: true });
    expect(failing.error?.code).toBe('INTERNAL_ERROR');
    expect(await readFile(counter, 'utf8')).toBe('2');
    const counter2 = join(await tempDir('flaky'), 'count');
    const passing = await registry.run('flaky', { counter: counter2, succeed_on: 3 }, { retry: 2, unsandboxed: true });
    expect(passing).toMatchObject({ status: 'success', output: { calls: 3 } });
    // Two failed tries, and the notice that the run was unconfined.
    expect(passing.warnings).toHaveLength(3);
  });

  it('returns SKILL_NOT_FOUND as an outcome', async () => {
    const outcome = await registry.run('no-such-skill', {});
    expect(outcome).toMatchObject({ status: 'error', output: null, error: { code: 'SKILL_NOT_FOUND' } });
  });

  it('suggests the skill a misspelt name meant', async () => {
    const outcome = await registry.run('flakey', {});
    expect(outcome.error).toMatchObject({ code: 'SKILL_NOT_FOUND', details: { hint: expect.stringMatching(/^did you mean 'flaky'/) } });
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
    expect(outcome.error?.code).toBe('PERMISSION_DENIED');
    expect(outcome.error?.message).toMatch(/^the sandbox does not allow FileSystem\w* \(\/etc\/hostname\): a skill's Node code reads only its own folder/);
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
