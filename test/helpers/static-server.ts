import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize, sep } from 'node:path';
import { closeServer } from '../../scripts/preview.ts';

export interface RequestRecord {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  status: number;
}

export interface StaticServer {
  url: string;
  requests: RequestRecord[];
  /** Serve without ETag / Last-Modified (to test that such responses are not cached). */
  setValidators(on: boolean): void;
  /** Answer every request for a file that is not JSON (a skill's files, archives) this much later: a slow CDN. */
  setFileDelay(ms: number): void;
  close(): Promise<void>;
}

/**
 * A real static file server on 127.0.0.1, like a CDN in front of a built registry: strong ETags
 * from the content, Last-Modified from the file, and 304 for matching conditional requests. It
 * reads files on every request, so a test can change (tamper with) a file while it runs.
 */
export async function serveDirectory(root: string): Promise<StaticServer> {
  const requests: RequestRecord[] = [];
  let validators = true;
  let fileDelay = 0;
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (fileDelay > 0 && !path.endsWith('.json')) await new Promise((resolve) => setTimeout(resolve, fileDelay));
    const record = (status: number) => requests.push({ method: req.method ?? 'GET', path, headers: req.headers, status });
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.json` : path));
    if (!file.startsWith(root + sep)) {
      record(403);
      res.writeHead(403).end();
      return;
    }
    try {
      const [body, info] = await Promise.all([readFile(file), stat(file)]);
      const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
      const lastModified = info.mtime.toUTCString();
      const headers: Record<string, string> = { 'content-type': file.endsWith('.json') ? 'application/json' : 'application/octet-stream', 'content-length': String(body.length) };
      if (validators) Object.assign(headers, { etag, 'last-modified': lastModified });
      if (validators && req.headers['if-none-match'] === etag) {
        record(304);
        res.writeHead(304, { etag }).end();
        return;
      }
      record(200);
      res.writeHead(200, headers).end(body);
    } catch {
      record(404);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    setValidators: (on) => {
      validators = on;
    },
    setFileDelay: (ms) => {
      fileDelay = ms;
    },
    close: () => closeServer(server),
  };
}
