import type { Element, ElementContent, Root, RootContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import MarkdownIt from 'markdown-it';
import markdownItFootnote from 'markdown-it-footnote';
import rehypeHighlight from 'rehype-highlight';
import rehypeSanitize, { defaultSchema, type Options as Schema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import { unified, type Transformer } from 'unified';
import { VFile } from 'vfile';
import { resolveSegments } from '../../core/paths.ts';
import { skillDocPath } from './doc-paths.ts';
import { anchorOf } from '../../core/rule.ts';
import { slugify } from './text.ts';

/**
 * Renders untrusted skill Markdown to HTML that is safe to inject with `set:html`.
 *
 * Astro's own Markdown pipeline lets raw HTML through, so skill documents go through this one
 * instead: markdown-it parses GitHub-flavoured Markdown and drops raw HTML (see {@link markdownParser}),
 * and rehype-sanitize's GitHub schema then removes anything else that could run script
 * (`javascript:` URLs, event handlers, `<svg>`, `<iframe>` …). Highlighting runs after sanitising:
 * it only adds `<span class="hljs-…">` to text the sanitiser already accepted.
 */
export interface RenderOptions {
  /**
   * URL path of the folder the document's relative links point into, ending in `/`: a skill's
   * published raw files (`sitePath(manifest.urls.files)`), or the site's `/docs/`. Relative links
   * and images are rewritten to `<filesBase><path>`; one that climbs out of the folder loses its
   * link (nothing is published there).
   */
  filesBase?: string;
  /**
   * The project's own docs: a relative link to another Markdown file (`hosting.md#netlify`) goes
   * to that file's page (`<filesBase>hosting/#netlify`) rather than to the raw file.
   */
  markdownPages?: boolean;
  /**
   * The site's base path (`/` or `/repo/`), for documents written for this site: a link such as
   * `/index.json` then means the site's own file and gets the base. Without it, site-absolute
   * links are kept as written.
   */
  siteBase?: string;
  /** Folder of the document inside the skill, for resolving `./` and `../` (default: the root). */
  docDir?: string;
  /**
   * A skill's document pages: a relative link to one of its Markdown files (`references/guide.md`)
   * goes to that file's rendered page (`skillDocPath(skillPath, path)`), and `SKILL.md` to the
   * skill's page, rather than to the raw file. `files` are the skill-relative paths that have a
   * page; `skillPath` is the skill's page. Plain data, so a render can be keyed and cached by its
   * options (src/site/render/).
   */
  skillPages?: { skillPath: string; files: readonly string[] };
  /**
   * The other skills the document links to, for a relative link that climbs out of its skill
   * (`../semver-tool/SKILL.md`): `from` is the skill's folder from the registry root, `skills` maps
   * each linked skill's folder to its page. A link into one of them goes to that skill's page;
   * any other link out of the skill loses its href (nothing is published there).
   */
  skillLinks?: { from: string; skills: Readonly<Record<string, string>> };
  /**
   * The project's own docs: where a relative link that climbs out of docs/ goes (`../CONTRIBUTING.md`).
   * `from` is the docs folder in the repository. A file in one of the `published` folders (a
   * repository folder → its path on the site: `schemas` → `/schemas/`) goes to the site's copy;
   * any other goes to `source` + its path, the file in the repository's web view, when the
   * registry names its repository, and otherwise loses its href.
   */
  projectLinks?: { from: string; published: Readonly<Record<string, string>>; source?: string };
  /**
   * Trusted documents only (our own docs/security.md): give headings ids so `/security/#rule`
   * links land. Skill documents keep the sanitiser's `user-content-` prefixed ids.
   */
  headingIds?: boolean;
  /**
   * Levels to push headings down, so a document's own `# Title` nests under the page's section
   * heading instead of competing with the page's `<h1>` (2: the document's top level, `#` or
   * `##`, → `<h3>`; capped at `<h6>`).
   */
  demoteHeadings?: number;
}

const schema: Schema = {
  ...defaultSchema,
  // Only web and mail links; the GitHub schema also allows irc/xmpp, which no skill needs.
  protocols: { ...defaultSchema.protocols, href: ['http', 'https', 'mailto'], src: ['http', 'https'] },
};

/**
 * Everything {@link renderMarkdown} can output for a skill document (no `headingIds`), as a
 * sanitiser schema: the schema above, plus exactly what runs after the sanitiser adds —
 * `rehypeSkillLinks` (`rel` and the `remote-image` class on links, `loading` on images, the
 * region name of code blocks, headings pushed down) and highlight.js (classes on `code` and
 * `span`). Ids stay `user-content-` prefixed, as the sanitiser leaves them, and images only show
 * the skill's own files. HTML that this schema keeps unchanged
 * is HTML the renderer could have produced, which is how a cached render is checked before it is
 * used (src/site/render/).
 */
export const renderedHtmlSchema: Schema = (() => {
  const prefixed = new Set(schema.clobber ?? []);
  const prefix = new RegExp(`^${schema.clobberPrefix ?? ''}`);
  const attributes: NonNullable<Schema['attributes']> = {};
  for (const [tag, list] of Object.entries(schema.attributes ?? {})) {
    attributes[tag] = list.map((a) => (typeof a === 'string' && prefixed.has(a) ? [a, prefix] : a));
  }
  // Adds allowed values to a tag's attribute (the sanitiser reads one definition per attribute).
  const allow = (tag: string, name: string, ...values: (string | RegExp)[]) => {
    const list = (attributes[tag] ??= []);
    const at = list.findIndex((a) => (typeof a === 'string' ? a : a[0]) === name);
    const before = at < 0 ? [] : typeof list[at] === 'string' ? [] : (list[at] as unknown[]).slice(1);
    const merged = [name, ...before, ...values] as [string, ...(string | RegExp)[]];
    if (at < 0) list.push(merged);
    else list[at] = merged;
  };
  allow('a', 'rel', 'nofollow', 'noopener', 'noreferrer');
  allow('a', 'className', 'remote-image');
  allow('img', 'loading', 'lazy');
  // The footnotes' `<h2 class="sr-only">`, pushed down by `demoteHeadings`.
  for (const level of [3, 4, 5, 6]) allow(`h${level}`, 'className', 'sr-only');
  allow('pre', 'role', 'region');
  allow('pre', 'ariaLabel', /^Code block \d+$/);
  // Images: only the skill's own files (remote ones became links), so a site path.
  attributes.img = (attributes.img ?? []).filter((a) => a !== 'src');
  allow('img', 'src', /^\/(?!\/)/);
  // highlight.js: `hljs` beside `language-x` on the block; on spans `hljs-keyword`, `title
  // function_`, or an embedded language's name (`javascript` inside HTML).
  allow('code', 'className', 'hljs');
  allow('span', 'className', 'remote-image', /^hljs-/, /^[a-z]+_+$/, /^[a-z][a-z0-9-]*$/);
  // The ids arrive prefixed already; the prefix is checked above instead of added again.
  return { ...schema, attributes, clobber: [], clobberPrefix: '' };
})();

/**
 * One processor for every document: building it (plugins attached, highlight.js grammars
 * registered) cost more than rendering a typical skill page. Per-document options travel in the
 * file's data, which is all `rehypeSkillLinks` reads.
 */
let processor: ReturnType<typeof createProcessor> | undefined;
let parser: MarkdownIt | undefined;

function createProcessor() {
  return unified().use(rehypeSanitize, schema).use(rehypeSkillLinks).use(rehypeHighlight, { detect: false }).use(rehypeStringify).freeze();
}

/**
 * The Markdown parser: markdown-it with GitHub's extensions (tables, strikethrough, task lists,
 * autolinked URLs, footnotes), its HTML then read into the syntax tree the sanitiser works on.
 *
 * Why not remark (micromark), which this replaced: it took ~2.8 ms of a ~3 ms document render, and
 * a 10,000-skill site renders some 18,000 documents; markdown-it and the HTML reader take ~0.4 ms.
 *
 * What it is made to write is what GitHub's renderer writes, so pages and the sanitiser's schema
 * are unchanged: raw HTML is dropped, as GitHub's `<script>` filter and remark-rehype do, rather
 * than shown escaped; `~~x~~` is `<del>`; column alignment is `align`, not a `style` the sanitiser
 * would remove; footnotes use GitHub's ids, which the sanitiser prefixes. Every link is parsed as
 * a link and left to the sanitiser, which knows the allowed protocols (markdown-it would leave a
 * `javascript:` link as its source text). Bare domains are not linked, as on GitHub: `SKILL.md`
 * is a file name, not a host in the `.md` top-level domain.
 */
function markdownParser(): MarkdownIt {
  // The plugin's types describe markdown-it's CommonJS build; it is the same parser.
  const md = new MarkdownIt({ html: true, linkify: true }).use(markdownItFootnote as unknown as Parameters<MarkdownIt['use']>[0]);
  // GitHub links `www.` hosts without a scheme, as `http://`; other bare domains stay text.
  md.linkify.set({ fuzzyLink: false }).add('www.', {
    validate(text, pos, self) {
      const re = self.re as typeof self.re & { www?: RegExp };
      re.www ??= new RegExp(`^${re.src_auth}${re.src_host_port_strict}${re.src_path}`, 'i');
      return re.www.exec(text.slice(pos))?.[0].length ?? 0;
    },
    normalize(match) {
      match.url = `http://${match.url}`;
    },
  });
  md.validateLink = () => true;
  const rules = md.renderer.rules;
  rules.html_block = () => '';
  rules.html_inline = () => '';
  rules.s_open = () => '<del>';
  rules.s_close = () => '</del>';
  const aligned = (tag: 'th' | 'td'): NonNullable<typeof rules.th_open> => (tokens, idx) => {
    const align = /text-align:(left|right|center)/.exec(tokens[idx]!.attrGet('style') ?? '')?.[1];
    return align ? `<${tag} align="${align}">` : `<${tag}>`;
  };
  rules.th_open = aligned('th');
  rules.td_open = aligned('td');
  const label = (tokens: { meta: { id: number } }[], idx: number) => String((tokens[idx]!.meta.id as number) + 1);
  const subId = (tokens: { meta: { subId?: number } }[], idx: number) => ((tokens[idx]!.meta.subId ?? 0) > 0 ? `-${(tokens[idx]!.meta.subId as number) + 1}` : '');
  rules.footnote_ref = (tokens, idx) => `<sup><a href="#user-content-fn-${label(tokens, idx)}" id="fnref-${label(tokens, idx)}${subId(tokens, idx)}" data-footnote-ref aria-describedby="footnote-label">${label(tokens, idx)}</a></sup>`;
  rules.footnote_block_open = () => '<section data-footnotes class="footnotes"><h2 class="sr-only" id="footnote-label">Footnotes</h2>\n<ol>\n';
  rules.footnote_block_close = () => '</ol>\n</section>\n';
  rules.footnote_open = (tokens, idx) => `<li id="fn-${label(tokens, idx)}">\n`;
  rules.footnote_close = () => '</li>\n';
  rules.footnote_anchor = (tokens, idx) => ` <a href="#user-content-fnref-${label(tokens, idx)}${subId(tokens, idx)}" data-footnote-backref aria-label="Back to reference ${label(tokens, idx)}" class="data-footnote-backref">↩</a>`;
  md.core.ruler.after('inline', 'task-lists', taskLists);
  rules.task_checkbox = (tokens, idx) => `<input type="checkbox"${(tokens[idx]!.meta as { checked: boolean }).checked ? ' checked' : ''} disabled>`;
  return md;
}

type StateCore = Parameters<Parameters<MarkdownIt['core']['ruler']['push']>[1]>[0];

/**
 * GitHub's task lists: a list item that starts with `[ ]` or `[x]` gets a `task_checkbox` token
 * (a disabled checkbox), and its list the class GitHub gives it.
 */
function taskLists(state: StateCore): void {
  const tokens = state.tokens;
  // The lists open at each point, innermost last: one pass, so a document of many thousand
  // items costs no more than it is long (a scan back to each item's list was quadratic).
  const lists: (typeof tokens)[number][] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === 'bullet_list_open' || token.type === 'ordered_list_open') lists.push(token);
    else if (token.type === 'bullet_list_close' || token.type === 'ordered_list_close') lists.pop();
    if (i < 2 || token.type !== 'inline' || tokens[i - 1]!.type !== 'paragraph_open' || tokens[i - 2]!.type !== 'list_item_open') continue;
    const first = token.children?.[0];
    const box = first?.type === 'text' ? /^\[([ xX])\](?=\s|$)/.exec(first.content) : null;
    if (!first || !box) continue;
    first.content = first.content.slice(3);
    const input = new state.Token('task_checkbox', 'input', 0);
    input.meta = { checked: box[1] !== ' ' };
    token.children!.unshift(input);
    tokens[i - 2]!.attrJoin('class', 'task-list-item');
    const list = lists.at(-1);
    if (list && !(list.attrGet('class') ?? '').includes('contains-task-list')) list.attrJoin('class', 'contains-task-list');
  }
}

