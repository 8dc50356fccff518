/**
 * A skill's raw HTML, XML or SVG file must never run script on the catalog's origin. On hosts
 * that read _headers (and the preview server) every raw path, the content-addressed one and the
 * discovery 0.1.0 mirror, is sandboxed, also when the path is not normalised; on hosts that send
 * no headers (GitHub Pages) the scanner keeps script out: such a skill is blocked by default.
 * Real builds, the real preview server, real Chromium.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreview, type PreviewServer } from '../../scripts/preview.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const PREVIEW_HTML = '<!doctype html><html><body><p>Preview</p><script>document.title = "ran"; fetch("/index.json");</script></body></html>\n';

let work: string;
let browser: Browser;
beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'skilldex-inert-'));
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

function repo(name: string, directive: string): string {
  const root = path.join(work, name);
  mkdirSync(path.join(root, 'skills/report-preview/assets'), { recursive: true });
  writeFileSync(path.join(root, 'skills/report-preview/SKILL.md'), '---\nname: report-preview\ndescription: Renders a report preview page. Use it to check a report before sending.\n---\n\n# Report preview\n\nOpen assets/preview.html.\n');
  writeFileSync(path.join(root, 'skills/report-preview/assets/preview.html'), `${directive}${PREVIEW_HTML}`);
  return root;
}
const build = (root: string, out: string) => spawnSync(process.execPath, [path.join(repoRoot, 'bin/skilldex.mjs'), 'build', '--root', root, '--out', out], { encoding: 'utf8' });

describe('raw markup files', () => {
  it('with script, are not published by default (the host may not sandbox them)', () => {
    const run = build(repo('blocked', ''), path.join(work, 'out-blocked'));
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/skills\/report-preview\/assets\/preview\.html:1:\d+ {2}security\/blocked {2}error {2}.*html\/active-content/);
  });

  it('published after an answer, never run script on the site origin, on any raw path', async () => {
    const root = repo('answered', '<!-- skilldex-scan: allow html/active-content "preview page, sandboxed by the host" -->\n');
    const out = path.join(work, 'out-answered');
    const run = build(root, out);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const index = JSON.parse(readFileSync(path.join(out, 'index.json'), 'utf8')) as { skills: { path: string }[] };
    const files = index.skills[0]!.path;
    const preview: PreviewServer = await startPreview({ dir: out, port: 0 });
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on('request', (r) => requests.push(new URL(r.url()).pathname));
      for (const raw of [`${files}assets/preview.html`, `${files.replace('skills/', 'skills//')}assets/preview.html`, '.well-known/skills/report-preview/assets/preview.html', '.well-known//skills/report-preview/./assets/preview.html']) {
        const response = await page.goto(`${preview.url}${raw}`);
        expect(response?.status(), raw).toBe(200);
        expect(await page.locator('p').textContent(), raw).toBe('Preview');
        expect(await page.title(), raw).not.toBe('ran');
      }
      expect(requests.filter((p) => p.endsWith('/index.json'))).toEqual([]);
    } finally {
      await preview.close();
    }
  }, 120_000);

  it('an XML file that names an XSLT stylesheet is not published by default: its transform writes script that runs', async () => {
    const root = path.join(work, 'xslt');
    const assets = path.join(root, 'skills/report-preview/assets');
    mkdirSync(assets, { recursive: true });
    writeFileSync(path.join(root, 'skills/report-preview/SKILL.md'), '---\nname: report-preview\ndescription: Renders a report preview page. Use it to check a report before sending.\n---\n\n# Report preview\n\nOpen assets/report.xml.\n');
    writeFileSync(path.join(assets, 'report.xml'), '<?xml version="1.0"?>\n<?xml-stylesheet type="text/xsl" href="report.xsl"?>\n<report><title>Q3</title></report>\n');
    // No `<script` anywhere: the element is named from two pieces when the transform runs.
    writeFileSync(
      path.join(assets, 'report.xsl'),
      '<?xml version="1.0"?>\n<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">\n' +
        '<xsl:template match="/"><html><body><p>Preview</p><xsl:element name="{concat(\'scr\', \'ipt\')}">document.title = "ran"</xsl:element></body></html></xsl:template>\n</xsl:stylesheet>\n',
    );
    // Served by extension with no headers, as GitHub Pages serves a skill's files, the page runs it.
    const server = createServer((req, res) => {
      const name = path.basename(new URL(req.url ?? '/', 'http://x').pathname);
      if (name !== 'report.xml' && name !== 'report.xsl') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/xml' }).end(readFileSync(path.join(assets, name)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/report.xml`);
      await expect.poll(() => page.title()).toBe('ran');
      await page.close();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const run = build(root, path.join(work, 'out-xslt'));
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/skills\/report-preview\/assets\/report\.xml:2:1 {2}security\/blocked {2}error {2}.*html\/active-content/);
  }, 120_000);
});
