/**
 * markdown_toc: table of contents with GitHub-style anchors. Pure computation, no I/O.
 */

export interface Heading {
  level: number;
  text: string;
  slug: string;
  line: number;
}

export interface MarkdownTocOutput {
  toc: string;
  headings: Heading[];
  count: number;
}

interface Ctx {
  skill?: { name: string; version: string };
  log?: (msg: string) => void;
}

/** Inline Markdown → plain text: links, images, code spans, emphasis, HTML tags, trailing #s. */
export function plainText(inline: string): string {
  return inline
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(\*|_)(.+?)\1/g, '$2')
    .replace(/~~(.+?)~~/g, '$1')
    .trim();
}

/** GitHub's anchor algorithm: lower case, drop punctuation except - and _, spaces → -. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

export function parseHeadings(markdown: string): Heading[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const headings: Heading[] = [];
  const seen = new Map<string, number>();
  let fence: string | null = null;
  const add = (level: number, raw: string, line: number): void => {
    const text = plainText(raw);
    if (text === '') return;
    const base = slugify(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    headings.push({ level, text, slug: n === 0 ? base : `${base}-${n}`, line });
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fenceMatch = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fenceMatch) {
      const marker = fenceMatch[1] ?? '';
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const atx = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx) {
      add((atx[1] ?? '#').length, atx[2] ?? '', i + 1);
      continue;
    }
    const next = lines[i + 1];
    if (next !== undefined && line.trim() !== '' && !/^ {0,3}([-*_>+]|\d+[.)])/.test(line)) {
      if (/^ {0,3}=+[ \t]*$/.test(next)) {
        add(1, line, i + 1);
        i++;
      } else if (/^ {0,3}-+[ \t]*$/.test(next)) {
        add(2, line, i + 1);
        i++;
      }
    }
  }
  return headings;
}

function clampLevel(value: unknown, fallback: number): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 6 ? n : fallback;
}

export async function execute(input: Record<string, unknown>, ctx?: Ctx): Promise<MarkdownTocOutput> {
  const markdown = input.markdown;
  if (typeof markdown !== 'string') throw new TypeError('markdown_toc: input.markdown must be a string');
  const minLevel = clampLevel(input.minLevel, 2);
  const maxLevel = Math.max(minLevel, clampLevel(input.maxLevel, 3));
  const bullet = input.bullet === '*' || input.bullet === '1.' ? input.bullet : '-';
  const headings = parseHeadings(markdown);
  const included = headings.filter((h) => h.level >= minLevel && h.level <= maxLevel);
  const top = included.reduce((m, h) => Math.min(m, h.level), 6);
  const indentUnit = bullet === '1.' ? '   ' : '  ';
  const toc = included
    .map((h) => `${indentUnit.repeat(h.level - top)}${bullet} [${h.text.replace(/([[\]])/g, '\\$1')}](#${h.slug})`)
    .join('\n');
  ctx?.log?.(`markdown_toc: ${included.length} of ${headings.length} headings`);
  return { toc, headings, count: included.length };
}
