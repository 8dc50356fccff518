import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every link between the documentation pages, and every `docs/….md#anchor` the code points users
 * to (rule hints, CLI help, comments), must reach a file and a heading or anchor that exists.
 */
const REPO = join(import.meta.dirname, '..', '..');

/** GitHub's heading ids: lowercase, punctuation other than `-` and `_` dropped, spaces → `-`, repeats numbered. */
export function anchorsOf(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const match of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = (match[1] ?? '').toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const match of markdown.matchAll(/<a id="([^"]+)"><\/a>/g)) ids.add(match[1] as string);
  return ids;
}

const pages = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** Problems with one link `target` (path and optional #anchor) written in `from`. */
function check(from: string, target: string): string | undefined {
  const [path = '', anchor] = target.split('#');
  const file = path === '' ? join(REPO, from) : resolve(dirname(join(REPO, from)), decodeURI(path));
  if (!existsSync(file)) return `${from}: ${target}: no such file`;
  if (anchor === undefined || statSync(file).isDirectory() || !file.endsWith('.md')) return undefined;
  return anchorsOf(readFileSync(file, 'utf8')).has(anchor) ? undefined : `${from}: ${target}: no such anchor in ${relative(REPO, file)}`;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.(ts|astro|mjs)$/.test(e.name) ? [join(dir, e.name)] : []));
}

describe('documentation links', () => {
  it('between the pages all resolve, anchors included', () => {
    const problems: string[] = [];
    let count = 0;
    for (const page of pages) {
      const text = readFileSync(join(REPO, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1] as string;
        if (/^[a-z]+:/i.test(target)) continue;
        count += 1;
        const problem = check(page, target);
        if (problem) problems.push(problem);
      }
    }
    expect(count).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });

  it('from the code (hints, help, comments) all resolve', () => {
    const problems: string[] = [];
    let count = 0;
    for (const file of sourceFiles(join(REPO, 'src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\bdocs\/[a-z0-9-]+\.md(?:#[a-z0-9_-]+)?/g)) {
        count += 1;
        const problem = check('README.md', match[0]);
        if (problem) problems.push(`${relative(REPO, file)}: ${problem}`);
      }
    }
    expect(count).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });

  // GitHub keeps the first element with an id: an explicit anchor named like a heading of the same page
  // takes that heading's links wherever the anchor stands.
  it('have no explicit anchor that repeats a heading id of its page', () => {
    const problems: string[] = [];
    for (const page of pages) {
      const markdown = readFileSync(join(REPO, page), 'utf8');
      const headings = anchorsOf(markdown.replace(/<a id="[^"]+"><\/a>/g, ''));
      for (const match of markdown.matchAll(/<a id="([^"]+)"><\/a>/g)) {
        if (headings.has(match[1] as string)) problems.push(`${page}: <a id="${match[1]}"> repeats a heading's id`);
      }
    }
    expect(problems).toEqual([]);
  });

  // In CommonMark a line that starts with <script, <pre, <style or <textarea opens a raw HTML block
  // that runs to its closing tag: GitHub drops it, and with it the rest of the page.
  it('never start a prose line with a tag that opens a raw HTML block', () => {
    const problems: string[] = [];
    for (const page of pages) {
      const prose = readFileSync(join(REPO, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
      for (const line of prose.split('\n')) if (/^ {0,3}<(script|pre|style|textarea)(\s|>|$)/i.test(line)) problems.push(`${page}: ${line}`);
    }
    expect(problems).toEqual([]);
  });

  it('numbers repeated headings and reads explicit anchors, as GitHub does', () => {
    expect([...anchorsOf('# A b\n## `execute(p, c)`\n## A b\n<a id="x-y"></a>\n```\n# not a heading\n```\n')]).toEqual(['a-b', 'executep-c', 'a-b-1', 'x-y']);
  });
});
