import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, BlockList, isIP, type Socket } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, isInitializeRequest, isJSONRPCErrorResponse, isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResultResponse } from '@modelcontextprotocol/sdk/types.js';
import { invalidRequest, invalidRequestMessage, requestIdOf } from './request-checks.ts';

export interface McpHttpOptions {
  /** 127.0.0.1 unless the user chose otherwise. */
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** One MCP server per session (they share the registry). */
  newServer: () => Server;
  /** Largest request body accepted. */
  maxBodyBytes?: number;
  /** Most sessions kept at once; past it, the one used longest ago is closed. */
  maxSessions?: number;
  /** Most sessions one client (remote address) keeps; past it, that client's own session used longest ago is closed. */
  maxSessionsPerClient?: number;
  /** Most connections open at once (one address other than loopback: a quarter of them); a request on one past it is answered 503. */
  maxConnections?: number;
  /** How long a client may take to send a whole request, headers and body ({@link REQUEST_TIMEOUT_MS}). */
  requestTimeoutMs?: number;
}

/**
 * Sessions kept at once. A client that never says goodbye (no DELETE, or it crashed) left its
 * session and server behind for good: 5,000 initialize requests grew the process by 325 MB.
 */
export const MAX_SESSIONS = 64;

/**
 * Sessions one remote address keeps. Without a quota one client took all {@link MAX_SESSIONS}:
 * 64 initialize requests closed every other client's session. Past it the client's own session
 * used longest ago is closed, not the new one refused: nothing else ends a session a client
 * forgot (no DELETE, or it crashed), so a refusal would lock a client that restarted 16 times
 * out for good. Loopback clients are not held to it: every program on this machine arrives from
 * 127.0.0.1 (so the quota would only shrink the cap they share), and any of them could pick
 * another address of 127.0.0.0/8 to get round it anyway.
 */
export const MAX_SESSIONS_PER_CLIENT = 16;

/**
 * Connections open at once. Each holds a socket and its buffers, and an event stream holds one
 * for a session's life: without a cap, a client could open connections until the process ran
 * out of file descriptors (EMFILE), and then no client was served at all.
 */
export const MAX_CONNECTIONS = 256;

/**
 * The share of the connection cap one address other than loopback may hold: without it one
 * client opening 1,000 idle connections held all 256, and every other client was answered 503.
 */
const CONNECTION_SHARE = 4;

/** How long a connection past the cap may take to send the request it is refused on. */
const REFUSED_CONNECTION_MS = 10_000;

/**
 * How long a connection may take to send one whole request, headers and body; its headers get a
 * third of it. Node's own defaults (five minutes, and a minute for the headers) let 256 connections
 * that each sent headers and then a byte of body every few seconds hold the whole connection cap for
 * five minutes, and every other client was answered 503. A request is JSON of at most a few
 * megabytes; an event stream or a long answer is a response, which this does not bound.
 */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface McpHttpListener {
  /** The endpoint, e.g. `http://127.0.0.1:3333/mcp`. */
  url: string;
  /** Bound to loopback, and so answering only requests that name it in Host and Origin. */
  localOnly: boolean;
  close(): Promise<void>;
}

const MCP_HTTP_PATH = '/mcp';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Whether `host` — `localhost`, or an IP literal in any spelling, IPv6 with or without brackets —
 * is this machine's loopback: all of 127.0.0.0/8 and ::1 (also as ::ffff:127.0.0.1 or
 * 0:0:0:0:0:0:0:1). Matching four spellings let `--host 127.0.0.2` or `--host 0:0:0:0:0:0:0:1`
 * pass for an open bind: the Host and Origin checks were off, and the warning said "not loopback".
 *
 * @example
 * isLoopbackHost('127.0.0.2');  // true
 * isLoopbackHost('[::1]');      // true
 * isLoopbackHost('0.0.0.0');    // false
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (bare === 'localhost') return true;
  const family = isIP(bare);
  return family !== 0 && LOOPBACK.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/** The host name of a Host header or an Origin, as a browser resolves it, or undefined when it has none. */
const hostnameOf = (url: string): string | undefined => {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
};

const jsonRpcError = (res: ServerResponse, status: number, code: number, message: string, id: string | number | null = null, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }));
};

/** A client's address as one key: an IPv4 client reached through a dual-stack socket is the same client. */
const clientAddress = (socket: Socket): string => (socket.remoteAddress ?? 'unknown').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

/**
 * A server bound to loopback only answers requests that name loopback in `Host` (and, from a
 * browser, in `Origin`): otherwise any web page could reach it through DNS rebinding.
 */
