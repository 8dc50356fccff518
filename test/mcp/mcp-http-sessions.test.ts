/**
 * What becomes of the MCP server behind each HTTP initialize request: every request that does not
 * end in a session must leave nothing behind, or a client (or a web page hammering localhost) grows
 * the process without bound. In-process, so each server's closing can be counted; real HTTP on
 * 127.0.0.1, the real registry, the SDK's real transport.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackHost, serveMcpHttp, type McpHttpListener } from '../../src/mcp/http.ts';
import { LiveRegistry } from '../../src/mcp/live-registry.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import { openRegistry } from '../../src/runtime/node/open-registry.ts';
import { processesWith } from '../runtime/_processes.ts';
import { buildExamples, buildInto, tempDir } from '../runtime/_registries.ts';

let live: LiveRegistry;
let listener: McpHttpListener;
let created = 0;
let closed = 0;

beforeAll(async () => {
  const registry = await buildExamples();
  const cacheDir = await tempDir('mcp-http-sessions-cache');
  live = await LiveRegistry.open(() => openRegistry(registry, { cacheDir, configDir: cacheDir }));
  listener = await serveMcpHttp({
    host: '127.0.0.1',
    port: 0,
    newServer: (): Server => {
      created += 1;
      const server = createMcpServer(live);
      const previous = server.onclose;
      server.onclose = () => {
        closed += 1;
        previous?.();
      };
      return server;
    },
  });
}, 120_000);

afterAll(async () => {
  await listener?.close();
  live?.close();
});

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

describe('skilldex mcp --http, initialize requests that make no session', () => {
  it('closes the server made for an initialize the transport refuses (no Accept for event streams, another Content-Type)', async () => {
    const before = { created, closed };
    const refused = [
      await fetch(listener.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: initialize }),
      await fetch(listener.url, { method: 'POST', headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' }, body: initialize }),
    ];
    expect(await Promise.all(refused.map(async (res) => [res.status, ((await res.json()) as { error: { message: string } }).error.message]))).toEqual([
      [406, expect.stringMatching(/accept both application\/json and text\/event-stream/)],
      [415, expect.stringMatching(/Content-Type must be application\/json/)],
    ]);
    expect(created - before.created).toBe(2);
    // Each was made for nothing and is reachable from nowhere but the registry's change listeners.
    await expect.poll(() => closed - before.closed).toBe(2);
  });

  it('keeps the server of an initialize that made a session', async () => {
    const before = { created, closed };
    const res = await fetch(listener.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: initialize });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    await res.text();
    expect([created - before.created, closed - before.closed]).toEqual([1, 0]);
  });
});

describe('skilldex mcp --http on a loopback address other than 127.0.0.1', () => {
  it('knows every spelling of loopback, and nothing else', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', '127.255.255.254', 'localhost', 'LocalHost', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '128.0.0.1', '10.0.0.1', '::ffff:10.0.0.1', 'localhost.', 'localhost.evil.example', '127.0.0.1.nip.io', '']) expect(isLoopbackHost(host), host).toBe(false);
  });

  it('bound to 127.0.0.2, still refuses a request whose Host or Origin is not loopback (DNS rebinding)', async () => {
    const other = await serveMcpHttp({ host: '127.0.0.2', port: 0, newServer: () => createMcpServer(live) });
    try {
      expect(other.localOnly).toBe(true);
      const post = (headers: Record<string, string>) => fetch(other.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: initialize }).then(async (res) => [res.status, await res.text()] as const);
      const rebound = await post({ host: 'evil.example', origin: 'http://evil.example' });
      expect(rebound[0]).toBe(403);
      expect(JSON.parse(rebound[1]).error.message).toMatch(/not loopback/);
      expect((await post({ origin: 'https://evil.example' }))[0]).toBe(403);
      expect((await post({}))[0]).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('skilldex mcp --http, a session closed under its client', () => {
  it('answers the calls it still waits on with an error saying why, instead of leaving them to time out', async () => {
    const root = await tempDir('mcp-evict-root');
    const skill = join(root, 'skills', 'long-sleeper');
    await mkdir(join(skill, 'scripts'), { recursive: true });
    await writeFile(
      join(skill, 'SKILL.md'),
      ['---', 'name: long-sleeper', 'description: Test fixture. Sleeps far longer than any caller waits, so only a closed session can stop it early.', 'version: 1.0.0', 'actions:', '  - name: sleep', 'security:', '  timeout_ms: 60000', 'resources:', '  entry: ./scripts/sleep.sh', '---', '', '# Long sleeper', '', 'Sleeps `40.<tag>` seconds.', ''].join('\n'),
    );
    await writeFile(join(skill, 'scripts', 'sleep.sh'), ['#!/bin/sh', 'input=$(cat)', `tag=$(printf '%s' "$input" | sed -n 's/.*"tag" *: *"\\([0-9]*\\)".*/\\1/p')`, 'sleep "40.${tag:-0}"', `echo '{"success":true,"data":{}}'`, ''].join('\n'));
    const registry = await buildInto(root, 'mcp-evict');
    const cacheDir = await tempDir('mcp-evict-cache');
    const sleepy = await LiveRegistry.open(() => openRegistry(registry, { cacheDir, configDir: cacheDir }));
    const small = await serveMcpHttp({ host: '127.0.0.1', port: 0, maxSessions: 2, newServer: () => createMcpServer(sleepy, { allowRun: true }) });
    const client = new Client({ name: 'evicted', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(small.url)));
      const tag = String(Date.now() % 1_000_000);
      const call = client.callTool({ name: 'run_skill', arguments: { name: 'long-sleeper', input: { tag }, action: 'sleep' } }, undefined, { timeout: 60_000 }).then(
        () => 'answered',
        (error: Error) => error.message,
      );
      await expect.poll(() => processesWith(`40.${tag}`).length, { timeout: 10_000 }).toBeGreaterThan(0);
      // Two newer sessions: this one, used longest ago, is closed.
      for (let i = 0; i < 2; i++) {
        const res = await fetch(small.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: initialize });
        expect(res.status).toBe(200);
        await res.text();
      }
      const outcome = await Promise.race([call, new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5000))]);
      expect(outcome).toMatch(/the server closed this session: it keeps at most 2 sessions .*; initialize again and repeat the request/);
      await expect.poll(() => processesWith(`40.${tag}`).length, { timeout: 5_000 }).toBe(0);
    } finally {
      await client.close().catch(() => {});
      await small.close();
      sleepy.close();
    }
  }, 60_000);
});

