import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MemoryService, memoryStore } from '../../src/runtime/context-services.ts';
import { type NodeRegistry, openRegistry } from '../../src/runtime/node/index.ts';
import { buildFixtures, tempDir } from './_registries.ts';
import { runSkilldex } from '../helpers/cli.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';

/**
 * The execution context, memory writes and the results cache, with real skills in real sandboxed
 * processes from a registry served on 127.0.0.1: a TypeScript module (context_probe) calling
 * ctx.memory / ctx.session / ctx.scratch over the service channel, a Python protocol script
 * (remember-py) suggesting memory writes, and a shell script (cached-clock) whose every execution
 * answers a new value, through the library and the CLI.
 */
let server: StaticServer;
let registry: NodeRegistry;
let cacheDir: string;

beforeAll(async () => {
  server = await serveDirectory(await buildFixtures());
  cacheDir = await tempDir('context-cache');
  registry = await openRegistry(server.url, { cacheDir });
});
afterAll(async () => {
  await server.close();
});

const output = (o: { output: unknown }) => o.output as Record<string, any>;

describe('the execution context', () => {
  it('gives a TypeScript module memory, a session kept by id and a per-run scratch, all over the channel', async () => {
    const first = await registry.run('context_probe', { remember: 'the user prefers oat milk in coffee' }, { sessionId: 'chat-1' });
    expect(first.error).toBeUndefined();
    expect(output(first)).toMatchObject({ written: expect.stringMatching(/^m-/), sessionRuns: 1, scratchKeys: ['seen'] });

    const second = await registry.run('context_probe', { query: 'oat milk' }, { sessionId: 'chat-1' });
    expect(output(second).sessionRuns).toBe(2);
    expect(output(second).hits).toEqual([expect.objectContaining({ id: output(first).written, snippet: 'the user prefers oat milk in coffee', type: 'fact', importance: 3, path: `memory/${output(first).written}` })]);

    // Another session, and no session at all, start empty; the memory is shared.
    expect(output(await registry.run('context_probe', {}, { sessionId: 'chat-2' })).sessionRuns).toBe(1);
    expect(output(await registry.run('context_probe', {})).sessionRuns).toBe(1);
    // The stores live under the cache folder, written by the runner, not the sandbox.
    expect(await readFile(join(cacheDir, 'memory', 'entries.jsonl'), 'utf8')).toContain('oat milk');
    expect((await readdir(join(cacheDir, 'sessions'))).every((f) => /^[0-9a-f]{64}\.json$/.test(f))).toBe(true);
  });

  it('refuses a malformed service call with INVALID_PARAM, naming the argument', async () => {
    const outcome = await registry.run('context_probe', { bad: true });
    expect(output(outcome)).toMatchObject({ refused: true, code: 'INVALID_PARAM', message: expect.stringContaining('session.set: args.0') });
  });

  it("uses the caller's own memory service and session store", async () => {
    const written: unknown[] = [];
    const memory: MemoryService = {
      search: async (query) => [{ id: 'x1', snippet: `from the caller: ${query}`, score: 1, path: 'memory/x1' }],
      write: async (entry) => (written.push(entry), { ...entry, id: 'x2' }),
    };
    const values = new Map<string, unknown>([['runs', 41]]);
    const session = { get: async (k: string) => values.get(k) ?? null, set: async (k: string, v: unknown) => void values.set(k, v), delete: async (k: string) => values.delete(k), keys: async () => [...values.keys()] };
    const outcome = await registry.run('context_probe', { remember: 'r', query: 'q' }, { memory, session });
    expect(output(outcome)).toMatchObject({ written: 'x2', hits: [{ snippet: 'from the caller: q' }], sessionRuns: 42 });
    expect(values.get('runs')).toBe(42);
    expect(written).toEqual([{ type: 'fact', importance: 3, content: 'r' }]);
  });
});

describe('memoryStore (in memory, for hosts without a cache folder)', () => {
  it('ranks entries like the file store and commits memoryWrites to it', async () => {
    const memory = memoryStore();
    await memory.write({ content: 'prefers green tea' });
    const outcome = await registry.run('remember-py', { fact: 'drinks flat whites' }, { memory });
    expect(outcome.memoryCommitted?.[0]).toMatchObject({ id: 'm-2', content: 'drinks flat whites' });
    expect((await memory.search('whites')).map((hit) => hit.snippet)).toEqual(['drinks flat whites']);
    expect((await memory.search('tea')).map((hit) => hit.path)).toEqual(['memory/m-1']);
  });
});

