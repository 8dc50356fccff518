import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/site/catalog/markdown.ts';

const files = '/skills/demo/0123456789abcdef/';

describe('renderMarkdown', () => {
  it('drops raw HTML, event handlers and script URLs', () => {
    const html = renderMarkdown([
      '<script>alert(1)</script>',
      '<img src="x" onerror="alert(1)">',
      '<svg onload="alert(1)"><script>alert(1)</script></svg>',
      '[click](javascript:alert(1)) [data](data:text/html,<b>x</b>)',
      '<a href="javascript:alert(1)">raw</a>',
    ].join('\n\n'));
    expect(html).not.toMatch(/<script|onerror|onload|<svg|<iframe|javascript:|data:text/i);
    expect(html).toContain('click');
  });

  it('rewrites relative links and images to the published raw files', () => {
    const html = renderMarkdown('[run](./scripts/run.sh) [ref](references/a%20b.md#part) ![logo](assets/logo.png) [up](../../etc/passwd) [anchor](#usage) [site](/security/)', { filesBase: files });
    expect(html).toContain(`href="${files}scripts/run.sh"`);
    expect(html).toContain(`href="${files}references/a%20b.md#part"`);
    expect(html).toContain(`src="${files}assets/logo.png"`);
    expect(html).toContain('href="#usage"');
    expect(html).toContain('href="/security/"');
    expect(html).not.toContain('passwd"');
  });

  it("sends a link out of the skill into another skill's folder to that skill's page, and drops any other", () => {
    const skillLinks = { from: 'skills/dev/conventional-commits', skills: { 'skills/dev/semver-tool': '/repo/skills/semver-tool/' } };
    const html = renderMarkdown('[a](../semver-tool/SKILL.md) [b](../semver-tool/) [c](../semver-tool/scripts/semver.sh) [d](../nowhere/SKILL.md) [e](../../../../etc/passwd) [f](../semver-tool-2/SKILL.md)', { filesBase: files, skillLinks });
    expect([...html.matchAll(/<a(?: href="([^"]*)")?>(\w)<\/a>/g)].map((m) => [m[2], m[1]])).toEqual([
      ['a', '/repo/skills/semver-tool/'],
      ['b', '/repo/skills/semver-tool/'],
      ['c', '/repo/skills/semver-tool/'],
      ['d', undefined],
      ['e', undefined],
      ['f', undefined],
    ]);
    // From a document in a sub-folder, the climb counts from there.
    expect(renderMarkdown('[a](../../semver-tool/SKILL.md)', { filesBase: files, docDir: 'references', skillLinks })).toContain('href="/repo/skills/semver-tool/"');
  });

  it("sends a link to a folder of the skill to the skill page's file tree, not to a raw URL that answers 404", () => {
    const skillPages = { skillPath: '/repo/skills/demo/', files: ['references/guide.md'] };
    const html = renderMarkdown('[scripts](scripts/) [nested](./assets/icons/) [file](scripts/run.sh)', { filesBase: `/repo${files}`, skillPages });
    expect(html).toContain('<a href="/repo/skills/demo/#files">scripts</a>');
    expect(html).toContain('<a href="/repo/skills/demo/#files">nested</a>');
    expect(html).toContain(`<a href="/repo${files}scripts/run.sh">file</a>`);
    // From a document in a sub-folder, the folder it names is still the skill's.
    expect(renderMarkdown('[up](../scripts/)', { filesBase: `/repo${files}`, docDir: 'references', skillPages })).toContain('<a href="/repo/skills/demo/#files">up</a>');
  });

  it('keeps links under the base path a sub-path site gives', () => {
    const html = renderMarkdown('[run](scripts/run.sh) ![logo](./assets/logo.png)', { filesBase: `/repo${files}` });
    expect(html).toContain(`href="/repo${files}scripts/run.sh"`);
    expect(html).toContain(`src="/repo${files}assets/logo.png"`);
  });

  it('links the docs pages to each other, and their images beside them', () => {
    const html = renderMarkdown(
      '[hosting](hosting.md) [netlify](./hosting.md#netlify) [Guide](Getting%20Started.md) [deep](guides/a.md) [readme](../README.md) [src](../src/x.ts) ![shot](screenshot.png) [data](examples/config.json)',
      { filesBase: '/repo/docs/', markdownPages: true, headingIds: true },
    );
    expect(html).toContain('href="/repo/docs/hosting/"');
    expect(html).toContain('href="/repo/docs/hosting/#netlify"');
    expect(html).toContain('href="/repo/docs/getting-started/"');
    expect(html).toContain('src="/repo/docs/screenshot.png"');
    expect(html).toContain('href="/repo/docs/examples/config.json"');
    // Nothing is published for Markdown in sub-folders or for files outside docs/: text, not a 404.
    expect(html).not.toMatch(/href="[^"]*(guides|README|src\/x)/);
    expect(html).toContain('readme');
    // Written for this site: `/index.json` is the site's own, under its base path.
    expect(renderMarkdown('[index](/index.json) [proto](//cdn.example/x)', { filesBase: '/repo/docs/', siteBase: '/repo/', markdownPages: true })).toContain('href="/repo/index.json"');
    expect(renderMarkdown('[proto](//cdn.example/x)', { filesBase: '/repo/docs/', siteBase: '/repo/' })).toContain('href="//cdn.example/x"');
    expect(renderMarkdown('## Hosting on Netlify', { headingIds: true, markdownPages: true, filesBase: '/docs/' })).toContain('id="hosting-on-netlify"');
  });

  it("links the project's docs to the site's schemas and to the repository's other files", () => {
    const markdown = '[readme](../README.md#toolchain) [contributing](../CONTRIBUTING.md) [schema](../schemas/skill-json.schema.json) [schemas](../schemas) [root](../) [above](../../x.md)';
    const options = { filesBase: '/repo/docs/', markdownPages: true, projectLinks: { from: 'docs', published: { schemas: '/repo/schemas/' } } };
    const linked = renderMarkdown(markdown, { ...options, projectLinks: { ...options.projectLinks, source: 'https://github.com/acme/skills/blob/main/' } });
    expect(linked).toContain('href="https://github.com/acme/skills/blob/main/README.md#toolchain"');
    expect(linked).toContain('href="https://github.com/acme/skills/blob/main/CONTRIBUTING.md"');
    expect(linked).toContain('href="/repo/schemas/skill-json.schema.json"');
    // The folder itself is the repository's, not a page of the site; the root and above have no file.
    expect(linked).toContain('href="https://github.com/acme/skills/blob/main/schemas"');
    expect(linked).not.toMatch(/href="[^"]*x\.md"|href="https:\/\/github.com\/acme\/skills\/blob\/main\/"/);
    // Without a repository, only the site's own copy is a link.
    const unlinked = renderMarkdown(markdown, options);
    expect([...unlinked.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).toEqual(['/repo/schemas/skill-json.schema.json']);
  });

  it("shows no image of a skill's document that is not one of the skill's files, such as a site-absolute path", () => {
    const html = renderMarkdown('![icon](/favicon.svg) ![other](/skills/other/0123456789abcdef/a.png) [site](/security/)', { filesBase: `/repo${files}` });
    expect(html).not.toContain('<img');
    expect(html).toContain('<span class="remote-image">[icon]</span>');
    expect(html).toContain('<span class="remote-image">[other]</span>');
    // Written for this site, the same path is the site's own file, under its base path.
    expect(renderMarkdown('![icon](/favicon.svg)', { filesBase: '/repo/docs/', siteBase: '/repo/', markdownPages: true })).toContain('src="/repo/favicon.svg"');
  });

  it('turns remote images into links so readers are not tracked', () => {
    const html = renderMarkdown('![pixel](https://tracker.example/p.gif)', { filesBase: files });
    expect(html).not.toContain('<img');
    expect(html).toContain('href="https://tracker.example/p.gif"');
    expect(html).toContain('[pixel]');
  });

  it('highlights fenced code after sanitising, with classes only', () => {
    const html = renderMarkdown('```js\nconst a = "<b>";\n```');
    expect(html).toContain('hljs-keyword');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('style=');
  });

  it('renders GFM tables and task lists', () => {
    const html = renderMarkdown('| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done');
    // Wide tables scroll sideways, so they are tab stops (axe: scrollable-region-focusable).
    expect(html).toContain('<table tabindex="0">');
    expect(html).toContain('type="checkbox"');
  });

  it('writes the rest of GitHub-flavoured Markdown as GitHub does', () => {
    const html = renderMarkdown('| l | r |\n|:--|--:|\n| 1 | 2 |\n\n- [ ] open\n- [x] done\n- plain\n\n~~gone~~ www.example.org/a, SKILL.md and https://x.example/');
    expect(html).toContain('<th align="left">l</th>');
    expect(html).toContain('<td align="right">2</td>');
    expect(html).toContain('<ul class="contains-task-list">');
    expect(html).toContain('<li class="task-list-item"><input type="checkbox" disabled> open</li>');
    expect(html).toContain('<li class="task-list-item"><input type="checkbox" checked disabled> done</li>');
    expect(html).toContain('<li>plain</li>');
    expect(html).toContain('<del>gone</del>');
    expect(html).toContain('<a href="http://www.example.org/a" rel="nofollow noopener noreferrer">www.example.org/a</a>');
    expect(html).toContain('<a href="https://x.example/" rel="nofollow noopener noreferrer">');
    // A file name is not a host in the .md top-level domain.
    expect(html).toContain(', SKILL.md and');
    expect(renderMarkdown('\uFEFF# Title')).toBe('<h1>Title</h1>');
    // Each list holding a task item, nested or ordered, is marked; a list without one is not.
    const nested = renderMarkdown('- [ ] a\n  - [x] b\n- c\n\n1. [ ] d\n\n- plain\n  - [ ] inner');
    expect(nested.match(/<(?:ul|ol)[^>]*>/g)).toEqual(['<ul class="contains-task-list">', '<ul class="contains-task-list">', '<ol class="contains-task-list">', '<ul>', '<ul class="contains-task-list">']);
  });

  it('links each footnote reference to its note and back, under the ids the sanitiser gives them', () => {
    const html = renderMarkdown('A claim.[^src] Another.[^2]\n\n[^src]: The source.\n[^2]: More.');
    const hrefs = [...html.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
    const ids = new Set([...html.matchAll(/id="([^"]+)"/g)].map((m) => m[1]));
    expect(hrefs).toEqual(['user-content-fn-1', 'user-content-fn-2', 'user-content-fnref-1', 'user-content-fnref-2']);
    for (const href of hrefs) expect(ids).toContain(href);
    expect(html).toContain('<h2 class="sr-only" id="user-content-footnote-label">Footnotes</h2>');
    expect(html).toContain('aria-describedby="user-content-footnote-label"');
  });

  it('makes code blocks keyboard-scrollable, named tab stops', () => {
    expect(renderMarkdown('```\nnpx skilldex run x\n```')).toBe('<pre tabindex="0" role="region" aria-label="Code block 1"><code>npx skilldex run x\n</code></pre>');
    // Each block is a landmark, and landmarks on one page need distinct names.
    expect(renderMarkdown('```\na\n```\n\n```\nb\n```').match(/aria-label="[^"]+"/g)).toEqual(['aria-label="Code block 1"', 'aria-label="Code block 2"']);
  });

  it('demotes headings under the page structure', () => {
    expect(renderMarkdown('# Title\n\n##### Deep', { demoteHeadings: 2 })).toBe('<h3>Title</h3>\n<h6>Deep</h6>');
    // A document that starts at `##` still lands right under the page's section heading.
    expect(renderMarkdown('## Input\n\n### Detail', { demoteHeadings: 2 })).toBe('<h3>Input</h3>\n<h4>Detail</h4>');
  });

  it('gives rule headings the anchors findings link to (trusted docs only)', () => {
    expect(renderMarkdown('### `exec/download-pipe-shell`', { headingIds: true })).toContain('id="exec-download-pipe-shell"');
    expect(renderMarkdown('## Hidden Unicode', { headingIds: true })).toContain('id="hidden-unicode"');
    expect(renderMarkdown('## Hidden Unicode')).not.toContain('id=');
  });

  it('keeps the options of each document to itself (one shared processor renders them all)', () => {
    const doc = '# Title\n\n[notes](references/notes.md)';
    const a = renderMarkdown(doc, { filesBase: '/skills/a/0000000000000000/', demoteHeadings: 2 });
    const b = renderMarkdown(doc, { filesBase: '/skills/b/1111111111111111/' });
    const plain = renderMarkdown(doc);
    expect(a).toContain('href="/skills/a/0000000000000000/references/notes.md"');
    expect(a).toContain('<h3>');
    expect(b).toContain('href="/skills/b/1111111111111111/references/notes.md"');
    expect(b).toContain('<h1>');
    expect(plain).toContain('href="references/notes.md"');
    expect(renderMarkdown(doc, { filesBase: '/skills/a/0000000000000000/', demoteHeadings: 2 })).toBe(a);
  });
});

describe('docs pages', () => {
  it('give each rule row of a rules table its anchor, as docs/rules.md links expect', () => {
    const html = renderMarkdown('| rule | default |\n| --- | --- |\n| <a id="frontmatter-yaml"></a>`frontmatter/yaml` | error |\n| plain | row |\n', { headingIds: true });
    expect(html).toContain('<tr id="frontmatter-yaml">');
    expect(html.match(/<tr id=/g)).toHaveLength(1);
  });
});
