import { cp } from 'node:fs/promises';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EmptyResultSchema, type McpError, PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';
import { buildExamples, buildFixtures, tempDir } from '../runtime/_registries.ts';
import { call, startHttpServer, textOf } from './_mcp.ts';

let served: string;
let fixtures: string;
let registry: StaticServer;
let server: Awaited<ReturnType<typeof startHttpServer>>;

beforeAll(async () => {
  served = await tempDir('mcp-served');
  await cp(await buildExamples(), served, { recursive: true });
  fixtures = await buildFixtures();
  registry = await serveDirectory(served);
  server = await startHttpServer(['--registry', registry.url, '--cache-dir', await tempDir('mcp-http-cache'), '--poll', '0']);
}, 120_000);

afterAll(async () => {
  await registry?.close();
});

/** A raw HTTP request to the server, for what the SDK client never sends. */
const raw = (url: string, options: { method: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string; session?: string }> =>
  new Promise((resolve, reject) => {
    const req = request(url, { method: options.method, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...options.headers } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      const session = res.headers['mcp-session-id'];
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ...(typeof session === 'string' ? { session } : {}) }));
    });
    req.on('error', reject);
    req.end(options.body);
  });

describe('skilldex mcp --http (Streamable HTTP, SDK client)', () => {
  it('binds 127.0.0.1 and serves tools, resources and prompts', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'skilldex-http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('search_skills');
      const found = await call(client, 'search_skills', { query: '中文 校对' });
      expect((found.structuredContent as { results: { name: string }[] }).results[0]?.name).toBe('chinese-proofreading');
      const read = await client.readResource({ uri: 'skill://unit-converter/SKILL.md' });
      expect(read.contents[0]).toMatchObject({ text: expect.stringMatching(/^---\nname: unit-converter\n/) });
      const prompt = await client.getPrompt({ name: 'semver-tool' });
      expect(prompt.messages[0]?.content).toMatchObject({ type: 'text', text: expect.stringMatching(/^# Skill: semver-tool\n\n/) });
      const bad = await call(client, 'load_skill_asset', { name: 'unit-converter', path: '../../index.json' });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/\[INVALID_PATH\]/);
    } finally {
      await client.close();
    }
  });

  it('tells a connected client when the registry index changes (tools, resources and prompts list_changed)', async () => {
    const client = new Client({ name: 'skilldex-http-watch', version: '1.0.0' });
    const seen = new Set<string>();
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void seen.add('tools'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void seen.add('resources'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => void seen.add('prompts'));
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const before = (await call(client, 'list_skills')).structuredContent as { total: number; skills: { name: string }[] };
      expect(before.total).toBe(20);
      expect(seen.size).toBe(0);
      // Publish another build over the served folder: a new index.json (new ETag) and its files.
      await cp(fixtures, served, { recursive: true });
      const after = (await call(client, 'list_skills')).structuredContent as { total: number; skills: { name: string }[] };
      expect(after.skills.map((s) => s.name)).toContain('greeter');
      expect(after.skills.map((s) => s.name)).not.toContain('unit-converter');
      await expect.poll(() => [...seen].sort(), { timeout: 10_000 }).toEqual(['prompts', 'resources', 'tools']);
      // The index is revalidated with ETag: unchanged, it is answered 304.
      const indexRequests = registry.requests.filter((r) => r.path === '/index.json');
      expect(indexRequests.some((r) => r.status === 304)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('refuses non-loopback Host headers, requests without a session, and oversized bodies', async () => {
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const rebinding = await raw(server.url, { method: 'POST', headers: { host: 'evil.example' }, body: initialize });
    expect(rebinding.status).toBe(403);
    expect(JSON.parse(rebinding.body).error.message).toMatch(/loopback/);
    const foreignOrigin = await raw(server.url, { method: 'POST', headers: { origin: 'https://evil.example' }, body: initialize });
    expect(foreignOrigin.status).toBe(403);
    const noSession = await raw(server.url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    expect(noSession.status).toBe(400);
    expect(JSON.parse(noSession.body).error.message).toBe('no session: the first request must be initialize');
    // MCP forbids batching initialize: the refusal says so rather than that initialize is missing.
    const batched = await raw(server.url, { method: 'POST', body: `[${initialize},${initialize.replace('"id":1', '"id":2')}]` });
    expect(batched.status).toBe(400);
    expect(JSON.parse(batched.body).error.message).toBe('no session: initialize must be sent alone, not in a batch');
    const huge = await raw(server.url, { method: 'POST', body: `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"x":"${'z'.repeat(5 * 1024 * 1024)}"}}` });
    expect(huge.status).toBe(413);
    const notJson = await raw(server.url, { method: 'POST', body: '{not json' });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error.code).toBe(-32700);
    const ok = await raw(server.url, { method: 'POST', body: initialize });
    expect(ok.status).toBe(200);
  });

  it('answers 413 from Content-Length alone, before inviting the body with 100 Continue', async () => {
    const answer = await new Promise<{ status: number; continued: boolean }>((resolve, reject) => {
      let continued = false;
      const req = request(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': String(100 * 1024 * 1024), expect: '100-continue' } }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, continued });
        req.destroy();
      });
      req.on('continue', () => (continued = true));
      req.on('error', (error) => (continued ? reject(error) : undefined));
      req.flushHeaders();
    });
    expect(answer).toEqual({ status: 413, continued: false });
  }, 10_000);

  it('keeps at most 64 sessions, closing the one used longest ago', async () => {
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const sessions: string[] = [];
    for (let i = 0; i < 70; i++) sessions.push((await raw(server.url, { method: 'POST', body: initialize })).session as string);
    const list = (session: string) => raw(server.url, { method: 'POST', headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    expect((await list(sessions[0]!)).status).toBe(404);
    expect((await list(sessions[5]!)).status).toBe(404);
    expect((await list(sessions[69]!)).status).toBe(200);
    expect((await list(sessions[6]!)).status).toBe(200);
  });

  it('warns on stderr when bound to an address other machines reach', async () => {
    const open = await startHttpServer(['--registry', registry.url, '--cache-dir', await tempDir('mcp-http-open'), '--poll', '0', '--host', '0.0.0.0', '--allow-run']);
    try {
      // Before the "server on" line, which is what a supervisor (or this helper) waits for.
      expect(open.stderr()).toMatch(/warning: 0\.0\.0\.0 is not loopback: .*no authentication.*and may run skills\n(?:.*\n)*?skilldex MCP server on /);
    } finally {
      await open.stop();
    }
    expect(server.stderr()).not.toContain('warning');
  });

  it('answers params of the wrong shape with -32602 naming each problem, not an internal error with a JSON dump', async () => {
    const client = new Client({ name: 'skilldex-http-params', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      // The SDK's client checks nothing it sends; a buggy or hostile one sends this.
      const refused = async (method: string, params: unknown) => client.request({ method, params } as never, EmptyResultSchema).then(() => undefined, (error: McpError) => ({ code: error.code, message: error.message }));
      expect(await refused('tools/call', { name: 5 })).toEqual({ code: -32602, message: 'MCP error -32602: tools/call: invalid params [INVALID_PARAM]\n- params.name: Invalid input: expected string, received number' });
      expect(await refused('tools/call', { name: 'load_skill', arguments: ['pdf'] })).toEqual({ code: -32602, message: expect.stringMatching(/\n- params\.arguments: Invalid input: expected record, received array$/) });
      expect(await refused('resources/read', { uri: 5 })).toEqual({ code: -32602, message: expect.stringMatching(/resources\/read: invalid params \[INVALID_PARAM\]\n- params\.uri: /) });
      expect(await refused('prompts/get', {})).toEqual({ code: -32602, message: expect.stringMatching(/\n- params\.name: Invalid input: expected string, received undefined$/) });
      expect(await refused('resources/list', { cursor: 7 })).toEqual({ code: -32602, message: expect.stringMatching(/\n- params\.cursor: /) });
      // Well-formed requests still go through.
      expect((await call(client, 'search_skills', { query: 'semver', limit: 1 })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('answers a request that is not valid JSON-RPC with -32600 naming the problem, and its id', async () => {
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const session = (await raw(server.url, { method: 'POST', body: initialize })).session as string;
    const post = async (body: unknown) => {
      const res = await raw(server.url, { method: 'POST', headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify(body) });
      return { status: res.status, ...(JSON.parse(res.body) as { id: unknown; error: { code: number; message: string } }) };
    };
    expect(await post({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: 'x' })).toMatchObject({ status: 400, id: 9, error: { code: -32600, message: expect.stringMatching(/^not a valid JSON-RPC request \(params: Invalid input: expected object, received string\)/) } });
    expect(await post({ jsonrpc: '2.0', id: 'p', method: 'ping', params: { _meta: { progressToken: { a: 1 } } } })).toMatchObject({ status: 400, id: 'p', error: { code: -32600, message: expect.stringContaining('params._meta.progressToken') } });
    expect(await post({ jsonrpc: '2.0', id: true, method: 'ping' })).toMatchObject({ status: 400, id: null, error: { code: -32600, message: expect.stringContaining('id: must be a string or an integer') } });
  });

  it('stops cleanly on SIGTERM', async () => {
    expect(await server.stop()).toBe(0);
  });
});
