/**
 * Corpus-style generator for the benchmark: skills shaped like the public collections people
 * point `skilldex validate` at, as opposed to scripts/generate-registry.ts, which covers every
 * format Skilldex itself publishes.
 *
 *   node scripts/generate-corpus.ts --count 2000 --seed 1 --out bench/work/corpus-2000
 *
 * Writes `<out>/skills/<collection>/<name>/SKILL.md` (collections nest skills one folder deeper,
 * as a checkout of many repositories does), with what real collections carry: long bodies (a
 * few hundred lines, some over a thousand), many reference files in nested folders, YAML
 * frontmatter in block and flow style (`metadata: {author: x, version: "1.2"}`,
 * `allowed-tools: [Read, Grep]`), and Python or shell scripts in about a third of them. Only
 * SKILL.md, because that is the one format both Skilldex and the reference validator
 * (`skills-ref`) read, so they are timed over the same bytes.
 *
 * A pure function of (count, seed), like the registry generator; every skill validates with no
 * error in both validators (`test/bench/corpus.test.ts`).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AUTHORS, body, englishSentence, LICENSES, NamePool, NOUNS, pseudoWord, reference, rng, VERBS, type Rng } from './generate-registry.ts';

export interface CorpusOptions {
  count: number;
  seed?: number;
  /** Root to create; an existing folder is replaced. */
  out: string;
}

export interface GeneratedCorpus {
  root: string;
  /** Every skill folder, relative to the root, in generation order. */
  skillDirs: string[];
  fileCount: number;
  bytes: number;
}

const COLLECTIONS = ['anthropic-skills', 'awesome-claude-skills', 'community-pack', 'devtools-collective', 'data-science-kit', 'writers-toolbox', 'ops-runbooks', 'edu-skills', 'finance-helpers', 'design-system-skills', 'research-assistants', 'legal-drafts'];
const TOOLS = ['Read', 'Write', 'Edit', 'Grep', 'Glob', 'Bash', 'WebFetch', 'WebSearch'];
const REF_DIRS = ['references', 'references/api', 'references/guides/advanced', 'docs', 'examples', 'templates'];

/** A skill's description: one to a few sentences, with when to use it, as real ones read. */
function corpusDescription(r: Rng, verb: string, noun: string): string {
  const parts = [`${verb.charAt(0).toUpperCase()}${verb.slice(1)} ${noun}s.`];
  for (let i = 0, n = r.int(1, 5); i < n; i++) parts.push(englishSentence(r, undefined));
  parts.push(`Use when the user asks to ${verb} a ${noun}.`);
  return parts.join(' ').slice(0, 1000);
}

/** YAML frontmatter in the styles real collections mix: plain, block maps and flow collections. */
function frontmatter(r: Rng, name: string, description: string): string {
  const lines = ['---', `name: ${name}`];
  // Descriptions are quoted, folded or plain, as people write them.
  const style = r.int(0, 2);
  if (style === 0) lines.push(`description: ${JSON.stringify(description)}`);
  else if (style === 1) lines.push('description: >-', ...wrap(description, 90).map((l) => `  ${l}`));
  else lines.push(`description: ${JSON.stringify(description).slice(1, -1).replaceAll('\\"', '"').replace(/: /g, ' - ').replace(/^[^A-Za-z]+/, '')}`);
  if (r.chance(0.6)) lines.push(`license: ${r.pick(LICENSES)}`);
  if (r.chance(0.4)) lines.push(`allowed-tools: [${r.some(TOOLS, r.int(1, 4)).join(', ')}]`);
  if (r.chance(0.5)) lines.push(`metadata: {author: ${r.pick(AUTHORS)}, version: "${r.int(0, 3)}.${r.int(0, 9)}.${r.int(0, 9)}"}`);
  else if (r.chance(0.4)) lines.push('metadata:', `  author: ${r.pick(AUTHORS)}`, `  category: ${r.pick(NOUNS)}`);
  if (r.chance(0.15)) lines.push(`compatibility: Requires Python 3.${r.int(9, 13)} and network access`);
  lines.push('---', '');
  return lines.join('\n');
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + word.length + 1 > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}

