/**
 * What lets a rebuild keep a skill's pages as the last build wrote them (src/site/catalog/kept-pages.ts,
 * src/site/integration/page-record.ts): the key moves with every input, the record beside Astro's
 * cache is taken only for the same code and folder and only in the right shape, and a page is
 * kept only while its file is as it was written. The whole build, kept pages and all, equalling a
 * build into an empty folder is test/e2e/site-build.test.ts.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unchanged } from '../../src/core-node/file-stamp.ts';
import { pageFileOf, pageKey, type KeptPagesSlot } from '../../src/site/catalog/kept-pages.ts';
import { SiteBuildConfig } from '../../src/site/integration/config.ts';
import { keptPageFiles, openPageRecord, pagesCodeKey, savePageRecord } from '../../src/site/integration/page-record.ts';

let work: string;
beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'skilldex-kept-pages-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the key of a skill page', () => {
  const inRegistry = (name: string) => name !== 'gone';
  it('moves with the code, the skill, and whether each linked skill is in the registry', () => {
    const key = pageKey('code', ['sha256:aa', 'slugs'], ['a', 'b'], inRegistry);
    expect(pageKey('code', ['sha256:aa', 'slugs'], ['a', 'b'], inRegistry)).toBe(key);
    expect(pageKey('other code', ['sha256:aa', 'slugs'], ['a', 'b'], inRegistry)).not.toBe(key);
    expect(pageKey('code', ['sha256:ab', 'slugs'], ['a', 'b'], inRegistry)).not.toBe(key);
    expect(pageKey('code', ['sha256:aa', 'slugs'], ['a', 'gone'], inRegistry)).not.toBe(pageKey('code', ['sha256:aa', 'slugs'], ['a', 'gone'], () => true));
  });

  it('covers the build settings and the project docs the pages link to', () => {
    const docsDir = path.join(work, 'docs');
    const astroRoot = path.join(work, 'project');
    mkdirSync(docsDir, { recursive: true });
    mkdirSync(astroRoot, { recursive: true });
    writeFileSync(path.join(docsDir, 'mcp.md'), '# MCP\n');
    const config = SiteBuildConfig.parse({ registryDir: path.join(work, 'registry'), docsDir, site: { title: 'Skills' } });
    const key = pagesCodeKey(config, astroRoot);
    expect(pagesCodeKey(config, astroRoot)).toBe(key);
    // Where rendered documents are cached changes no page.
    expect(pagesCodeKey({ ...config, renderCacheDir: path.join(work, 'elsewhere') }, astroRoot)).toBe(key);
    expect(pagesCodeKey({ ...config, site: { ...config.site, title: 'Other' } }, astroRoot)).not.toBe(key);
    writeFileSync(path.join(docsDir, 'mcp.md'), '# MCP servers\n');
    const withDocs = pagesCodeKey(config, astroRoot);
    expect(withDocs).not.toBe(key);
    // Astro's own config file shapes every page.
    writeFileSync(path.join(astroRoot, 'astro.config.mjs'), 'export default { compressHTML: false };\n');
    expect(pagesCodeKey(config, astroRoot)).not.toBe(withDocs);
  });
});

describe('the record of the pages a build wrote', () => {
  const outDir = () => path.join(work, 'out');
  const record = () => path.join(work, 'cache', 'skilldex-pages.json');
  const page = (name: string) => `skills/${name}/index.html`;

  it('records what was generated, keeps what was kept, and leaves out a skill whose page is missing', () => {
    mkdirSync(path.join(outDir(), 'skills', 'a'), { recursive: true });
    mkdirSync(path.join(outDir(), 'skills', 'b'), { recursive: true });
    writeFileSync(path.join(outDir(), page('a')), '<p>a</p>');
    writeFileSync(path.join(outDir(), page('b')), '<p>b</p>');
    mkdirSync(path.join(outDir(), 'tag', 'x'), { recursive: true });
    writeFileSync(path.join(outDir(), 'tag/x/index.html'), '<p>x</p>');
    const slot: KeptPagesSlot = { codeKey: 'code', outDir: outDir(), previous: new Map(), previousListings: new Map(), rendered: new Map(), keptListings: new Set(), renderedListings: new Map() };
    slot.rendered.set('a', { key: 'ka', links: [], files: [page('a')] });
    slot.rendered.set('b', { key: 'kb', links: ['a'], files: [page('b')] });
    slot.rendered.set('c', { key: 'kc', links: [], files: [page('c')] });
    slot.renderedListings.set('tag/x/index.html', 'kx');
    slot.renderedListings.set('tag/y/index.html', 'ky');
    savePageRecord(record(), slot);

    const next = openPageRecord(record(), 'code', outDir());
    expect([...next.previous.keys()].sort()).toEqual(['a', 'b']);
    expect(next.previous.get('b')?.links).toEqual(['a']);
    expect(next.previous.get('a')!.files.every((f) => unchanged(outDir(), f))).toBe(true);
    expect([...next.previousListings.keys()]).toEqual(['tag/x/index.html']);
    expect(next.previousListings.get('tag/x/index.html')?.key).toBe('kx');
    // Kept pages pass to the next record as they were, and count as written for the sweep.
    next.kept = new Set(['a']);
    next.keptListings.add('tag/x/index.html');
    expect(keptPageFiles(next)).toEqual(new Set([page('a'), 'tag/x/index.html']));
    savePageRecord(record(), next);
    const third = openPageRecord(record(), 'code', outDir());
    expect([...third.previous.keys()]).toEqual(['a']);
    expect([...third.previousListings.keys()]).toEqual(['tag/x/index.html']);
  });

  it('is taken only for the same code and output folder', () => {
    expect(openPageRecord(record(), 'other code', outDir()).previous.size).toBe(0);
    expect(openPageRecord(record(), 'code', path.join(work, 'other-out')).previous.size).toBe(0);
  });

  it('does not keep a page changed, replaced or touched since', () => {
    const files = openPageRecord(record(), 'code', outDir()).previous.get('a')!.files;
    utimesSync(path.join(outDir(), page('a')), new Date(), new Date(Date.now() - 60_000));
    expect(files.every((f) => unchanged(outDir(), f))).toBe(false);
    expect(unchanged(outDir(), [page('gone'), 1, 1, 1])).toBe(false);
  });

  it('ignores a forged record: paths out of the folder, wrong shapes, deep JSON', () => {
    const forged = (skills: unknown, listings: unknown = []) => writeFileSync(record(), JSON.stringify({ format: 1, codeKey: 'code', outDir: outDir(), skills, listings }));
    forged({ a: { key: 'k', links: [], files: [['../../etc/passwd', 1, 1, 1]] } });
    expect(openPageRecord(record(), 'code', outDir()).previous.size).toBe(0);
    forged({ a: { key: 'k', links: [], files: [['/etc/passwd', 1, 1, 1]] } });
    expect(openPageRecord(record(), 'code', outDir()).previous.size).toBe(0);
    forged({ a: { key: 7, links: 'x', files: {} } });
    expect(openPageRecord(record(), 'code', outDir()).previous.size).toBe(0);
    forged({}, [{ key: 'k', file: ['tag/../../../outside.html', 1, 1, 1] }]);
    expect(openPageRecord(record(), 'code', outDir()).previousListings.size).toBe(0);
    writeFileSync(record(), `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(openPageRecord(record(), 'code', outDir()).previous.size).toBe(0);
    expect(readFileSync(record(), 'utf8').length).toBe(200_000);
  });
});

describe('pageFileOf', () => {
  it('maps a route path under the base path to the file Astro writes', () => {
    expect(pageFileOf('/skills/a/', '/')).toBe('skills/a/index.html');
    expect(pageFileOf('/repo/skills/a/docs/references/r%C3%A9sum%C3%A9/', '/repo/')).toBe('skills/a/docs/references/résumé/index.html');
    expect(pageFileOf('/other/skills/a/', '/repo/')).toBeUndefined();
    expect(pageFileOf('/repo/skills/%E0%A4%A/', '/repo/')).toBeUndefined();
  });
});
