/**
 * `npm run preview`: serves a built site on 127.0.0.1, the way a static host would.
 *
 *   node scripts/preview.ts [--dir dist] [--port 4321] [--host 127.0.0.1] [--base /repo/]
 *
 * Folders serve their index.html (`/skills/x` redirects to `/skills/x/`), unknown paths get
 * 404.html with status 404. A skill's raw files (`/skills/<name>/<d16>/…`) are untrusted: they are
 * served with a sandboxing CSP, so an SVG or HTML file opened directly cannot run script on the
 * catalog's origin. The registry's files (index.json, manifests, raw files, archives, the
 * discovery indexes, the schemas, the runtime) are readable from any origin
 * (`Access-Control-Allow-Origin: *`), so a page elsewhere can load skills with the runtime.
 * public/_headers asks static hosts for the same.
 *
 * `--base /repo/` serves the folder under that path, as GitHub Pages serves a project site, to
 * check a build made with a `siteUrl` such as `https://user.github.io/repo/`.
 */
import { createReadStream, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.gz': 'application/gzip',
  '.zip': 'application/zip',
  '.pdf': 'application/pdf',
  '.py': 'text/plain; charset=utf-8',
  '.sh': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.yaml': 'text/plain; charset=utf-8',
  '.yml': 'text/plain; charset=utf-8',
  // Pagefind's index chunks.
  '.pagefind': 'application/octet-stream',
  '.pf_meta': 'application/octet-stream',
  '.pf_index': 'application/octet-stream',
  '.pf_fragment': 'application/octet-stream',
  '.pf_filter': 'application/octet-stream',
};

/**
 * Raw skill files: under a 16-hex-digit content-addressed folder, and in the discovery 0.1.0
 * mirror under the skill's name. Matched on the normalised path, so `/skills//x/…` or
 * `/a/../skills/…` get the same policy as the file they resolve to.
 */
const RAW_FILE = /^\/(?:skills\/[^/]+\/[0-9a-f]{16}(?:\/|\.tar\.gz$)|\.well-known\/skills\/[^/]+\/.)/;
/** What registry clients fetch, from any origin: the same paths public/_headers opens up. */
const CROSS_ORIGIN = /^\/(index\.json$|index\.schema\.json$|schemas\/|skills\/|\.well-known\/|runtime\/)/;

/**
 * The path a built site was made for, read from the favicon link every page's layout writes
 * (`<base>favicon.svg`); undefined when the page has none (not one of our builds). Serving a site
 * under another path breaks every link in it, and nothing else would say so.
 */
export function builtBase(indexHtml: string): string | undefined {
  const href = /<link rel="icon" href="([^"]*)favicon\.svg"/.exec(indexHtml)?.[1];
  if (href === undefined) return undefined;
  try {
    return new URL(href, 'http://site.invalid/').pathname;
  } catch {
    return undefined;
  }
}

