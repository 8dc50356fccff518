import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtBase, startPreview, type PreviewServer } from '../../scripts/preview.ts';

let dir: string;
let server: PreviewServer;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'skilldex-preview-'));
  const write = (file: string, body: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), body);
  };
  write('index.html', '<h1>home</h1>');
  write('404.html', '<h1>Page not found</h1>');
  write('skills/demo/index.html', '<h1>demo</h1>');
  write('skills/demo.json', '{}');
  write('skills/demo/0123456789abcdef/logo.svg', '<svg><script>alert(1)</script></svg>');
  write('skills/demo/0123456789abcdef/scripts/run me.sh', 'echo hi');
  write('pagefind/wasm.en.pagefind', 'x');
  write('index.json', '{}');
  write('index.schema.json', '{}');
  write('schemas/manifest.schema.json', '{}');
  write('skills/demo/0123456789abcdef.tar.gz', 'gz');
  write('.well-known/agent-skills/index.json', '{}');
  write('.well-known/skills/demo/SKILL.md', '# demo');
  write('runtime/skilldex.js', 'export {};');
  write('assets/site.css', 'body {}');
  server = await startPreview({ dir, port: 0 });
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (p: string) => fetch(new URL(p, server.url), { redirect: 'manual' });

describe('preview server', () => {
  it('serves folders through index.html and redirects to the trailing slash', async () => {
    expect(await (await get('/')).text()).toBe('<h1>home</h1>');
    const redirect = await get('/skills/demo');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/skills/demo/');
    expect((await get('/skills/demo/')).headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('answers unknown paths with 404.html and status 404', async () => {
    const response = await get('/no/such/page/');
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('Page not found');
  });

  it('sends content types the browser needs', async () => {
    expect((await get('/skills/demo.json')).headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await get('/pagefind/wasm.en.pagefind')).headers.get('content-type')).toBe('application/octet-stream');
    expect((await get('/skills/demo/0123456789abcdef/scripts/run%20me.sh')).status).toBe(200);
  });

  it('sandboxes raw skill files and refuses to leave its folder', async () => {
    const svg = await get('/skills/demo/0123456789abcdef/logo.svg');
    expect(svg.headers.get('content-security-policy')).toContain('sandbox');
    expect(svg.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await get('/skills/demo/')).headers.get('content-security-policy')).toBeNull();
    expect([403, 404]).toContain((await get('/..%2f..%2fetc%2fpasswd')).status);
  });

  it('lets any origin read the registry files, and only those', async () => {
    const open = ['/index.json', '/index.schema.json', '/schemas/manifest.schema.json', '/skills/demo.json', '/skills/demo/0123456789abcdef/logo.svg', '/skills/demo/0123456789abcdef.tar.gz', '/.well-known/agent-skills/index.json', '/.well-known/skills/demo/SKILL.md', '/runtime/skilldex.js'];
    for (const p of open) {
      const response = await fetch(new URL(p, server.url), { headers: { Origin: 'https://elsewhere.example' } });
      expect(response.status, p).toBe(200);
      expect(response.headers.get('access-control-allow-origin'), p).toBe('*');
    }
    for (const p of ['/', '/assets/site.css', '/pagefind/wasm.en.pagefind']) {
      expect((await get(p)).headers.get('access-control-allow-origin'), p).toBeNull();
    }
  });

  it('serves the site under a base path, as GitHub Pages serves a project site', async () => {
    const sub = await startPreview({ dir, port: 0, base: 'repo' });
    try {
      expect(sub.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/repo\/$/);
      const at = (p: string) => fetch(new URL(p, sub.url), { redirect: 'manual' });
      expect(await (await at('/repo/')).text()).toBe('<h1>home</h1>');
      expect((await at('/repo')).headers.get('location')).toBe('/repo/');
      expect((await at('/repo/skills/demo')).headers.get('location')).toBe('/repo/skills/demo/');
      expect((await at('/repo/index.json')).headers.get('access-control-allow-origin')).toBe('*');
      expect((await at('/repo/skills/demo/0123456789abcdef/logo.svg')).headers.get('content-security-policy')).toContain('sandbox');
      // Nothing of the site outside its base path; inside it, unknown paths get the site's 404 page.
      expect((await at('/index.json')).status).toBe(404);
      expect((await at('/repository/')).status).toBe(404);
      const missing = await at('/repo/no/such/page/');
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain('Page not found');
    } finally {
      await sub.close();
    }
  });

  it('closes at once, even while a browser holds a half-open connection', async () => {
    // Chromium keeps keep-alive and preconnect sockets; a plain server.close() waits for Node's
    // 60 s headers timeout on them, which stalled a browser test past its own timeout.
    const other = await startPreview({ dir, port: 0 });
    const open = async () => {
      const socket = connect(Number(new URL(other.url).port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      return socket;
    };
    // A preconnected socket that has sent nothing yet, and one in the middle of its headers.
    const preconnect = await open();
    const halfway = await open();
    halfway.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const started = performance.now();
    const closed = await Promise.race([other.close().then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 5_000))]);
    preconnect.destroy();
    halfway.destroy();
    expect(closed).toBe(true);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('npm run preview, from the command line', () => {
  const script = path.resolve(import.meta.dirname, '../../scripts/preview.ts');
  const preview = (args: string[]) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, [script, ...args], { timeout: 20_000 }, (error, _stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }));
    });

  it('says the port is taken, without a stack trace', async () => {
    const port = new URL(server.url).port;
    const { code, stderr } = await preview(['--dir', dir, '--port', port]);
    expect(code).toBe(1);
    expect(stderr).toContain(`error: port ${port} on 127.0.0.1 is already in use`);
    expect(stderr).toContain('--port 0 picks a free one');
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a folder with no built site and a bad port as usage errors', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'skilldex-preview-empty-'));
    try {
      const missing = await preview(['--dir', empty, '--port', '0']);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('holds no built site (no index.html)');
      expect(missing.stderr).toContain('run `npm run build` first');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    const port = await preview(['--dir', dir, '--port', 'eighty']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain("--port must be a whole number from 0 to 65535 (0 picks a free port), not 'eighty'");
    const unknown = await preview(['--dri', dir]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('usage: npm run preview');
    expect(unknown.stderr).not.toMatch(/\n\s+at /);
  });

  it('warns when a site built for one path is served under another', async () => {
    const site = mkdtempSync(path.join(tmpdir(), 'skilldex-preview-base-'));
    // Until the first warning (or the serving line plus a moment), then stop the server.
    const run = (args: string[]) =>
      new Promise<string>((resolve) => {
        const child = spawn(process.execPath, [script, '--dir', site, '--port', '0', ...args]);
        let output = '';
        const done = () => { child.kill(); resolve(output); };
        const timer = setTimeout(done, 15_000);
        child.stdout.on('data', (chunk) => { output += chunk; if (/serving/.test(output)) setTimeout(() => { clearTimeout(timer); done(); }, 500); });
        child.stderr.on('data', (chunk) => { output += chunk; });
      });
    try {
      writeFileSync(path.join(site, 'index.html'), '<link rel="icon" href="/repo/favicon.svg" type="image/svg+xml"><h1>home</h1>');
      const under = await run(['--base', '/sub/']);
      expect(under).toContain('warning: this site was built for /repo/ but is served under /sub/');
      expect(under).toContain('serve it with --base /repo/');
      expect(await run(['--base', '/repo/'])).not.toContain('warning');
      writeFileSync(path.join(site, 'index.html'), '<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
      expect(await run(['--base', '/sub/'])).toContain('rebuild with a site URL ending in /sub/');
      expect(await run([])).not.toContain('warning');
    } finally {
      rmSync(site, { recursive: true, force: true });
    }
  });
});

describe('builtBase', () => {
  it('reads the path a page was built for from its favicon link', () => {
    expect(builtBase('<link rel="icon" href="/a/b/favicon.svg" type="image/svg+xml">')).toBe('/a/b/');
    expect(builtBase('<link rel="icon" href="https://x.example/site/favicon.svg">')).toBe('/site/');
    expect(builtBase('<h1>not ours</h1>')).toBeUndefined();
  });
});
