import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readDocPages } from '../../src/site/catalog/docs.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'skilldex-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readDocPages', () => {
  it('makes one page per docs/*.md file, titled by its heading and summed up by its first paragraph', () => {
    writeFileSync(path.join(dir, 'hosting.md'), '<!-- note -->\n# Hosting the `dist/` folder\n\n```sh\nnpm run build\n```\n\nServe **everything** in _dist/_, including\n[node_modules-free](other.md) files under node_modules.\n\nMore.\n');
    writeFileSync(path.join(dir, 'Getting Started.md'), 'No heading here, just text.\n');
    writeFileSync(path.join(dir, '.draft.md'), '# Hidden\n');
    writeFileSync(path.join(dir, 'page.html'), '<h1>not a doc</h1>');
    const pages = readDocPages(dir);
    expect(pages.map((p) => [p.file, p.slug, p.title])).toEqual([
      ['Getting Started.md', 'getting-started', 'Getting Started'],
      ['hosting.md', 'hosting', 'Hosting the dist/ folder'],
    ]);
    expect(pages[0]!.summary).toBe('No heading here, just text.');
    expect(pages[1]!.summary).toBe('Serve everything in dist/, including node_modules-free files under node_modules.');
  });

  it('sums up a page whose first paragraph is a megabyte of unclosed links at once', () => {
    writeFileSync(path.join(dir, 'brackets.md'), `# ${'['.repeat(1_000_000)}\n\n${'['.repeat(1_000_000)}][]()\n`);
    const started = performance.now();
    const page = readDocPages(dir).find((p) => p.file === 'brackets.md');
    expect(page?.summary.startsWith('[[[')).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('has no pages for a docs folder that does not exist', () => {
    expect(readDocPages(path.join(dir, 'missing'))).toEqual([]);
  });
});
