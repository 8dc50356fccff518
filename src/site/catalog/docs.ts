import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { docPageSlug } from './markdown.ts';
import { shortHash, truncate } from './text.ts';

/**
 * The project's Markdown documentation (`docs/*.md` of the Skilldex checkout, given to the site
 * integration as `docsDir`), one site page per file under `/docs/<slug>/`.
 * Whatever files exist at build time are published; nothing here names a particular page.
 */
export interface DocPage {
  slug: string;
  /** File name inside docs/, e.g. `hosting.md`. */
  file: string;
  /** The first `# heading`, or the file name without `.md`. */
  title: string;
  /** The first paragraph as plain text, shortened, for the index and the page description. */
  summary: string;
  markdown: string;
}

/** One page per `*.md` file directly in `dir` (none when it does not exist), in byte order of file name. */
export function readDocPages(dir: string): DocPage[] {
  const files = existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile() && /\.md$/i.test(e.name) && !e.name.startsWith('.')).map((e) => e.name) : [];
  const taken = new Set<string>();
  return files
    // Byte order, so every machine lists the pages alike.
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((file) => {
      const markdown = readFileSync(path.join(dir, file), 'utf8');
      // Two names that slug alike (`a b.md`, `a-b.md`): the second gets a stable suffix; links
      // to it by file name still go to the first, which is the best a slug can do.
      let slug = docPageSlug(file);
      if (taken.has(slug)) slug = `${slug}-${shortHash(file)}`;
      taken.add(slug);
      return { slug, file, markdown, ...describe(markdown, file) };
    });
}

/** Title and summary from the Markdown source itself, without rendering it. */
function describe(markdown: string, file: string): { title: string; summary: string } {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const heading = lines.findIndex((l) => /^#\s+\S/.test(l));
  const title = heading >= 0 ? plain(lines[heading]!.replace(/^#\s+/, '')) : file.replace(/\.md$/i, '');
  const paragraph: string[] = [];
  let inFence = false;
  for (const line of lines.slice(heading + 1)) {
    if (/^\s*(```|~~~)/.test(line)) {
      if (paragraph.length) break;
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    if (!line.trim() || /^\s*(#|<|>|\||[-*+] |\d+\. |!\[)/.test(line)) {
      if (paragraph.length) break;
      continue;
    }
    paragraph.push(line.trim());
  }
  return { title, summary: truncate(plain(paragraph.join(' ')), 200) };
}

/**
 * Markdown inline syntax reduced to its text: links to their label, code and emphasis unmarked.
 * Only the first {@link PLAIN_CHARS} characters are read: a title or a summary needs no more, and
 * the link pattern tries every `[` of a line up to its end, quadratic in a hostile line of them.
 */
const PLAIN_CHARS = 2000;
function plain(text: string): string {
  return text
    .slice(0, PLAIN_CHARS)
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    // Emphasis only where it wraps words: the `_` of node_modules stays.
    .replace(/(^|[^\w*])(\*\*|__|\*|_)(?=\S)(.+?)(?<=\S)\2(?![\w*])/g, '$1$3')
    .trim();
}
