/**
 * The MCP setup on every skill page: a real site build of the example skills (scripts/build.ts),
 * served by scripts/preview.ts and read in Debian's Chromium.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startPreview } from '../../scripts/preview.ts';
import { mcpClientSetups } from '../../src/mcp/client-config.ts';
import { REPO } from '../helpers/cli.ts';
import { tempDir } from '../runtime/_registries.ts';

const packageName = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { name: string }).name;

const build = (root: string, out: string): Promise<void> =>
  new Promise((resolve, reject) => {
    execFile(process.execPath, [join(REPO, 'scripts/build.ts'), '--root', root, '--out', out], { cwd: REPO, timeout: 180_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, SOURCE_DATE_EPOCH: '1767225600' } }, (error, stdout, stderr) =>
      error ? reject(new Error(`${stdout}\n${stderr}`)) : resolve());
  });

describe('McpSetup on skill pages', () => {
  it('shows each client setup with the registry URL, and copies it with the served origin filled in', async () => {
    const work = await tempDir('mcp-site');
    const root = join(work, 'repo');
    mkdirSync(root);
    cpSync(join(REPO, 'skills'), join(root, 'skills'), { recursive: true });
    writeFileSync(join(root, 'skilldex.config.json'), JSON.stringify({ title: 'MCP test registry', repository: { url: 'https://github.com/example/skills', branch: 'main' } }));
    const out = join(work, 'dist');
    await build(root, out);

    const html = readFileSync(join(out, 'skills/semver-tool/index.html'), 'utf8');
    expect(html).toContain('Use from an MCP client');
    // It links the site's own page for docs/mcp.md.
    expect(html).toContain('href="/docs/mcp/"');
    expect(readFileSync(join(out, 'docs/mcp/index.html'), 'utf8')).toContain('Using a registry from MCP clients');

    const preview = await startPreview({ dir: out, port: 0 });
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const origin = preview.url.replace(/\/$/, '');
      const context = await browser.newContext();
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
      const page = await context.newPage();
      await page.goto(new URL('/skills/semver-tool/', preview.url).href);
      await page.locator('.mcp-setup summary').click();
      // The placeholder becomes the site's root URL, base path and final slash included.
      for (const setup of mcpClientSetups({ registryUrl: preview.url, packageName })) {
        expect(await page.locator(`#mcp-${setup.id}`).textContent(), setup.client).toBe(setup.text);
        await page.locator(`button[data-copy-target="mcp-${setup.id}"]`).click();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(setup.text);
      }
    } finally {
      await browser.close();
      await preview.close();
    }
  }, 240_000);
});
