import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.json': 'application/json', '.js': 'text/javascript', '.css': 'text/css',
  '.md': 'text/markdown; charset=utf-8', '.txt': 'text/plain; charset=utf-8', '.gz': 'application/gzip', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.xml': 'application/xml', '.ts': 'text/plain; charset=utf-8', '.py': 'text/plain; charset=utf-8',
};

export interface StaticServer {
  url: string;
  server: Server;
  /** Requests served, for tests of caching behaviour. */
  requests: { method: string; path: string; status: number }[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 serving a folder, with ETag / If-None-Match (304) so client
 * caching is exercised for real.
 */
export async function serveStatic(root: string): Promise<StaticServer> {
  const requests: StaticServer['requests'] = [];
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const finish = (status: number) => requests.push({ method: req.method ?? 'GET', path, status });
    let file = normalize(join(root, path));
    if (!file.startsWith(root + sep) && file !== root) {
      res.writeHead(403).end();
      return finish(403);
    }
    try {
      let info = await stat(file);
      if (info.isDirectory()) {
        file = join(file, 'index.html');
        info = await stat(file);
      }
      const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { etag }).end();
        return finish(304);
      }
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': info.size, etag, 'last-modified': info.mtime.toUTCString() });
      createReadStream(file).pipe(res);
      finish(200);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      finish(404);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
