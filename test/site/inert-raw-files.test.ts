/**
 * A skill's raw HTML, XML or SVG file must never run script on the catalog's origin. On hosts
 * that read _headers (and the preview server) every raw path, the content-addressed one and the
 * discovery 0.1.0 mirror, is sandboxed, also when the path is not normalised; on hosts that send
 * no headers (GitHub Pages) the scanner keeps script out: such a skill is blocked by default.
 * Real builds, the real preview server, real Chromium.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
});
