/**
 * The skill page of the example registry as `node scripts/build.ts` writes it: the run example
 * shows the author's own input (from the schema, else from the docs), not a `"example"` placeholder.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');
let out: string;

beforeAll(() => {
  out = path.join(mkdtempSync(path.join(tmpdir(), 'skilldex-skill-page-')), 'site');
  execFileSync(process.execPath, [path.join(repoRoot, 'scripts/build.ts'), '--out', out], {
    cwd: repoRoot,
    encoding: 'utf8',
    stdio: 'pipe',
    timeout: 300_000,
    env: { ...process.env, SOURCE_DATE_EPOCH: '1767225600' },
  });
}, 320_000);
afterAll(() => rmSync(path.dirname(out), { recursive: true, force: true }));

/** The run command's `--input` JSON, unescaped the way a reader copies it. */
function runInput(name: string): unknown {
  const html = readFileSync(path.join(out, 'skills', name, 'index.html'), 'utf8');
  const code = /<code id="cmd-run">([\s\S]*?)<\/code>/.exec(html)?.[1];
  expect(code, `no run command on ${name}`).toBeDefined();
  const text = code!.replace(/<[^>]*>/g, '').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const quoted = /--input '(.*)'$/s.exec(text.trim())?.[1];
  expect(quoted, `no --input on ${name}: ${text}`).toBeDefined();
  return JSON.parse(quoted!.replace(/'\\''/g, "'"));
}

describe('skill page run example', () => {
  it("uses the example in the schema's required input (text_stats)", () => {
    expect(runInput('text_stats')).toEqual({ text: 'The quick brown fox jumps over the lazy dog. It barked.' });
  });

  it('uses the input JSON block of the docs when the schema has none (csv-profile)', () => {
    expect(runInput('csv-profile')).toEqual({ csv: 'id,city,temp\n1,Oslo,-3.5\n2,Lima,19\n3,Oslo,NA\n' });
  });

  it("uses a script-protocol skill's schema example (semver-tool), and says when the input only shows its shape (checksum)", () => {
    expect(runInput('semver-tool')).toEqual({ action: 'bump', params: { version: '1.4.2', part: 'minor' } });
    expect(page('semver-tool')).toContain('Run with an example input');
    expect(page('checksum')).toContain('Run (the input only shows its shape: put in real values)');
  });
});

describe('skill page source links', () => {
  it('shows none, and no broken href, when the registry names no repository', () => {
    const html = readFileSync(path.join(out, 'skills', 'csv-profile', 'index.html'), 'utf8');
    expect(html).toContain('<code id="cmd-run">');
    expect(html).not.toContain('meta-links');
    expect(html).not.toMatch(/href="(?:undefined|null|)"/);
  });
});


const page = (name: string) => readFileSync(path.join(out, 'skills', name, 'index.html'), 'utf8');
/** The requirements block as label → text. */
function requirementRows(name: string): Record<string, string> {
  const block = /<dl class="requirements">([\s\S]*?)<\/dl>/.exec(page(name))?.[1];
  expect(block, `no requirements block on ${name}`).toBeDefined();
  const rows: Record<string, string> = {};
  for (const m of block!.matchAll(/<dt[^>]*>([\s\S]*?)<\/dt>\s*<dd[^>]*>([\s\S]*?)<\/dd>/g)) rows[m[1]!] = m[2]!.replace(/<[^>]*>/g, '');
  return rows;
}

describe('skill page requirements', () => {
  it('names the interpreter of the entry and scripts, the sandbox, what it works with and the size', () => {
    const checksum = requirementRows('checksum');
    expect(checksum.Runtime).toBe('Python 3 (python3)');
    expect(checksum.Sandbox).toContain('bubblewrap');
    expect(checksum['Works with']).toContain('Agent Skills');
    const manifest = JSON.parse(readFileSync(path.join(out, 'skills', 'checksum.json'), 'utf8')) as { files: { size: number }[] };
    expect(checksum.Size).toMatch(new RegExp(` in ${manifest.files.length} files?$`));
  });

  it('says an llm skill needs a model, and how to configure one', () => {
    const rows = requirementRows('code_review');
    expect(rows.Model).toContain('SKILLDEX_LLM_BASE_URL');
    expect(rows.Runtime).toBeUndefined();
  });
});

describe('skill page badges', () => {
  it('writes a version and a scan badge as static SVG, shown on the page with a Markdown snippet', () => {
    const version = readFileSync(path.join(out, 'skills', 'checksum', 'version.svg'), 'utf8');
    const manifest = JSON.parse(readFileSync(path.join(out, 'skills', 'checksum.json'), 'utf8')) as { version: string; scan?: { verdict: string } };
    expect(version).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(version).toContain(`<text x="`);
    expect(version).toContain(`>v${manifest.version}</text>`);
    const scan = readFileSync(path.join(out, 'skills', 'checksum', 'scan.svg'), 'utf8');
    expect(scan).toContain(`>${manifest.scan?.verdict ?? 'not scanned'}</text>`);
    const html = page('checksum');
    expect(html).toContain('<img src="/skills/checksum/version.svg"');
    const snippet = /<code id="badge-markdown">([\s\S]*?)<\/code>/.exec(html)?.[1]?.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
    expect(snippet).toBe(`[![version ${manifest.version}](<page-url>version.svg)](<page-url>) [![security scan: ${manifest.scan?.verdict}](<page-url>scan.svg)](<page-url>)`);
  });
});

describe("a skill's Markdown files", () => {
  it('are pages of their own, linked from the skill page instead of the raw file, which stays one click away', () => {
    const html = page('action-items');
    expect(html).toContain('href="/skills/action-items/docs/references/patterns/"');
    const doc = readFileSync(path.join(out, 'skills', 'action-items', 'docs', 'references', 'patterns', 'index.html'), 'utf8');
    const source = readFileSync(path.join(repoRoot, 'skills/productivity/action-items/references/patterns.md'), 'utf8');
    const heading = /^#+ (.+)$/m.exec(source)![1]!;
    expect(doc).toContain(heading.replace(/&/g, '&amp;'));
    expect(doc).toMatch(/href="\/skills\/action-items\/[0-9a-f]{16}\/references\/patterns\.md">raw file<\/a>/);
    const sitemap = readFileSync(path.join(out, 'sitemap.xml'), 'utf8');
    expect(sitemap).toContain('<loc>/skills/action-items/docs/references/patterns/</loc>');
  });
});

describe('skill page used by', () => {
  /** The "Used by" list as `name: how` lines, with each name's link. */
  function usedBy(name: string): { line: string; href: string | undefined }[] {
    const list = /<section aria-labelledby="used-by"[\s\S]*?<ul class="used-by">([\s\S]*?)<\/ul>/.exec(page(name))?.[1];
    expect(list, `no Used by on ${name}`).toBeDefined();
    return [...list!.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((m) => ({
      line: m[1]!.replace(/<\/code>[\s\S]*?<span[^>]*>/, ': ').replace(/<[^>]*>/g, '').trim(),
      href: /href="([^"]*)"/.exec(m[1]!)?.[1],
    }));
  }

  it('lists every skill that refers to this one, linked, with how it refers', () => {
    // A tool id and a relative link in another skill's SKILL.md, not only composite calls.
    expect(usedBy('semver-tool')).toEqual([{ line: 'conventional-commits: uses its tools, links to its docs', href: '/skills/conventional-commits/' }]);
    expect(usedBy('text_stats')).toEqual([{ line: 'text_report: calls it, runs it in a pipeline step', href: '/skills/text_report/' }]);
  });

  it("sends a link to another skill's folder or SKILL.md to that skill's page", () => {
    // conventional-commits' SKILL.md links [`semver-tool`](../semver-tool/SKILL.md), as docs/skill-md.md shows authors.
    expect(page('conventional-commits')).toContain('<a href="/skills/semver-tool/"><code>semver-tool</code></a>');
    expect(page('conventional-commits')).not.toMatch(/<a>(?:<code>)?semver-tool/);
  });

  it('has no Used by section when nothing refers to the skill', () => {
    expect(page('conventional-commits')).not.toContain('id="used-by"');
  });
});