function loopbackRequestAllowed(headers: IncomingMessage['headers']): boolean {
  const host = headers.host === undefined ? undefined : hostnameOf(`http://${headers.host}`);
  if (host === undefined || !isLoopbackHost(host)) return false;
  const origin = headers.origin;
  if (origin === undefined || origin === 'null') return origin === undefined;
  const from = hostnameOf(origin);
  return from !== undefined && isLoopbackHost(from);
}

async function readJsonBody(req: IncomingMessage, limit: number): Promise<{ ok: true; value: unknown } | { ok: false; status: number; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Past the limit the body is drained unread, so the client gets the 413 instead of a reset;
    // one that keeps sending far beyond it is cut off.
    if (size > limit * 16) req.destroy();
    if (size <= limit) chunks.push(chunk);
  }
  if (size > limit) return { ok: false, status: 413, message: `request body larger than ${limit} bytes; send smaller arguments` };
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch (error) {
    return { ok: false, status: 400, message: `request body is not JSON: ${(error as Error).message}` };
  }
}

/**
 * Keeps the ids of the requests `transport`'s server has not answered yet. The SDK drops the
 * answers of a session that closes, so a client whose session was closed under it (the one used
 * longest ago, past `maxSessions`) waited for each call until its own timeout — minutes, for a
 * run; {@link closeSession} answers them first.
 */
function trackOpenRequests(transport: StreamableHTTPServerTransport): Set<string | number> {
  const open = new Set<string | number>();
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message)) open.add(message.id);
    // A cancelled request gets no answer: without this its id would stay for the session's life.
    else if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') open.delete(message.params?.requestId as string | number);
    receive?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) open.delete(message.id);
    return send(message, options);
  };
  return open;
}

/** Closes a session, first telling its client why for each request it still waits on. */
async function closeSession(transport: StreamableHTTPServerTransport, open: ReadonlySet<string | number>, why: string): Promise<void> {
  await Promise.all([...open].map((id) => transport.send({ jsonrpc: '2.0', id, error: { code: ErrorCode.ConnectionClosed, message: why } }).catch(() => {})));
  await transport.close().catch(() => {});
}

/**
 * Serves MCP over Streamable HTTP at `/mcp`, one stateful session (with its own `Server`) per
 * client, so list-changed notifications reach each client on its event stream.
 *
 * @example
 * const http = await serveMcpHttp({ host: '127.0.0.1', port: 3333, newServer: () => createMcpServer(live) });
 * console.error(`MCP on ${http.url}`);
 */
