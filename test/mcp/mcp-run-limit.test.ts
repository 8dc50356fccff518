/**
 * What one MCP client can make the server run at once: past the cap on runs in flight (server-wide,
 * and per session over HTTP) a call is answered at once with a tool error naming the limit and the
 * flag that raises it, and starts no process. Real CLI on stdio, the SDK's real clients, real
 * sandboxed processes counted in /proc.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveMcpHttp } from '../../src/mcp/http.ts';
import { LiveRegistry } from '../../src/mcp/live-registry.ts';
import { RunLimit } from '../../src/mcp/run-limit.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import { openRegistry } from '../../src/runtime/node/open-registry.ts';
import { processesWith } from '../runtime/_processes.ts';
import { buildInto, tempDir } from '../runtime/_registries.ts';
import { connectStdio, textOf } from './_mcp.ts';

let registryDir: string;

beforeAll(async () => {
  const root = await tempDir('mcp-run-limit-root');
  const skill = join(root, 'skills', 'sleeper');
  await mkdir(join(skill, 'scripts'), { recursive: true });
  await writeFile(
    join(skill, 'SKILL.md'),
    ['---', 'name: sleeper', 'description: Test fixture. Sleeps for the seconds it is given, so calls stay in flight while the test counts them.', 'version: 1.0.0', 'actions:', '  - name: sleep', 'security:', '  timeout_ms: 60000', 'resources:', '  entry: ./scripts/sleep.sh', '---', '', '# Sleeper', '', 'Sleeps `s` seconds (a string of digits and one dot).', ''].join('\n'),
  );
  await writeFile(join(skill, 'scripts', 'sleep.sh'), ['#!/bin/sh', 'input=$(cat)', `s=$(printf '%s' "$input" | sed -n 's/.*"s" *: *"\\([0-9.]*\\)".*/\\1/p')`, 'sleep "${s:-0}"', `echo '{"success":true,"data":{}}'`, ''].join('\n'));
  const mapper = join(root, 'skills', 'mapper');
  await mkdir(join(mapper, 'scripts'), { recursive: true });
  await writeFile(
    join(mapper, 'SKILL.md'),
    ['---', 'name: mapper', 'description: Test fixture. Maps the megabytes of address space it is given and says whether it could; it declares no memory limit.', 'version: 1.0.0', 'actions:', '  - name: map', 'security:', '  timeout_ms: 30000', 'resources:', '  entry: ./scripts/map.py', '---', '', '# Mapper', '', 'Maps `mb` MB.', ''].join('\n'),
  );
  await writeFile(
    join(mapper, 'scripts', 'map.py'),
    ['import json, mmap, sys', 'mb = json.load(sys.stdin)["params"]["mb"]', 'try:', '    mmap.mmap(-1, mb * 1024 * 1024)', '    print(json.dumps({"success": True, "data": {"map": "ok"}}))', 'except OSError as error:', '    print(json.dumps({"success": True, "data": {"map": "error: " + type(error).__name__}}))', ''].join('\n'),
  );
  registryDir = await buildInto(root, 'mcp-run-limit');
}, 120_000);

/** A sleep length no other test uses, so its processes can be counted by their command line. */
const uniqueSleep = (): string => `30.${String(Date.now() % 1_000_000).padStart(6, '0')}${Math.floor(Math.random() * 1000)}`;

const settle = <T>(promise: Promise<T>): Promise<T | Error> => promise.catch((error: Error) => error);

