import { lookup } from 'node:dns/promises';
import { createServer, type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { connect, isIP, type Socket } from 'node:net';
import { type AllowRule, allowedBy, isInternalAddress } from './network-allowlist.ts';

/**
 * The host side of a run's network allowlist: an HTTP proxy on a Unix socket inside the run
 * folder, bound into the sandbox (which has no network of its own). It forwards plain HTTP
 * requests (absolute-form) and tunnels `CONNECT host:port` (HTTPS and anything else over TLS)
 * only to the hosts and ports the skill declared; everything else gets 403. Names are resolved
 * here, and the connection goes to the address that was checked, so an allowlisted domain cannot
 * be re-pointed at the host's loopback or private network unless the allowlist names such an
 * address itself.
 */
export interface EgressProxy {
  socketPath: string;
  /** `host:port` targets refused so far, for the run's warnings. */
  denied: string[];
  close(): Promise<void>;
}

const HOP_BY_HOP = ['connection', 'proxy-connection', 'proxy-authorization', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

export async function startEgressProxy(socketPath: string, rules: readonly AllowRule[]): Promise<EgressProxy> {
  const denied: string[] = [];
  const sockets = new Set<Socket>();
  const track = (socket: Socket): Socket => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    return socket;
  };

  /** The address to dial for an allowed target, or the reason it is refused. */
  const resolveTarget = async (host: string, port: number): Promise<{ address: string } | { refused: string }> => {
    const rule = allowedBy(rules, host, port);
    const target = `${host}:${port}`;
    if (!rule) {
      denied.push(target);
      return { refused: `${target} is not in this skill's network_allowlist` };
    }
    const bare = host.replace(/^\[|\]$/g, '');
    let address: string;
    try {
      address = isIP(bare) ? bare : (await lookup(bare)).address;
    } catch (error) {
      return { refused: `cannot resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? 'error'}` };
    }
    if (!rule.literal && isInternalAddress(address)) {
      denied.push(target);
      return { refused: `${host} resolves to the internal address ${address}, which the allowlist does not name` };
    }
    return { address };
  };

  const server = createServer(async (req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
      if (url.protocol !== 'http:') throw new Error('not http');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('skilldex egress proxy: send absolute http:// URLs, or CONNECT for https\n');
      return;
    }
    const port = Number(url.port || 80);
    const target = await resolveTarget(url.hostname, port);
    if ('refused' in target) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end(`skilldex: ${target.refused}\n`);
      return;
    }
    const headers: IncomingHttpHeaders = { ...req.headers, host: url.host };
    for (const name of HOP_BY_HOP) delete headers[name];
    const upstream = httpRequest({ host: target.address, port, method: req.method, path: `${url.pathname}${url.search}`, headers, setHost: false }, (answer) => {
      const back = { ...answer.headers };
      for (const name of HOP_BY_HOP) delete back[name];
      try {
        res.writeHead(answer.statusCode ?? 502, back);
      } catch (error) {
        // Node's client reads answers its server refuses to write (a status below 100 such as
        // `099`); thrown here, in a callback, that ended the runner's whole process.
        answer.destroy();
        res.writeHead(502, { 'content-type': 'text/plain' }).end(`skilldex: ${url.host} answered what the proxy cannot pass on: ${(error as Error).message}\n`);
        return;
      }
      // A server that drops the connection half-way through its body: the skill's connection is
      // dropped too, rather than left waiting for the rest until its own timeout.
      answer.on('close', () => {
        if (!answer.complete) res.destroy();
      });
      answer.pipe(res);
    });
    upstream.on('socket', track);
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`skilldex: ${url.host}: ${error.message}\n`);
      else res.destroy();
    });
    req.pipe(upstream);
  });

  server.on('connection', track);
  server.on('connect', async (req, client: Socket, head: Buffer) => {
    const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(req.url ?? '');
    const target = match ? await resolveTarget(match[1] as string, Number(match[2])) : { refused: `malformed CONNECT target ${JSON.stringify(req.url)}` };
    if ('refused' in target) {
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\nskilldex: ${target.refused}\r\n`);
      return;
    }
    const upstream = track(connect(Number(match?.[2]), target.address, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    }));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    socketPath,
    denied,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