export async function serveMcpHttp(options: McpHttpOptions): Promise<McpHttpListener> {
  const limit = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const loopbackOnly = isLoopbackHost(options.host);
  const maxSessions = options.maxSessions ?? MAX_SESSIONS;
  const maxPerClient = options.maxSessionsPerClient ?? MAX_SESSIONS_PER_CLIENT;
  const maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  // In order of last use (a used session moves to the end), so the first is the one to close.
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  /** The remote address each session was initialized from. */
  const clientOf = new Map<string, string>();
  const openRequests = new WeakMap<StreamableHTTPServerTransport, Set<string | number>>();
  const evicted = `the server closed this session: it keeps at most ${maxSessions} sessions and closes the one used longest ago; initialize again and repeat the request`;
  const evictedOwn = `the server closed this session: it keeps at most ${maxPerClient} sessions per client address and closes that client's session used longest ago; initialize again and repeat the request`;
  const evict = (id: string, why: string) => {
    const stale = sessions.get(id);
    sessions.delete(id);
    clientOf.delete(id);
    if (stale) void closeSession(stale, openRequests.get(stale) ?? new Set(), why);
  };
  const used = (id: string, transport: StreamableHTTPServerTransport) => {
    sessions.delete(id);
    sessions.set(id, transport);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== MCP_HTTP_PATH) return void res.writeHead(404, { 'content-type': 'text/plain' }).end(`the MCP endpoint is ${MCP_HTTP_PATH}\n`);
    if (loopbackOnly && !loopbackRequestAllowed(req.headers)) return jsonRpcError(res, 403, -32000, 'Host or Origin is not loopback; this server only answers local clients');
    const sessionId = req.headers['mcp-session-id'];
    const session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (session) used(sessionId as string, session);
    if (req.method === 'POST') {
      const body = await readJsonBody(req, limit);
      if (!body.ok) return jsonRpcError(res, body.status, body.status === 413 ? -32600 : -32700, body.message);
      // The SDK answers it "Parse error: Invalid JSON-RPC message" (-32700, for JSON that parsed)
      // with a null id, naming nothing: a request with params "x" or an object as its id.
      const problem = invalidRequest(body.value);
      if (problem) return jsonRpcError(res, 400, -32600, invalidRequestMessage(problem), requestIdOf(body.value) ?? null);
      if (session) return session.handleRequest(req, res, body.value);
      if (sessionId !== undefined) return jsonRpcError(res, 404, -32001, 'unknown or expired session; initialize again');
      if (!isInitializeRequest(body.value)) {
        // MCP forbids batching initialize; a batch that holds it was answered as if it had none.
        const batched = Array.isArray(body.value) && body.value.some((message) => isInitializeRequest(message));
        return jsonRpcError(res, 400, -32000, batched ? 'no session: initialize must be sent alone, not in a batch' : 'no session: the first request must be initialize');
      }
      const client = clientAddress(req.socket);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, transport);
          clientOf.set(id, client);
          // This client's own sessions first, the one used longest ago first: another client's are not its to spend.
          if (!isLoopbackHost(client)) {
            const own = [...sessions.keys()].filter((sessionId) => clientOf.get(sessionId) === client);
            for (const oldest of own.slice(0, Math.max(0, own.length - maxPerClient))) evict(oldest, evictedOwn);
          }
          for (const oldest of sessions.keys()) {
            if (sessions.size <= maxSessions) break;
            evict(oldest, evicted);
          }
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) {
          sessions.delete(transport.sessionId);
          clientOf.delete(transport.sessionId);
        }
      };
      const server = options.newServer();
      await server.connect(transport);
      openRequests.set(transport, trackOpenRequests(transport));
      await transport.handleRequest(req, res, body.value);
      // The transport refused the initialize before a session began (no Accept for event streams,
      // another Content-Type…): no request can reach this server again and nothing would close it,
      // so it stayed subscribed to the registry for good, ~60 KB per refused request.
      if (transport.sessionId === undefined) await server.close();
      return;
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!session) return jsonRpcError(res, sessionId === undefined ? 400 : 404, -32000, 'missing or unknown Mcp-Session-Id');
      return session.handleRequest(req, res);
    }
    res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
  };

  /** Connections past a cap, with why each is refused. */
  const overCap = new WeakMap<Socket, string>();
  const maxPerAddress = Math.max(1, Math.floor(maxConnections / CONNECTION_SHARE));
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const refused = overCap.get(req.socket);
    if (refused) return jsonRpcError(res, 503, -32000, refused, null, { connection: 'close', 'retry-after': '1' });
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) jsonRpcError(res, 500, -32603, `internal error: ${(error as Error).message}`);
      else res.end();
    });
  };
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  // Node looks for connections past their time every `connectionsCheckingInterval` (30 s by default).
  const http = createServer({ requestTimeout, headersTimeout: Math.ceil(requestTimeout / 3), connectionsCheckingInterval: Math.min(2_000, Math.ceil(requestTimeout / 4)) }, serve);
  // Counted by hand rather than with http.maxConnections, which closes a connection past it
  // without a word: the client saw a reset, not why. One past the cap is answered 503 on its
  // first request and closed; one that sends nothing is closed after a short wait.
  let connections = 0;
  const perAddress = new Map<string, number>();
  http.on('connection', (socket: Socket) => {
    const address = clientAddress(socket);
    connections += 1;
    perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
    socket.once('close', () => {
      connections -= 1;
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left === 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
    // Loopback clients share one address (see MAX_SESSIONS_PER_CLIENT), so only the whole cap holds them.
    const refused =
      connections > maxConnections ? `the server has ${maxConnections} connections open, the most it keeps; close idle connections or retry in a moment`
      : !isLoopbackHost(address) && (perAddress.get(address) ?? 0) > maxPerAddress ? `this client address has ${maxPerAddress} connections open, the most one address may hold (a quarter of the server's ${maxConnections}); close idle connections or retry in a moment`
      : undefined;
    if (refused) {
      overCap.set(socket, refused);
      socket.setTimeout(REFUSED_CONNECTION_MS, () => socket.destroy());
    }
  });
  // A client that waits for `100 Continue` (curl does, for a large body) and declares a body over
  // the limit gets its 413 at once, instead of an invitation to send 100 MB that is then cut off.
  http.on('checkContinue', (req, res) => {
    // Refused without inviting the body.
    if (overCap.has(req.socket)) return serve(req, res);
    if (Number(req.headers['content-length'] ?? 0) <= limit) {
      res.writeContinue();
      return serve(req, res);
    }
    res.setHeader('connection', 'close');
    jsonRpcError(res, 413, -32600, `request body larger than ${limit} bytes; send smaller arguments`);
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}${MCP_HTTP_PATH}`,
    localOnly: loopbackOnly,
    async close() {
      await Promise.all([...sessions.values()].map((transport) => closeSession(transport, openRequests.get(transport) ?? new Set(), 'the server is shutting down')));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
