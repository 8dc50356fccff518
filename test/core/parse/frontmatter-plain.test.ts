/**
 * The quick reading of plain frontmatter (js-yaml, src/core/parse/frontmatter.ts) against the full
 * one (the yaml library): for every frontmatter of the example skills, the test fixtures, a
 * generated corpus shaped like public collections, and a grid of tricky scalars and layouts, the
 * data, the problems and every position a diagnostic can ask for are the same either way.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFrontmatter, readPlainFrontmatter, splitFrontmatter } from '../../../src/core/parse/frontmatter.ts';
import { sourceFromString } from '../../../src/core/parse/source-text.ts';
import { generateCorpus } from '../../../scripts/generate-corpus.ts';

const LIMITS = { maxFrontmatterBytes: 64 * 1024, maxDepth: 8, maxAliases: 100 };
const projectRoot = join(import.meta.dirname, '..', '..', '..');

function skillMdFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') skillMdFiles(path, out);
    else if (entry.isFile() && entry.name === 'SKILL.md') out.push(path);
  }
  return out;
}

/** Every path a diagnostic could point at: each key and item, at every depth, and one missing key per mapping. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [[...prefix, 'no-such-key']];
  if (typeof value !== 'object' || value === null) return out;
  for (const [key, child] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    out.push([...prefix, key], ...pathsOf(child, [...prefix, key]));
  }
  return out;
}

/** Asserts both readings agree; returns whether the quick one was taken. */
function compare(label: string, text: string): boolean {
  const source = sourceFromString(text);
  const quick = parseFrontmatter(source, LIMITS);
  const full = parseFrontmatter(source, LIMITS, { fullParser: true });
  expect({ label, data: quick.data, problems: quick.problems, body: quick.body }).toEqual({ label, data: full.data, problems: full.problems, body: full.body });
  for (const path of [[], ...pathsOf(full.data)]) expect({ label, path, at: quick.locate(path) }).toEqual({ label, path, at: full.locate(path) });
  const split = splitFrontmatter(text);
  return split.kind === 'yaml' && readPlainFrontmatter(text.slice(split.yamlStart, split.closeStart), LIMITS.maxDepth) !== undefined;
}

const SCALARS = [
  'plain text', 'yes', 'No', 'on', 'OFF', 'true', 'True', 'TRUE', 'false', 'null', 'Null', '~', '', '0', '-0', '+1', '017', '0o17', '0x1F', '0b101', '1_000',
  '12345678901234567890', '1.5', '.5', '-.5', '1e3', '1E-3', '.inf', '-.Inf', '.NaN', '2024-01-01', '2024-01-01T10:00:00Z', '12:30:00', '1:30',
  '"double \\"quoted\\" \\u00e9 \\t tab"', "'single ''quoted'''", '"multi\n  line"', 'a # comment', 'a#not-comment', 'email@example.org', 'use `code`', 'Hello!',
  'Q & A', 'matches *.md', '50%', 'a: b', 'a:b', '- item', '[a, b]', '[a, [b, c]]', '{a: 1, b: [x]}', '{a: 1', '"unclosed', "'unclosed", '[a, b', 'x: y: z',
  '|\n  literal\n  block', '>-\n  folded\n  text', '|+\n  keep\n\n', '>2\n   indented', 'héllo wörld', '中文描述', '=', '@start', '`start', '? q', '"\\x41"',
];

const LAYOUTS: ((v: string) => string)[] = [
  (v) => `name: demo\ndescription: ${v}\n`,
  (v) => `name: demo\nmetadata:\n  key: ${v}\n  other: x\n`,
  (v) => `name: demo\ntags:\n  - ${v}\n  - second\n`,
  (v) => `name: demo\nlist: [${v}]\n`,
  (v) => `description: ${v}\nname: demo\n`,
  (v) => `name:   demo   # trailing comment\ndescription:\n  ${v}\n`,
  (v) => `"name": demo\n${v}: key\n`,
  (v) => `name: demo\n  description: ${v}\n`,
];