describe('memoryWrites', () => {
  it("commits a Python script's ABP-form writes, keeps type and importance, owns them by the context's user, and reports them", async () => {
    const own = await tempDir('memory-py');
    const reg = await openRegistry(server.url, { cacheDir: own });
    const outcome = await reg.run('remember-py', { fact: 'likes lattes' }, { context: { user_id: 'u-7' } });
    expect(outcome.status).toBe('success');
    expect(outcome.memoryCommitted).toEqual([expect.objectContaining({ type: 'preference', importance: 0.8, content: 'likes lattes', ownerType: 'user', ownerId: 'u-7', skill: 'remember-py', metadata: { source: 'skill', category: 'drink' } })]);
    expect(outcome.warnings).toEqual([expect.stringContaining("memoryWrites[1] was not written: type")]);
    const stored = (await readFile(join(own, 'memory', 'entries.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(stored).toEqual([expect.objectContaining({ id: outcome.memoryCommitted?.[0]?.id, content: 'likes lattes' })]);
    // … and a later run finds them.
    const found = await reg.run('context_probe', { query: 'lattes' });
    expect(output(found).hits[0]).toMatchObject({ snippet: 'likes lattes', importance: 0.8 });
    // A Python script reaches the same memory over the channel on fd 3, without the harness.
    const recalled = await reg.run('remember-py', { fact: 'lattes', recall: true });
    expect(recalled.error).toBeUndefined();
    expect(output(recalled).recalled).toEqual([expect.objectContaining({ snippet: 'likes lattes', type: 'preference' })]);
  });
});

describe('the results cache', () => {
  it('answers a second identical run from the cache, keyed by canonical input, and runs again with cache: false', async () => {
    const first = await registry.run('cached-clock', { label: 'a', fail: false });
    expect(first.cache).toMatchObject({ hit: false });
    const second = await registry.run('cached-clock', { fail: false, label: 'a' });
    expect(second.cache).toEqual({ hit: true, storedAt: first.cache?.storedAt, expiresAt: first.cache?.expiresAt });
    expect(second.output).toEqual(first.output);
    expect(Date.parse(first.cache!.expiresAt) - Date.parse(first.cache!.storedAt)).toBe(60_000);

    const other = await registry.run('cached-clock', { label: 'b' });
    expect(other.cache?.hit).toBe(false);
    const fresh = await registry.run('cached-clock', { label: 'a', fail: false }, { cache: false });
    expect(fresh.cache).toBeUndefined();
    expect(output(fresh).ns).not.toBe(output(first).ns);
    // A different context is a different input.
    expect((await registry.run('cached-clock', { label: 'a', fail: false }, { context: { user_id: 'u' } })).cache?.hit).toBe(false);
  });

  it('never caches a failure, nor a skill that is not cacheable, and drops an expired result', async () => {
    const own = await tempDir('results');
    const reg = await openRegistry(server.url, { cacheDir: own });
    const failure = await reg.run('cached-clock', { fail: true });
    expect(failure.status).toBe('error');
    expect(failure.cache).toBeUndefined();
    expect((await reg.run('greeter', { name: 'Ada' })).cache).toBeUndefined();
    await expect(readdir(join(own, 'results'))).rejects.toThrow();

    const stored = await reg.run('cached-clock', { label: 'old' });
    const [file] = await readdir(join(own, 'results'));
    const path = join(own, 'results', file as string);
    const record = JSON.parse(await readFile(path, 'utf8'));
    await writeFile(path, JSON.stringify({ ...record, expiresAt: Date.now() - 1 }));
    const again = await reg.run('cached-clock', { label: 'old' });
    expect(again.cache?.hit).toBe(false);
    expect(output(again).ns).not.toBe(output(stored).ns);
  });
});

describe('the CLI', () => {
  const cli = (args: string[]) => runSkilldex(cacheDir, [...args, '--registry', server.url, '--cache-dir', cacheDir]);

  it('passes --context and --config (inline or @file) and --session to the skill', async () => {
    const file = join(await tempDir('cli-context'), 'context.json');
    await writeFile(file, '{"user_id": "cli-user"}');
    const remember = await cli(['run', 'remember-py', '--input', '{"fact": "reads on Sundays"}', '--context', `@${file}`, '--config', '{"x": 1}', '--quiet']);
    expect(remember.status).toBe(0);
    expect(JSON.parse(remember.stdout).memoryCommitted[0]).toMatchObject({ ownerId: 'cli-user', content: 'reads on Sundays' });

    const a = JSON.parse((await cli(['run', 'context_probe', '--session', 'cli-s', '--quiet'])).stdout);
    const b = JSON.parse((await cli(['run', 'context_probe', '--input', '{"query": "Sundays"}', '--session', 'cli-s', '--quiet'])).stdout);
    expect([a.output.sessionRuns, b.output.sessionRuns]).toEqual([1, 2]);
    expect(b.output.hits[0].snippet).toBe('reads on Sundays');
  });

  it('serves a cache hit and honours --no-cache', async () => {
    const first = JSON.parse((await cli(['run', 'cached-clock', '--input', '{"label": "cli"}', '--quiet'])).stdout);
    const hit = JSON.parse((await cli(['run', 'cached-clock', '--input', '{"label": "cli"}', '--quiet'])).stdout);
    const miss = JSON.parse((await cli(['run', 'cached-clock', '--input', '{"label": "cli"}', '--no-cache', '--quiet'])).stdout);
    expect(hit).toMatchObject({ output: first.output, cache: { hit: true } });
    expect(miss.cache).toBeUndefined();
    expect(miss.output.ns).not.toBe(first.output.ns);
  });

  it('rejects a bad --context or --config with exit 2, the flag and a hint', async () => {
    const notJson = await cli(['run', 'greeter', '--context', '{user: 1}']);
    expect(notJson.status).toBe(2);
    expect(notJson.stderr).toContain('error --context is not JSON: ');
    expect(notJson.stderr).toMatch(/hint: quote it for the shell/);
    const array = await cli(['run', 'greeter', '--config', '[1]']);
    expect(array.status).toBe(2);
    expect(array.stderr).toContain('error --config must be a JSON object, not an array\n');
    const missing = await cli(['run', 'greeter', '--context', '@/nonexistent/ctx.json']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('cannot read --context @/nonexistent/ctx.json: no such file or folder (ENOENT)');
    expect(missing.stderr).toContain(`hint: give a JSON object inline (--context '{"user_id": "u1"}') or a readable file as @path`);
    // A skill's config is not the caller's context: its example is no user id.
    const missingConfig = await cli(['run', 'greeter', '--config', '@/nonexistent/config.json']);
    expect(missingConfig.status).toBe(2);
    expect(missingConfig.stderr).toContain(`hint: give a JSON object inline (--config '{"key": "value"}') or a readable file as @path`);
    const atFile = await cli(['run', 'greeter', '--input', '@input.json']);
    expect(atFile.status).toBe(2);
    expect(atFile.stderr).toContain('hint: to read the input from a file, pass --input-file input.json');
    const noInput = await cli(['run', 'greeter', '--input-file', '/nonexistent/input.json']);
    expect(noInput.status).toBe(2);
    expect(noInput.stderr).toContain('cannot read --input-file /nonexistent/input.json: no such file or folder (ENOENT)\nhint: give the path of a readable file');
    const timeout = await cli(['run', 'greeter', '--timeout', 'abc']);
    expect(timeout.status).toBe(2);
    expect(timeout.stderr).toMatch(/--timeout must be a whole number of milliseconds[^\n]*\nhint: e\.g\. --timeout 60000/);
    expect(`${notJson.stdout}${notJson.stderr}`).not.toMatch(/\n\s+at /);
  });

  it('lists every skill with list and search "", and says when --limit cut a search short', async () => {
    const total = registry.list().length;
    expect(total).toBeGreaterThan(10);
    const list = JSON.parse((await cli(['list', '--json'])).stdout);
    expect(list.matched_skills).toHaveLength(total);
    expect(list.matched_skills.map((s: { name: string }) => s.name)).toEqual([...registry.list().map((s) => s.name)].sort());
    const plain = await cli(['list']);
    expect(plain.stdout.trim().split('\n')).toHaveLength(total);
    const everything = await cli(['search', '', '--json']);
    expect(JSON.parse(everything.stdout).matched_skills).toHaveLength(total);
    const filtered = JSON.parse((await cli(['list', '--json', '--format', 'skill-json'])).stdout);
    expect(filtered.matched_skills.map((s: { name: string }) => s.name)).toContain('context_probe');
    expect(filtered.matched_skills.length).toBeLessThan(total);
    const cut = await cli(['search', '', '--limit', '3']);
    expect(cut.stdout.trim().split('\n')).toHaveLength(3);
    expect(cut.stderr).toContain(`${total - 3} more not shown (--limit 3)`);
  });
});
