/**
 * What one HTTP client can hold of the server: connections past the cap are answered 503 with a
 * JSON-RPC error saying why, and one client address keeps at most its quota of sessions, closing
 * its own (never another client's) past it. Real HTTP, the SDK's real client and transport.
 */
import { connect, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveMcpHttp } from '../../src/mcp/http.ts';
import { LiveRegistry } from '../../src/mcp/live-registry.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import { openRegistry } from '../../src/runtime/node/open-registry.ts';
import { buildExamples, tempDir } from '../runtime/_registries.ts';

let live: LiveRegistry;

beforeAll(async () => {
  const registry = await buildExamples();
  const cacheDir = await tempDir('mcp-http-limits-cache');
  live = await LiveRegistry.open(() => openRegistry(registry, { cacheDir, configDir: cacheDir }));
}, 120_000);

afterAll(() => {
  live?.close();
});

/** An SDK client of the endpoint at `url`. */
const clientOf = async (url: string): Promise<Client> => {
  const client = new Client({ name: 'skilldex-http-limits', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
};

const alive = (client: Client): Promise<boolean> => client.listTools().then(() => true, () => false);

describe('skilldex mcp --http, open connections', () => {
  it('answers a request on a connection past --max-connections with 503 and a JSON-RPC error saying why, and serves again once one closes', async () => {
    const listener = await serveMcpHttp({ host: '127.0.0.1', port: 0, maxConnections: 3, newServer: () => createMcpServer(live) });
    const idle: Socket[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const socket = connect(Number(new URL(listener.url).port), '127.0.0.1');
        await new Promise((resolve) => socket.once('connect', resolve));
        idle.push(socket);
      }
      const ping = (): Promise<Response> => fetch(listener.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
      const res = await ping();
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(await res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'the server has 3 connections open, the most it keeps; close idle connections or retry in a moment' } });
      await expect(clientOf(listener.url)).rejects.toThrow(/503|connections open/);
      // A client opens several connections (its requests and its event stream).
      for (const socket of idle.splice(0)) socket.destroy();
      await expect.poll(async () => (await ping()).status, { timeout: 5_000 }).not.toBe(503);
      const client = await clientOf(listener.url);
      expect(await alive(client)).toBe(true);
      await client.close();
    } finally {
      for (const socket of idle) socket.destroy();
      await listener.close();
    }
  }, 30_000);
});

describe('skilldex mcp --http, slow requests', () => {
  it('closes a connection that does not finish sending its request in time, so trickling clients cannot hold the connection cap', async () => {
    const listener = await serveMcpHttp({ host: '127.0.0.1', port: 0, maxConnections: 3, requestTimeoutMs: 1_500, newServer: () => createMcpServer(live) });
    const port = Number(new URL(listener.url).port);
    const trickling: Socket[] = [];
    const closed: Promise<number>[] = [];
    const started = Date.now();
    try {
      // Headers and the first byte of a 1,000-byte body, then a byte every 200 ms; and one that sends half its headers.
      for (let i = 0; i < 3; i++) {
        const socket = connect(port, '127.0.0.1');
        socket.on('error', () => {});
        // Read what comes (the 408): a paused socket never sees the server close it.
        socket.resume();
        closed.push(new Promise((resolve) => socket.once('close', () => resolve(Date.now() - started))));
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.write(i < 2 ? 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{' : 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
        trickling.push(socket);
      }
      const drip = setInterval(() => {
        for (const socket of trickling.slice(0, 2)) if (!socket.destroyed) socket.write(' ');
      }, 200);
      try {
        // Each is closed within its time and the checking interval, well before Node's five minutes.
        for (const ms of await Promise.all(closed)) expect(ms).toBeLessThan(6_000);
      } finally {
        clearInterval(drip);
      }
      const client = await clientOf(listener.url);
      expect(await alive(client)).toBe(true);
      await client.close();
    } finally {
      for (const socket of trickling) socket.destroy();
      await listener.close();
    }
  }, 30_000);
});

/** Addresses of this machine that are not loopback, when it has them: what remote clients arrive from. */
const outward = (family: 'IPv4' | 'IPv6'): string | undefined =>
  Object.values(networkInterfaces())
    .flat()
    .find((address) => address && address.family === family && !address.internal && !address.address.startsWith('fe80'))?.address;
const [outward4, outward6] = [outward('IPv4'), outward('IPv6')];

describe('skilldex mcp --http, per client address', () => {
  // The quota applies to addresses other than loopback (see the next test), so this needs one.
  // Bound to every address for the test's few seconds, like a server started with --host 0.0.0.0.
  it.skipIf(outward4 === undefined)("closes the client's own session used longest ago past --max-sessions-per-client, and no other client's", async () => {
    const listener = await serveMcpHttp({ host: outward6 ? '::' : '0.0.0.0', port: 0, maxSessionsPerClient: 2, newServer: () => createMcpServer(live) });
    const at = (host: string) => {
      const url = new URL(listener.url);
      url.hostname = host.includes(':') ? `[${host}]` : host;
      return url.href;
    };
    const clients: Client[] = [];
    try {
      // Another client, from another address (IPv6 when the machine has it, else loopback), used longest ago of all.
      const other = await clientOf(at(outward6 ?? '127.0.0.1'));
      clients.push(other);
      // On a dual-stack socket this one arrives as ::ffff:<IPv4>, the same client as plain IPv4.
      for (let i = 0; i < 3; i++) clients.push(await clientOf(at(outward4 as string)));
      const [, first, second, third] = clients as [Client, Client, Client, Client];
      expect(await first.listTools().then(() => 'alive', (error: Error) => error.message)).toMatch(/unknown or expired session/);
      expect([await alive(second), await alive(third)]).toEqual([true, true]);
      expect(await alive(other)).toBe(true);
    } finally {
      await Promise.all(clients.map((client) => client.close().catch(() => {})));
      await listener.close();
    }
  }, 30_000);

  it.skipIf(outward4 === undefined)('holds one address other than loopback to a quarter of --max-connections, so it cannot starve the others', async () => {
    const listener = await serveMcpHttp({ host: outward6 ? '::' : '0.0.0.0', port: 0, maxConnections: 8, newServer: () => createMcpServer(live) });
    const port = Number(new URL(listener.url).port);
    const idle: Socket[] = [];
    const ping = (host: string): Promise<Response> =>
      fetch(`http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
    try {
      for (let i = 0; i < 2; i++) {
        const socket = connect(port, outward4 as string);
        await new Promise((resolve) => socket.once('connect', resolve));
        idle.push(socket);
      }
      const refused = await ping(outward4 as string);
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toBe("this client address has 2 connections open, the most one address may hold (a quarter of the server's 8); close idle connections or retry in a moment");
      // Another address is still served (400: a ping needs a session first, which is not a refusal).
      expect((await ping(outward6 ?? '127.0.0.1')).status).toBe(400);
    } finally {
      for (const socket of idle) socket.destroy();
      await listener.close();
    }
  }, 30_000);

  it('does not hold loopback clients to it: every program on the machine shares 127.0.0.1', async () => {
    const listener = await serveMcpHttp({ host: '127.0.0.1', port: 0, maxSessionsPerClient: 2, newServer: () => createMcpServer(live) });
    const clients: Client[] = [];
    try {
      for (let i = 0; i < 4; i++) clients.push(await clientOf(listener.url));
      expect(await Promise.all(clients.map(alive))).toEqual([true, true, true, true]);
    } finally {
      await Promise.all(clients.map((client) => client.close().catch(() => {})));
      await listener.close();
    }
  }, 30_000);
});
