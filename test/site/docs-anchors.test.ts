import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docPageSlug, githubHeadingId, renderMarkdown } from '../../src/site/catalog/markdown.ts';

/**
 * The docs are written for GitHub, whose heading ids their links use (`#executeparameters-context-config`);
 * the site renders the same files under /docs/<slug>/, and every one of those links must land there too.
 */
const DOCS = join(import.meta.dirname, '..', '..', 'docs');

describe('the docs pages of the site', () => {
  it('hold every anchor the docs link to', () => {
    const pages = new Map<string, string>();
    for (const file of readdirSync(DOCS).filter((f) => f.endsWith('.md'))) {
      const markdown = readFileSync(join(DOCS, file), 'utf8');
      pages.set(docPageSlug(file), renderMarkdown(markdown, { filesBase: '/docs/', siteBase: '/', markdownPages: true, headingIds: true }));
    }
    const ids = new Map([...pages].map(([slug, html]) => [slug, new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1] as string))]));
    const problems: string[] = [];
    let count = 0;
    for (const [slug, html] of pages) {
      for (const match of html.matchAll(/href="(?:\/docs\/([^/"#]+)\/?)?#([^"]+)"/g)) {
        const target = match[1] ?? slug;
        const anchor = match[2] as string;
        if (!ids.has(target) || anchor.startsWith('user-content-')) continue;
        count += 1;
        if (!ids.get(target)?.has(anchor)) problems.push(`/docs/${slug}/ links to /docs/${target}/#${anchor}, which is not there`);
      }
    }
    expect(count).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });

  it('give a heading the id GitHub gives it, numbering repeats', () => {
    expect(githubHeadingId('execute(parameters, context, config)')).toBe('executeparameters-context-config');
    expect(githubHeadingId("The last build's record")).toBe('the-last-builds-record');
    expect(githubHeadingId('SKILL.md: the Agent Skills format')).toBe('skillmd-the-agent-skills-format');
    const html = renderMarkdown('## A b\n\n## A b\n\n### `exec/download-pipe-shell`\n', { headingIds: true });
    expect([...html.matchAll(/id="([^"]+)"/g)].map((m) => m[1])).toEqual(['a-b', 'a-b-1', 'exec-download-pipe-shell']);
  });
});