export function renderMarkdown(markdown: string, options: RenderOptions = {}): string {
  processor ??= createProcessor();
  parser ??= markdownParser();
  const file = new VFile({ data: { renderOptions: options } });
  // A byte-order mark is not text (CommonMark leaves it to the reader; GitHub drops it).
  const tree = processor.runSync(fromHtml(parser.render(markdown.replace(/^\uFEFF/, '')), { fragment: true }), file);
  return processor.stringify(tree, file).trimEnd();
}

/** Rewrites relative URLs to the skill's raw files and neutralises remote images. */
function rehypeSkillLinks() {
  return (tree: Root, file: Parameters<Transformer<Root>>[1]) => {
    const options = (file.data as { renderOptions?: RenderOptions }).renderOptions ?? {};
    // Demoting counts from the document's own top level, so one that starts at `##` does not skip
    // a level under the page's heading.
    let top = 6;
    if (options.demoteHeadings) walk(tree, (node) => {
      if (/^h[1-6]$/.test(node.tagName)) top = Math.min(top, Number(node.tagName[1]));
    });
    // Each code block is a landmark, and landmarks need distinct names.
    let codeBlocks = 0;
    // Heading ids already given, for GitHub's numbering of repeats (`a-b`, `a-b-1`).
    const headingIds = new Map<string, number>();
    walk(tree, (node, parent, index) => {
      if (node.tagName === 'a') {
        const href = node.properties.href;
        if (typeof href !== 'string') return;
        if (isRemote(href)) {
          node.properties.rel = ['nofollow', 'noopener', 'noreferrer'];
          return;
        }
        const rewritten = rewriteRelative(href, options);
        if (rewritten === null) delete node.properties.href;
        else node.properties.href = rewritten;
      } else if (node.tagName === 'img') {
        const src = node.properties.src;
        if (typeof src !== 'string') return;
        // A skill's document shows only the skill's own files: a site-absolute path (`/favicon.svg`)
        // is some other file of the site, or no file at all when the site is served under a
        // sub-path. Only a document written for this site (`siteBase`) means the site's own files.
        const own = !isRemote(src) && (options.siteBase !== undefined || !src.startsWith('/'));
        const rewritten = own ? rewriteRelative(src, options) : null;
        if (rewritten !== null) {
          node.properties.src = rewritten;
          node.properties.loading = 'lazy';
          return;
        }
        // Remote images would let a skill author track readers (and the CSP blocks them anyway):
        // show a plain link instead, which the reader can choose to follow.
        const alt = typeof node.properties.alt === 'string' && node.properties.alt ? node.properties.alt : 'image';
        const replacement: Element = isRemote(src)
          ? { type: 'element', tagName: 'a', properties: { href: src, rel: ['nofollow', 'noopener', 'noreferrer'], className: ['remote-image'] }, children: [{ type: 'text', value: `[${alt}]` }] }
          : { type: 'element', tagName: 'span', properties: { className: ['remote-image'] }, children: [{ type: 'text', value: `[${alt}]` }] };
        parent.children[index] = replacement;
      } else if (node.tagName === 'pre') {
        // Code blocks scroll sideways rather than wrap; a named tab stop lets keyboards scroll them.
        node.properties.tabIndex = 0;
        node.properties.role = 'region';
        node.properties.ariaLabel = `Code block ${++codeBlocks}`;
      } else if (node.tagName === 'table') {
        // Wide tables scroll sideways too (site.css), so they are tab stops as well.
        node.properties.tabIndex = 0;
      } else if (options.demoteHeadings && /^h[1-6]$/.test(node.tagName)) {
        node.tagName = `h${Math.min(6, Number(node.tagName[1]) - top + 1 + options.demoteHeadings)}`;
      } else if (options.headingIds && /^h[1-6]$/.test(node.tagName)) {
        // A heading naming a rule (`exec/download-pipe-shell`) gets that rule's anchor.
        const text = textOf(node);
        // Rule ids are short; the pattern, quadratic in a long run of letters, reads a short heading only.
        const rule = text.length <= 200 ? text.match(/[a-z0-9-]+\/[a-z0-9-/]+/)?.[0] : undefined;
        // Any other heading gets the id GitHub gives it, so links written for the Markdown on GitHub
        // (`skill-md.md#referring-to-other-skills`, `#executeparameters-context-config`) land here too.
        if (rule !== undefined) node.properties.id = anchorOf(rule);
        else {
          const base = githubHeadingId(text);
          const n = headingIds.get(base) ?? 0;
          headingIds.set(base, n + 1);
          node.properties.id = n === 0 ? base : `${base}-${n}`;
        }
      } else if (options.headingIds && node.tagName === 'tr') {
        // A table row that starts with a rule id (docs/rules.md) is that rule's anchor: the
        // Markdown's own `<a id>` is raw HTML, which the sanitiser drops.
        const first = node.children.find((c): c is Element => c.type === 'element');
        const text = first ? textOf(first).trim() : '';
        if (/^[a-z0-9-]+\/[a-z0-9-]+$/.test(text)) node.properties.id = anchorOf(text);
      }
    });
  };
}