function pythonScript(r: Rng, noun: string): string {
  const lines = ['#!/usr/bin/env python3', `"""${englishSentence(r, undefined)}"""`, 'import json', 'import sys', '', ''];
  for (let i = 0, n = r.int(2, 12); i < n; i++) {
    lines.push(`def step_${i}(items):`, `    """${englishSentence(r, undefined)}"""`, `    return [item for item in items if item.get("${noun}") != ${i}]`, '', '');
  }
  lines.push('def main():', '    items = json.load(sys.stdin)', '    print(json.dumps(step_0(items), indent=2))', '', '', 'if __name__ == "__main__":', '    main()', '');
  return lines.join('\n');
}

function shellScript(r: Rng): string {
  return ['#!/bin/sh', `# ${englishSentence(r, undefined)}`, 'set -eu', 'for f in "$@"; do', '  wc -l "$f"', 'done', ''].join('\n');
}

export function generateCorpus(options: CorpusOptions): GeneratedCorpus {
  const r = rng(options.seed ?? 1);
  const root = resolve(options.out);
  rmSync(root, { recursive: true, force: true });
  const pool = new NamePool();
  const skillDirs: string[] = [];
  let fileCount = 0;
  let bytes = 0;
  const write = (rel: string, text: string) => {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    fileCount++;
    bytes += Buffer.byteLength(text);
  };
  for (let i = 0; i < options.count; i++) {
    const verb = r.skewed(VERBS);
    const noun = r.skewed(NOUNS);
    let name = '';
    for (let guard = 0; !name; guard++) {
      const candidate = guard < 3 ? `${verb}-${noun}-${pseudoWord(r)}` : `${pseudoWord(r)}-${pseudoWord(r)}-${noun}`;
      if (candidate.length <= 64 && pool.tryAdd(candidate)) name = candidate;
    }
    const dir = `skills/${r.pick(COLLECTIONS)}/${name}`;
    skillDirs.push(dir);
    // Reference files: none for a third, a handful for most, dozens for a few.
    const roll = r.next();
    const refCount = roll < 0.3 ? 0 : roll < 0.9 ? r.int(1, 8) : r.int(15, 40);
    const refs = Array.from({ length: refCount }, (_, k) => `${r.pick(REF_DIRS)}/${r.pick(NOUNS)}-${k}.md`);
    const lines = r.chance(0.1) ? r.int(800, 1500) : r.int(80, 500);
    write(`${dir}/SKILL.md`, frontmatter(r, name, corpusDescription(r, verb, noun)) + body(r, `${verb} ${noun}`, 'en', lines, refs.slice(0, 10)));
    for (const ref of refs) write(`${dir}/${ref}`, reference(r, 'en'));
    if (r.chance(0.3)) write(`${dir}/scripts/${verb}_${noun}.py`, pythonScript(r, noun));
    if (r.chance(0.1)) write(`${dir}/scripts/run.sh`, shellScript(r));
  }
  return { root, skillDirs, fileCount, bytes };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { count: { type: 'string', default: '2000' }, seed: { type: 'string', default: '1' }, out: { type: 'string' } } });
  if (!values.out) {
    console.error('usage: node scripts/generate-corpus.ts [--count 2000] [--seed 1] --out <dir>');
    process.exitCode = 2;
    return;
  }
  const started = performance.now();
  const corpus = generateCorpus({ count: Number(values.count), seed: Number(values.seed), out: values.out });
  console.log(`generated ${corpus.skillDirs.length} skills (${corpus.fileCount} files, ${(corpus.bytes / 1e6).toFixed(1)} MB) in ${corpus.root} in ${((performance.now() - started) / 1000).toFixed(1)}s`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