export interface PreviewServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function startPreview(options: { dir: string; port?: number; host?: string; base?: string }): Promise<PreviewServer> {
  const root = path.resolve(options.dir);
  const host = options.host ?? '127.0.0.1';
  const base = `/${(options.base ?? '/').replace(/^\/+|\/+$/g, '')}/`.replace('//', '/');
  const server = createServer((req, res) => {
    serve(root, base, req.method ?? 'GET', req.url ?? '/', res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`internal error: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4321, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${host}:${port}${base}`,
    server,
    close: () => closeServer(server),
  };
}

/**
 * Stops the server and drops every open connection. `server.close()` alone waits for keep-alive
 * and speculative (preconnect) sockets a browser still holds, which Node only reaps after its
 * 60 s headers timeout.
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

async function serve(root: string, base: string, method: string, rawUrl: string, res: ServerResponse): Promise<void> {
  if (method !== 'GET' && method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(rawUrl, 'http://localhost').pathname);
  } catch {
    res.writeHead(400).end('bad request');
    return;
  }
  // Outside the base path there is nothing of this site (a host would serve someone else's).
  if (`${pathname}/` === base) {
    res.writeHead(301, { Location: base }).end();
    return;
  }
  if (!pathname.startsWith(base)) {
    res.writeHead(404, { 'Content-Type': CONTENT_TYPES['.txt']! }).end(method === 'GET' ? `not found: this preview serves ${base} only` : undefined);
    return;
  }
  // Normalised before any policy is chosen: the file served and the path matched must agree.
  pathname = path.posix.normalize(`/${pathname.slice(base.length)}`);
  const file = path.join(root, pathname);
  if (file !== root && !file.startsWith(root + path.sep)) {
    res.writeHead(403).end('forbidden');
    return;
  }
  let info = await statOrNull(file);
  let target = file;
  if (info?.isDirectory()) {
    if (!pathname.endsWith('/')) {
      res.writeHead(301, { Location: `${encodeURI(base + pathname.slice(1))}/` }).end();
      return;
    }
    target = path.join(file, 'index.html');
    info = await statOrNull(target);
  }
  if (!info?.isFile()) {
    const notFound = path.join(root, '404.html');
    const page = await statOrNull(notFound);
    res.writeHead(404, { 'Content-Type': CONTENT_TYPES['.html']!, 'X-Content-Type-Options': 'nosniff' });
    if (page && method === 'GET') createReadStream(notFound).pipe(res);
    else res.end(method === 'GET' ? 'not found' : undefined);
    return;
  }
  const headers: Record<string, string | number> = {
    'Content-Type': CONTENT_TYPES[path.extname(target).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': info.size,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  };
  if (RAW_FILE.test(pathname)) headers['Content-Security-Policy'] = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox";
  if (CROSS_ORIGIN.test(pathname)) headers['Access-Control-Allow-Origin'] = '*';
  res.writeHead(200, headers);
  if (method === 'HEAD') res.end();
  else createReadStream(target).pipe(res);
}

async function statOrNull(file: string): Promise<Stats | null> {
  try {
    return await stat(file);
  } catch {
    return null;
  }
}

const USAGE = 'usage: npm run preview -- [--dir dist] [--port 4321] [--host 127.0.0.1] [--base /repo/]';

/** Parses the command line; a usage error is a message, never a stack trace. */
function previewOptions(argv: string[]): { dir: string; port: number; host: string; base: string } {
  const { values } = parseArgs({
    args: argv,
    options: {
      dir: { type: 'string', default: 'dist' },
      port: { type: 'string', default: '4321' },
      host: { type: 'string', default: '127.0.0.1' },
      base: { type: 'string', default: '/' },
    },
  });
  if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535) throw new Error(`--port must be a whole number from 0 to 65535 (0 picks a free port), not '${values.port}'`);
  return { dir: values.dir, port: Number(values.port), host: values.host, base: values.base };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let options: ReturnType<typeof previewOptions>;
  try {
    options = previewOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`error: ${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  const index = await statOrNull(path.join(options.dir, 'index.html'));
  if (!index?.isFile()) {
    console.error(`error: ${path.resolve(options.dir)} holds no built site (no index.html)\n  hint: run \`npm run build\` first, or pass --dir <folder of a built site>`);
    process.exit(2);
  }
  try {
    const preview = await startPreview(options);
    console.log(`serving ${path.resolve(options.dir)} at ${preview.url}`);
    const made = builtBase(await readFile(path.join(options.dir, 'index.html'), 'utf8'));
    const served = new URL(preview.url).pathname;
    if (made !== undefined && made !== served) {
      console.warn(
        `warning: this site was built for ${made} but is served under ${served}: its links point outside ${served}\n` +
          `  hint: ${made === '/' ? `rebuild with a site URL ending in ${served} (docs/hosting.md)` : `serve it with --base ${made}, or rebuild with a site URL ending in ${served} (docs/hosting.md)`}`,
      );
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EADDRINUSE' ? `port ${options.port} on ${options.host} is already in use\n  hint: stop the other server, or pass --port <n> (--port 0 picks a free one)`
      : code === 'EACCES' ? `no permission to listen on ${options.host}:${options.port}\n  hint: use a port above 1023`
      : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' ? `cannot listen on host '${options.host}'\n  hint: use 127.0.0.1, or an address of this machine`
      : (error as Error).message;
    console.error(`error: ${reason}`);
    process.exit(1);
  }
}