/** GitHub's id for a heading: lower case, punctuation but `-` and `_` dropped, each space a `-`. */
export function githubHeadingId(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-') || 'section';
}

function isRemote(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//');
}

/**
 * `./scripts/run.sh` → `/skills/x/<d16>/scripts/run.sh`. Anchors and site-absolute paths are kept;
 * a path that climbs out of the skill folder loses its link (there is nothing published there).
 * With `markdownPages`, `guide.md` → `<filesBase>guide/` (see `docPageSlug`).
 */
function rewriteRelative(url: string, options: RenderOptions): string | null {
  if (url.startsWith('#')) return url;
  if (url.startsWith('/')) return options.siteBase && !url.startsWith('//') ? `${options.siteBase}${url.slice(1)}` : url;
  if (options.filesBase === undefined) return url;
  const cut = url.search(/[?#]/);
  let pathPart = cut === -1 ? url : url.slice(0, cut);
  const suffix = cut === -1 ? '' : url.slice(cut);
  try {
    pathPart = decodeURIComponent(pathPart);
  } catch {
    return null;
  }
  const docDir = options.docDir ? options.docDir.split('/').filter(Boolean) : [];
  const segments = resolveSegments(docDir, pathPart);
  if (!segments) {
    if (options.skillLinks) return linkedSkillPage(options.skillLinks, docDir, pathPart);
    return options.projectLinks ? projectFileUrl(options.projectLinks, docDir, pathPart, suffix) : null;
  }
  // A folder of the skill (`scripts/`) has no page of its own, and a static host answers its raw
  // URL with 404: the skill page's file tree shows it.
  if (options.skillPages && pathPart.endsWith('/')) return `${options.skillPages.skillPath}#files`;
  const last = segments[segments.length - 1]!;
  if (options.skillPages && /\.md$/i.test(last)) {
    const target = segments.join('/');
    if (options.skillPages.files.includes(target)) return `${skillDocPath(options.skillPages.skillPath, target)}${suffix}`;
  }
  if (options.markdownPages && /\.md$/i.test(last)) {
    // Pages exist for docs/*.md only, one level: a Markdown file in a sub-folder has none.
    if (segments.length > 1) return null;
    return `${options.filesBase}${docPageSlug(last)}/${suffix}`;
  }
  return `${options.filesBase}${segments.map(encodeURIComponent).join('/')}${suffix}`;
}

/** Where a link from the project's docs to another file of the repository goes (see `projectLinks`). */
function projectFileUrl(links: NonNullable<RenderOptions['projectLinks']>, docDir: readonly string[], pathPart: string, suffix: string): string | null {
  const target = resolveSegments([...links.from.split('/').filter(Boolean), ...docDir], pathPart);
  if (!target || target.length === 0) return null;
  const [top, ...rest] = target;
  if (rest.length > 0 && Object.hasOwn(links.published, top!)) return `${links.published[top!]}${rest.map(encodeURIComponent).join('/')}${suffix}`;
  return links.source === undefined ? null : `${links.source}${target.map(encodeURIComponent).join('/')}${suffix}`;
}

/** The page of the other skill a link out of this one points into (its folder or any file in it), if it is one of `links.skills`. */
function linkedSkillPage(links: NonNullable<RenderOptions['skillLinks']>, docDir: readonly string[], pathPart: string): string | null {
  const target = resolveSegments([...links.from.split('/').filter(Boolean), ...docDir], pathPart)?.join('/');
  if (!target) return null;
  for (let cut = target.length; cut > 0; cut = target.lastIndexOf('/', cut - 1)) {
    const folder = target.slice(0, cut);
    if (Object.hasOwn(links.skills, folder)) return links.skills[folder] as string;
  }
  return null;
}

/** The page slug of a docs Markdown file: `Hosting Guide.md` → `hosting-guide`. */
export function docPageSlug(fileName: string): string {
  return slugify(fileName.replace(/\.md$/i, ''));
}

function walk(node: Root | Element, visit: (node: Element, parent: Root | Element, index: number) => void): void {
  const children = node.children as Array<RootContent | ElementContent>;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (child.type !== 'element') continue;
    visit(child, node, i);
    const current = children[i]!;
    if (current.type === 'element') walk(current, visit);
  }
}

function textOf(node: Element | ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}