describe('skilldex mcp --allow-run, many calls at once on stdio', () => {
  let server: Awaited<ReturnType<typeof connectStdio>>;
  beforeAll(async () => {
    server = await connectStdio(['--registry', registryDir, '--cache-dir', await tempDir('mcp-run-limit-cache'), '--allow-run', '--expose-skills', '--poll', '0', '--max-runs', '3', '--default-memory-mb', '512']);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('runs at most --max-runs skills; the calls past it are answered at once, naming the limit, and start nothing', async () => {
    const s = uniqueSleep();
    const controller = new AbortController();
    const calls = Array.from({ length: 10 }, (_, i) =>
      settle(server.client.callTool({ name: i % 2 === 0 ? 'run_skill' : 'sleeper__sleep', arguments: i % 2 === 0 ? { name: 'sleeper', action: 'sleep', input: { s } } : { s } }, undefined, { signal: controller.signal, timeout: 60_000 })),
    );
    await expect.poll(() => processesWith(s).length, { timeout: 15_000 }).toBe(3);
    // The refused ones were answered without waiting for any run.
    const answered = await Promise.all(calls.map((call) => Promise.race([call, new Promise((resolve) => setTimeout(() => resolve('pending'), 2000))])));
    const refused = answered.filter((result): result is CallToolResult => typeof result === 'object' && !(result instanceof Error));
    expect(answered.filter((result) => result === 'pending')).toHaveLength(3);
    expect(refused).toHaveLength(7);
    for (const result of refused) {
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/the server already runs 3 skills, the most it runs at once; wait for one to finish and call again, or ask the server's operator to raise --max-runs \[RATE_LIMITED\]/);
    }
    // Still exactly three: no refused call started a process after its answer.
    expect(processesWith(s)).toHaveLength(3);
    controller.abort('done counting');
    await Promise.all(calls);
    await expect.poll(() => processesWith(s).length, { timeout: 5_000 }).toBe(0);
    // The slots came back with the cancelled runs (each once its run folder is removed, just after its processes are gone).
    await expect.poll(async () => ((await server.client.callTool({ name: 'run_skill', arguments: { name: 'sleeper', action: 'sleep', input: { s: '0' } } })) as CallToolResult).isError ?? false, { timeout: 5_000 }).toBe(false);
  }, 60_000);

  it('runs a skill that declares no memory_mb under --default-memory-mb', async () => {
    const run = async (mb: number) => ((await server.client.callTool({ name: 'run_skill', arguments: { name: 'mapper', action: 'map', input: { mb } } })) as CallToolResult).structuredContent?.output;
    expect(await run(1024)).toEqual({ map: 'error: OSError' });
    expect(await run(256)).toEqual({ map: 'ok' });
  }, 60_000);

  it('takes no slot for calls that run nothing', async () => {
    const s = uniqueSleep();
    const controller = new AbortController();
    const running = Array.from({ length: 3 }, () => settle(server.client.callTool({ name: 'run_skill', arguments: { name: 'sleeper', action: 'sleep', input: { s } } }, undefined, { signal: controller.signal, timeout: 60_000 })));
    await expect.poll(() => processesWith(s).length, { timeout: 15_000 }).toBe(3);
    const listed = (await server.client.callTool({ name: 'list_skills', arguments: {} })) as CallToolResult;
    expect(listed.isError).toBeFalsy();
    controller.abort('done');
    await Promise.all(running);
  }, 60_000);
});

describe('skilldex mcp --http --allow-run, runs per session', () => {
  it('holds each session to its share of the server-wide cap, so one client cannot take every slot', async () => {
    const cacheDir = await tempDir('mcp-run-limit-http-cache');
    const live = await LiveRegistry.open(() => openRegistry(registryDir, { cacheDir, configDir: cacheDir }));
    const runLimit = new RunLimit({ maxRuns: 3, maxRunsPerSession: 2 });
    const listener = await serveMcpHttp({ host: '127.0.0.1', port: 0, newServer: () => createMcpServer(live, { allowRun: true, runLimit, runLimitPerSession: true }) });
    const [a, b] = [new Client({ name: 'greedy', version: '1' }), new Client({ name: 'modest', version: '1' })];
    const controller = new AbortController();
    try {
      await a.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
      await b.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
      const s = uniqueSleep();
      const run = (client: Client) => settle(client.callTool({ name: 'run_skill', arguments: { name: 'sleeper', action: 'sleep', input: { s } } }, undefined, { signal: controller.signal, timeout: 60_000 }));
      const greedy = Array.from({ length: 4 }, () => run(a));
      await expect.poll(() => processesWith(s).length, { timeout: 15_000 }).toBe(2);
      const refusedA = (await Promise.all(greedy.map((call) => Promise.race([call, new Promise((resolve) => setTimeout(() => resolve('pending'), 1000))])))).filter((r) => r !== 'pending') as CallToolResult[];
      expect(refusedA.map(textOf)).toEqual([
        expect.stringMatching(/this session already runs 2 skills, the most one session may run at once; .*--max-runs-per-session \[RATE_LIMITED\]/),
        expect.stringMatching(/this session already runs 2 skills/),
      ]);
      // The other client still gets the slot the first could not take, and then the server is full.
      const modest = [run(b), run(b)];
      await expect.poll(() => processesWith(s).length, { timeout: 15_000 }).toBe(3);
      const refusedB = (await Promise.all(modest.map((call) => Promise.race([call, new Promise((resolve) => setTimeout(() => resolve('pending'), 1000))])))).filter((r) => r !== 'pending') as CallToolResult[];
      expect(refusedB.map(textOf)).toEqual([expect.stringMatching(/the server already runs 3 skills, the most it runs at once; .*--max-runs \[RATE_LIMITED\]/)]);
      controller.abort('done counting');
      await Promise.all([...greedy, ...modest]);
      await expect.poll(() => processesWith(s).length, { timeout: 5_000 }).toBe(0);
      await expect.poll(() => runLimit.inFlight, { timeout: 5_000 }).toBe(0);
    } finally {
      controller.abort('done');
      await a.close().catch(() => {});
      await b.close().catch(() => {});
      await listener.close();
      live.close();
    }
  }, 90_000);
});