const SHAPES = [
  '', '# only a comment\n', 'just a string\n', '- a\n- b\n', 'name: a\nname: b\n', 'name: a\n\tdescription: b\n', 'name: &x a\nalias: *x\n', 'name: !!str 1\n',
  '%YAML 1.2\n', '<<: {a: 1}\nname: x\n', '? complex\n: key\n', '__proto__: x\n', 'constructor: x\n', 'a:\n  b:\n    c:\n      d:\n        e:\n          f:\n            g:\n              h:\n                i: deep\n',
  'name: a\n...\n', 'name: [a,\nb]\n', 'name: a\n description: b\n', 'name: "a"\ndescription: >\n  one\n\n  two\n', 'name: x\r\ndescription: >-\r\n  two\r\n  lines\r\n',
  '1: one\n2.0: two\ntrue: yes\nnull: n\nFalse: f\n', 'description: "first\nname: second"\n', "description: 'first\nname: second'\n", 'tags: [a,\nname: b]\n', 'name: a\nempty:\nlist:\n  -\n  - ""\n', 'name: a\nmap: {}\nseq: []\n', 'key with spaces: v\nname: x\n', 'name: a\ndescription: "line\\nbreak"\n',
];

describe('plain frontmatter, read quickly', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'skilldex-frontmatter-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('reads every real frontmatter as the yaml library does, and most of them quickly', () => {
    const corpus = generateCorpus({ count: 150, seed: 7, out: join(scratch, 'corpus') });
    const files = [...skillMdFiles(join(projectRoot, 'skills')), ...skillMdFiles(join(projectRoot, 'test', 'fixtures')), ...skillMdFiles(corpus.root)];
    let quick = 0;
    for (const file of files) if (compare(file, readFileSync(file, 'utf8'))) quick++;
    expect(files.length).toBeGreaterThan(250);
    // Real frontmatter is plain: the quick reading must serve nearly all of it to be worth having.
    expect(quick / files.length).toBeGreaterThan(0.85);
  });

  it('reads numbers quickly, each as the YAML 1.2 core schema resolves it', () => {
    // A package's schemas and limits hold numbers; they used to send the whole frontmatter to the full parser.
    const text = '---\nname: demo\ndescription: Sums.\ninput_schema:\n  type: object\n  properties:\n    n: {type: integer, minimum: 0, maximum: 100, default: 7}\nsecurity:\n  timeout_ms: 30000\nratio: 0.5\nhex: 0x1F\noctal: 0o17\nbig: 1e3\nnot-octal: 017\nnot-binary: 0b101\nnot-grouped: 1_000\nhalf: -.5\n---\nBody\n';
    expect(compare('numbers', text)).toBe(true);
    const { data } = parseFrontmatter(sourceFromString(text), LIMITS);
    expect(data).toMatchObject({ ratio: 0.5, hex: 31, octal: 15, big: 1000, 'not-octal': 17, 'not-binary': '0b101', 'not-grouped': '1_000', half: -0.5, security: { timeout_ms: 30000 } });
  });

  it('agrees on tricky scalars in every layout, and on odd and broken documents', () => {
    let quick = 0;
    let total = 0;
    for (const scalar of SCALARS) {
      for (const [i, layout] of LAYOUTS.entries()) {
        total++;
        if (compare(`layout ${i}: ${JSON.stringify(scalar)}`, `---\n${layout(scalar)}---\nBody\n`)) quick++;
      }
    }
    for (const shape of SHAPES) {
      total++;
      if (compare(`shape ${JSON.stringify(shape)}`, `---\n${shape}---\nBody\n`)) quick++;
    }
    // Both readings are exercised: neither path is dead.
    expect(quick).toBeGreaterThan(total / 3);
    expect(quick).toBeLessThan(total);
  });
});
