/**
 * Synthetic registry generator for the benchmarks (`npm run bench`) and scale tests.
 *
 *   node scripts/generate-registry.ts --count 1000 --seed 1 --out bench/work/gen-1000
 *
 * Writes a registry repository root (skilldex.config.json + skills/) holding a realistic mix of
 * every format and mode Skilldex accepts: plain SKILL.md, extended packages with
 * scripts/execute.ts, protocol-script packages, and skill.json code / llm / composite functions
 * whose pipelines call earlier generated functions (so the call graph can have no cycle).
 * Description lengths run from one line to ~900 characters, bodies from a few lines to a few
 * hundred, with references/, scripts/ and assets/ files, tags, categories (some as category
 * folders) and about 10% Chinese or Japanese text.
 *
 * Everything is derived from the seed, never from the clock, so a (count, seed) pair always gives
 * the same bytes; the benchmark compares runs only because the input is identical.
 *
 * Every generated skill passes validation with no error and no security finding: names are kept
 * at least two edits apart and distinct after confusable folding, because the typosquatting
 * rule would otherwise (rightly) flag `foo-tool-12` against `foo-tool-13`.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { confusableSkeleton } from '../src/scanner/unicode.ts';

export interface GenerateOptions {
  /** Number of skills (at least 1). */
  count: number;
  seed?: number;
  /** Registry root to create; an existing folder is replaced. */
  out: string;
}

export type GeneratedKind = 'skill-md' | 'skill-md-scripts' | 'package-execute' | 'package-protocol' | 'json-code' | 'json-llm' | 'json-composite';

export interface GeneratedSkill {
  name: string;
  /** Folder relative to the root: `skills/<name>` or `skills/<category>/<name>`. */
  dir: string;
  kind: GeneratedKind;
  files: number;
  lang: 'en' | 'zh' | 'ja';
}

export interface GeneratedRegistry {
  root: string;
  count: number;
  seed: number;
  skills: GeneratedSkill[];
  /** A package with exactly 20 files, for the install benchmark. */
  twentyFileSkill: string;
  /** Words that occur in the descriptions of exactly one skill (made-up product names). */
  rareTerms: string[];
  /** Words that occur in the descriptions of many skills. */
  commonTerms: string[];
  /** Chinese and Japanese words used in the CJK skills. */
  cjkTerms: string[];
  /** Total bytes written under skills/. */
  bytes: number;
  fileCount: number;
}

/** mulberry32: tiny, fast and good enough to make the output a pure function of the seed. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  // Zipf-like choice: early entries are much more frequent, as tags and topics are in real catalogs.
  const skewed = <T>(list: readonly T[]): T => list[Math.min(list.length - 1, Math.floor(list.length * next() ** 2.2))] as T;
  const some = <T>(list: readonly T[], n: number, chooser: (l: readonly T[]) => T = pick): T[] => {
    const out = new Set<T>();
    for (let guard = 0; out.size < n && guard < n * 10; guard++) out.add(chooser(list));
    return [...out];
  };
  return { next, int, pick, skewed, some, chance: (p: number) => next() < p };
}
export type Rng = ReturnType<typeof rng>;

export const VERBS = ['parse', 'format', 'convert', 'extract', 'summarize', 'validate', 'analyze', 'render', 'translate', 'compare', 'merge', 'split', 'index', 'search', 'classify', 'clean', 'export', 'import', 'schedule', 'monitor', 'review', 'draft', 'plan', 'audit', 'profile', 'lint', 'test', 'deploy', 'backup', 'sync', 'tag', 'rank', 'label', 'track', 'report', 'annotate', 'normalize', 'compress', 'encode', 'measure'];
export const NOUNS = ['data', 'text', 'file', 'report', 'table', 'image', 'invoice', 'email', 'meeting', 'ticket', 'commit', 'release', 'schema', 'query', 'log', 'metric', 'budget', 'contract', 'recipe', 'calendar', 'note', 'diagram', 'slide', 'spreadsheet', 'document', 'api', 'config', 'dataset', 'survey', 'transcript', 'changelog', 'resume', 'article', 'citation', 'glossary', 'roadmap', 'incident', 'alert', 'dashboard', 'backlog', 'playlist', 'map', 'route', 'order', 'payment', 'receipt', 'lesson', 'quiz', 'poem', 'story'];
const FORMATS = ['markdown', 'json', 'csv', 'yaml', 'html', 'pdf', 'xml', 'toml', 'plain text', 'a table'];
const SOURCES = ['a folder of files', 'the clipboard', 'a pasted snippet', 'a git repository', 'an exported archive', 'a shared drive', 'a spreadsheet export', 'a chat thread', 'meeting notes', 'a web form'];
const AUDIENCES = ['developers', 'analysts', 'support teams', 'writers', 'students', 'managers', 'researchers', 'operators', 'designers', 'translators'];
const CATEGORIES = ['data', 'dev', 'writing', 'productivity', 'docs', 'text', 'workflow', 'finance', 'education', 'ops', 'design', 'research'];
const TAGS = ['data', 'text', 'automation', 'markdown', 'json', 'csv', 'review', 'writing', 'devops', 'testing', 'git', 'api', 'reporting', 'summary', 'search', 'translation', 'email', 'calendar', 'finance', 'education', 'security', 'cli', 'python', 'typescript', 'shell', 'images', 'pdf', 'docs', 'planning', 'research', 'analytics', 'quality', 'formatting', 'i18n', 'chinese', 'japanese', 'productivity', 'monitoring', 'release', 'schema', 'sql', 'yaml', 'html', 'metrics', 'notes', 'meetings', 'tickets', 'invoices', 'budget', 'compliance', 'accessibility', 'design', 'diagrams', 'slides', 'spreadsheets', 'logs', 'alerts', 'backup', 'sync', 'recipes', 'travel', 'health', 'music', 'legal', 'hr', 'sales', 'marketing', 'support', 'ops', 'ml'];
export const LICENSES = ['MIT', 'Apache-2.0', 'BSD-3-Clause', 'CC-BY-4.0', 'ISC'];
export const AUTHORS = ['skilldex', 'alice', 'bob-tools', 'data-guild', 'acme-labs', 'writers-room', 'ops-crew', 'kenji', 'mei', 'studio-nine'];
const SYLLABLES = ['ka', 'ze', 'vo', 'ri', 'lu', 'pha', 'qui', 'mo', 'tre', 'xa', 'bel', 'dor', 'fen', 'gal', 'hir', 'jun', 'kel', 'lom', 'nyx', 'ost', 'pru', 'sar', 'tav', 'ulm', 'vex', 'wyn', 'yor', 'zul'];

const ZH = {
  terms: ['数据', '表格', '报告', '翻译', '摘要', '代码', '审查', '文档', '日程', '会议', '邮件', '发票', '检查', '格式', '分析', '记忆', '搜索', '统计'],
  sentences: [
    '读取{t}并生成结构清晰的{t2}，适合团队每周汇报。',
    '当用户需要整理{t}或检查{t2}时使用本技能。',
    '支持批量处理，输出 Markdown 或 JSON，便于后续自动化。',
    '会标出缺失字段和可疑数值，并给出修改建议。',
    '适用于中文环境，能够正确处理全角标点和繁简混排。',
    '先列出{t}的要点，再按重要程度排序。',
  ],
};
const JA = {
  terms: ['翻訳', '要約', '議事録', '請求書', '敬語', '日程', 'データ', '報告書', 'レビュー', 'メール', '検索', '表計算', '校正', '分析'],
  sentences: [
    '{t}を読み込み、見やすい{t2}にまとめます。',
    'ユーザーが{t}の整理や{t2}の確認を求めたときに使います。',
    '出力は Markdown または JSON で、後続の自動処理に渡せます。',
    '抜けている項目や不自然な数値を指摘し、修正案を示します。',
    'ビジネス文書の敬語表現にも対応しています。',
    'まず{t}の要点を挙げ、重要度の順に並べます。',
  ],
};

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Keeps names distinct enough that neither the duplicate nor the typosquatting rule fires. */
export class NamePool {
  #variants = new Set<string>();
  #skeletons = new Set<string>();

  /**
   * Two strings within one edit (insertion, deletion, substitution, adjacent swap) always share a
   * one-deletion variant, so checking variants finds every such pair without comparing all pairs.
   */
  #variantsOf(name: string): string[] {
    const out = [name];
    for (let i = 0; i < name.length; i++) out.push(name.slice(0, i) + name.slice(i + 1));
    return out;
  }

  tryAdd(name: string): boolean {
    const kebab = name.replaceAll('_', '-');
    const skeleton = confusableSkeleton(kebab);
    const variants = this.#variantsOf(kebab);
    if (this.#skeletons.has(skeleton) || variants.some((v) => this.#variants.has(v))) return false;
    this.#skeletons.add(skeleton);
    for (const v of variants) this.#variants.add(v);
    return true;
  }
}

export function pseudoWord(r: Rng): string {
  let w = '';
  const n = r.int(2, 3);
  for (let i = 0; i < n; i++) w += r.pick(SYLLABLES);
  return w;
}

export function englishSentence(r: Rng, rare: string | undefined): string {
  const v = r.skewed(VERBS);
  const n = r.skewed(NOUNS);
  const templates = [
    () => `${cap(v)}s ${n} ${r.pick(NOUNS)}s from ${r.pick(SOURCES)} and returns ${r.pick(FORMATS)}.`,
    () => `Use it when ${r.pick(AUDIENCES)} need to ${v} a ${n} quickly and consistently.`,
    () => `Handles ${r.pick(FORMATS)} and ${r.pick(FORMATS)} input, keeps the original ${n} order, and reports every problem it finds.`,
    () => `Works offline; nothing is sent anywhere, and the ${n} is never modified in place.`,
    () => `Supports batches of ${r.int(2, 500)} ${n}s, with a summary of what changed and why.`,
    () => `Pairs well with ${r.pick(VERBS)} and ${r.pick(VERBS)} steps in a larger ${r.pick(NOUNS)} workflow.`,
    () => `Explains each decision in plain language so ${r.pick(AUDIENCES)} can check the result.`,
    () => `Designed for ${r.pick(AUDIENCES)} who ${r.pick(VERBS)} ${r.pick(NOUNS)}s every day${rare ? ` with ${cap(rare)}` : ''}.`,
  ];
  return (r.pick(templates) as () => string)();
}

function cjkSentence(r: Rng, lang: 'zh' | 'ja'): string {
  const pack = lang === 'zh' ? ZH : JA;
  return r.pick(pack.sentences).replace('{t}', r.pick(pack.terms)).replace('{t2}', r.pick(pack.terms));
}

/** Short (one line) to ~900 characters, skewed towards the short end like real catalogs. */
function description(r: Rng, lang: GeneratedSkill['lang'], rare: string | undefined): string {
  const roll = r.next();
  const target = roll < 0.3 ? r.int(40, 120) : roll < 0.85 ? r.int(120, 400) : r.int(400, 900);
  const parts: string[] = [];
  let length = 0;
  if (rare) {
    parts.push(`${cap(rare)} helper.`);
    length += rare.length + 8;
  }
  while (length < target) {
    const s = lang === 'en' ? englishSentence(r, undefined) : r.chance(0.8) ? cjkSentence(r, lang) : englishSentence(r, undefined);
    if (length + s.length > 950 && parts.length > 0) break;
    parts.push(s);
    length += s.length + 1;
  }
  return parts.join(lang === 'en' ? ' ' : '');
}

/** A Markdown body of `lines` lines or so: headings, steps, tips and a fenced example. */
export function body(r: Rng, title: string, lang: GeneratedSkill['lang'], lines: number, references: string[]): string {
  const out = [`# ${title}`, ''];
  const sentence = () => (lang === 'en' || r.chance(0.2) ? englishSentence(r, undefined) : cjkSentence(r, lang));
  while (out.length < lines) {
    const section = r.pick(['steps', 'notes', 'example', 'checklist']);
    if (section === 'steps') {
      out.push(lang === 'zh' ? '## 步骤' : lang === 'ja' ? '## 手順' : `## ${cap(r.pick(VERBS))} the ${r.pick(NOUNS)}`, '');
      for (let i = 1, n = r.int(3, 8); i <= n; i++) out.push(`${i}. ${sentence()}`);
    } else if (section === 'notes') {
      out.push('## Notes', '', sentence() + ' ' + sentence(), '', sentence());
    } else if (section === 'example') {
      out.push('## Example', '', '```json', JSON.stringify({ [r.pick(NOUNS)]: r.pick(FORMATS), count: r.int(1, 99), ok: r.chance(0.5) }, null, 2), '```');
    } else {
      out.push('## Checklist', '');
      for (let i = 0, n = r.int(2, 6); i < n; i++) out.push(`- [ ] ${sentence()}`);
    }
    out.push('');
  }
  if (references.length > 0) {
    out.push('## References', '');
    for (const ref of references) out.push(`- [${ref}](${ref})`);
    out.push('');
  }
  return out.join('\n');
}

export function reference(r: Rng, lang: GeneratedSkill['lang']): string {
  const lines = [`# ${cap(r.pick(NOUNS))} reference`, ''];
  for (let i = 0, n = r.int(5, 60); i < n; i++) lines.push(lang === 'en' || r.chance(0.3) ? englishSentence(r, undefined) : cjkSentence(r, lang), '');
  return lines.join('\n');
}

function asset(r: Rng): [string, string] {
  switch (r.int(0, 2)) {
    case 0:
      return ['assets/template.json', `${JSON.stringify({ title: cap(r.pick(NOUNS)), fields: r.some(NOUNS, r.int(2, 8)), version: r.int(1, 9) }, null, 2)}\n`];
    case 1: {
      const rows = ['name,value,unit'];
      for (let i = 0, n = r.int(3, 40); i < n; i++) rows.push(`${r.pick(NOUNS)},${r.int(0, 9999)},${r.pick(['kg', 'm', 's', 'eur', 'pcs'])}`);
      return ['assets/example.csv', `${rows.join('\n')}\n`];
    }
    default:
      return ['assets/checklist.txt', `${r.some(VERBS, r.int(3, 10)).map((v) => `[ ] ${v} the ${r.pick(NOUNS)}`).join('\n')}\n`];
  }
}

const EXECUTE_TS = (name: string, noun: string) => `/**
 * ${name}: a deterministic transformation of the input text; no I/O, no network.
 */
export interface Outcome {
  output: unknown;
  status?: 'success' | 'error';
}

export async function execute(parameters: { text?: string; limit?: number }, context: unknown, config: unknown): Promise<Outcome> {
  const text = String(parameters.text ?? '');
  const limit = Math.max(1, Math.min(100, Number(parameters.limit ?? 10)));
  const words = text.split(/\\s+/).filter(Boolean);
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w.toLowerCase(), (counts.get(w.toLowerCase()) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, limit);
  return { output: { ${noun}: top.map(([term, count]) => ({ term, count })), words: words.length }, status: 'success' };
}
`;

const INDEX_TS = `/** Counts words and lines; pure function of the input. */
export async function execute(input: { text: string }, ctx: unknown): Promise<{ result: string; words: number }> {
  const words = input.text.split(/\\s+/).filter(Boolean).length;
  const lines = input.text.split('\\n').length;
  return { result: \`\${words} words, \${lines} lines\`, words };
}
`;

const PROTOCOL_PY = (actions: string[]) => `#!/usr/bin/env python3
"""Protocol script: one JSON request on stdin, one JSON envelope on stdout."""
import json
import sys


def main():
    request = json.load(sys.stdin)
    action = request.get("action")
    params = request.get("params") or {}
    if action not in (${actions.map((a) => JSON.stringify(a)).join(', ')},):
        print(json.dumps({"status": "error", "error": {"code": "UNKNOWN_ACTION", "message": str(action)}}))
        return
    text = str(params.get("text", ""))
    print(json.dumps({"status": "success", "output": {"action": action, "length": len(text)}}))


if __name__ == "__main__":
    main()
`;

const PROTOCOL_SH = `#!/bin/sh
# Protocol script: reads the request on stdin and answers with one JSON envelope.
request=$(cat)
length=$(printf '%s' "$request" | wc -c | tr -d ' ')
printf '{"status":"success","output":{"bytes":%s}}\\n' "$length"
`;

const HELPER_PY = `"""Helper kept beside the SKILL.md; the agent may run it with python3."""
import sys

for line in sys.stdin:
    print(line.strip().lower())
`;

const TEXT_SCHEMA = { type: 'object', properties: { text: { type: 'string', description: 'The input text.' }, limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 } }, required: ['text'] };
const RESULT_SCHEMA = { type: 'object', properties: { result: { type: 'string' }, words: { type: 'integer' } }, required: ['result'] };

const KIND_WEIGHTS: [GeneratedKind, number][] = [
  ['skill-md', 0.34],
  ['skill-md-scripts', 0.1],
  ['package-execute', 0.14],
  ['package-protocol', 0.1],
  ['json-code', 0.12],
  ['json-llm', 0.12],
  ['json-composite', 0.08],
];

function pickKind(r: Rng): GeneratedKind {
  let x = r.next();
  for (const [kind, w] of KIND_WEIGHTS) if ((x -= w) < 0) return kind;
  return 'skill-md';
}

/**
 * Writes a synthetic registry and describes what it wrote.
 *
 * @example
 * const reg = await generateRegistry({ count: 200, seed: 1, out: '/tmp/reg' });
 * await buildRegistry({ root: reg.root, outDir: '/tmp/out' });
 */
export async function generateRegistry(options: GenerateOptions): Promise<GeneratedRegistry> {
  const count = Math.max(1, Math.floor(options.count));
  const seed = options.seed ?? 1;
  const root = resolve(options.out);
  const r = rng(seed * 2654435761 + count);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, 'skills'), { recursive: true });
  writeFileSync(join(root, 'skilldex.config.json'), `${JSON.stringify({ title: `Synthetic registry (${count} skills, seed ${seed})`, siteUrl: 'https://skills.example.org/' }, null, 2)}\n`);

  const pool = new NamePool();
  const skills: GeneratedSkill[] = [];
  /** Earlier code/llm function names a composite may call. */
  const callable: string[] = [];
  const rareTerms: string[] = [];
  const usedRare = new Set<string>();
  const cjkTerms = new Set<string>();
  const df = new Map<string, number>();
  let bytes = 0;
  let fileCount = 0;

  const write = (dir: string, rel: string, text: string) => {
    const abs = join(root, dir, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    bytes += Buffer.byteLength(text);
    fileCount++;
  };

  const uniqueName = (isJson: boolean): string => {
    for (;;) {
      const parts = r.chance(0.5) ? [r.skewed(VERBS), r.skewed(NOUNS), pseudoWord(r)] : [r.skewed(NOUNS), pseudoWord(r)];
      const name = parts.join(isJson ? '_' : '-');
      if (name.length <= 64 && pool.tryAdd(name)) return name;
    }
  };

  for (let i = 0; i < count; i++) {
    const first = i === 0;
    // The first skill is the install benchmark's 20-file package.
    let kind: GeneratedKind = first ? 'package-execute' : pickKind(r);
    if (kind === 'json-composite' && callable.length < 2) kind = 'json-code';
    const isJson = kind.startsWith('json-');
    const name = first ? 'install-twenty-files' : uniqueName(isJson);
    if (first) pool.tryAdd(name);
    const folder = name.replaceAll('_', '-');
    const category = r.skewed(CATEGORIES);
    const inCategoryFolder = r.chance(0.6);
    const dir = inCategoryFolder ? `skills/${category}/${folder}` : `skills/${folder}`;
    const langRoll = r.next();
    const lang: GeneratedSkill['lang'] = langRoll < 0.05 ? 'zh' : langRoll < 0.1 ? 'ja' : 'en';
    let rare: string | undefined;
    if (r.chance(0.3)) {
      const w = pseudoWord(r) + pseudoWord(r);
      if (!usedRare.has(w)) {
        usedRare.add(w);
        rare = w;
      }
    }
    const desc = description(r, lang, rare);
    if (rare && lang === 'en') rareTerms.push(rare);
    if (lang !== 'en') for (const t of (lang === 'zh' ? ZH : JA).terms) if (desc.includes(t)) cjkTerms.add(t);
    for (const w of new Set(desc.toLowerCase().match(/[a-z]+/g) ?? [])) df.set(w, (df.get(w) ?? 0) + 1);
    const tags = r.some(TAGS, r.int(1, 5), r.skewed);
    if (lang === 'zh') tags.push('chinese');
    if (lang === 'ja') tags.push('japanese');
    const uniqueTags = [...new Set(tags)];
    const title = lang === 'zh' ? `${r.pick(ZH.terms)}助手 ${folder}` : lang === 'ja' ? `${r.pick(JA.terms)}アシスタント ${folder}` : folder.split('-').map(cap).join(' ');
    const refCount = first ? 8 : r.chance(0.45) ? r.int(1, 3) : 0;
    const refs = Array.from({ length: refCount }, (_, k) => `references/${k === 0 ? 'guide' : `topic-${k}`}.md`);
    const lineRoll = r.next();
    const lines = lineRoll < 0.2 ? r.int(6, 20) : lineRoll < 0.85 ? r.int(20, 120) : r.int(120, 380);
    const before = fileCount;

    if (!isJson) {
      const fm: Record<string, unknown> = { name, description: desc };
      if (r.chance(0.7)) fm.license = r.pick(LICENSES);
      const isPackage = kind === 'package-execute' || kind === 'package-protocol';
      if (isPackage) {
        fm.displayName = title;
        fm.version = `${r.int(0, 3)}.${r.int(0, 20)}.${r.int(0, 9)}`;
        fm.type = 'direct';
        fm.author = r.pick(AUTHORS);
        if (!inCategoryFolder) fm.category = category;
        fm.tags = uniqueTags;
        if (r.chance(0.5)) fm.keywords = r.some(NOUNS, r.int(1, 4)).map((n) => `${n} ${r.pick(VERBS)}`);
        fm.capabilities = r.some(VERBS, r.int(1, 3)).map((v) => `${v}_${r.pick(NOUNS)}`);
        fm.input_schema = TEXT_SCHEMA;
        fm.output_schema = { type: 'object', properties: { words: { type: 'integer' } } };
        fm.security = { timeout_ms: r.pick([5000, 15000, 30000]), network: 'none', filesystem: 'none' };
      } else {
        fm.metadata = { author: r.pick(AUTHORS), version: `1.${r.int(0, 9)}.0` };
        if (r.chance(0.2)) fm['allowed-tools'] = 'Read Grep';
      }
      const scripts: [string, string][] = [];
      if (kind === 'package-execute') {
        scripts.push(['scripts/execute.ts', EXECUTE_TS(name, r.pick(NOUNS))]);
        const helpers = first ? 5 : r.chance(0.3) ? 1 : 0;
        for (let h = 0; h < helpers; h++) scripts.push([`scripts/helpers/part-${h}.ts`, `export const PART_${h} = ${JSON.stringify(r.some(NOUNS, 3))};\n`]);
        fm.resources = { entry: './scripts/execute.ts', ...(refs.length ? { references: refs.map((p) => `./${p}`) } : {}) };
      } else if (kind === 'package-protocol') {
        const actions = r.some(VERBS, r.int(1, 4));
        const py = r.chance(0.7);
        const script = py ? 'scripts/tool.py' : 'scripts/tool.sh';
        scripts.push([script, py ? PROTOCOL_PY(actions) : PROTOCOL_SH]);
        fm.actions = actions.map((a) => ({ name: a, description: `${cap(a)} the ${r.pick(NOUNS)} given in params.text.` }));
        fm.resources = { entry: `./${script}` };
      } else if (kind === 'skill-md-scripts') {
        scripts.push(['scripts/normalize.py', HELPER_PY]);
      }
      write(dir, 'SKILL.md', `---\n${stringify(fm, { lineWidth: 0 })}---\n\n${body(r, title, lang, lines, refs)}`);
      for (const [p, text] of scripts) write(dir, p, text);
    } else {
      const mode = kind === 'json-code' ? 'code' : kind === 'json-llm' ? 'llm' : 'composite';
      const json: Record<string, unknown> = { name, description: desc, category, input: TEXT_SCHEMA, output: RESULT_SCHEMA, mode };
      if (mode === 'composite') {
        const callees = r.some(callable, r.int(2, Math.min(3, callable.length)));
        json.calls = callees;
        json.pipeline = callees.map((callee, s) => ({
          step: `s${s + 1}`,
          skill: callee,
          input: { text: s === 0 ? '{{input.text}}' : `{{steps.s${s}.result}}`, limit: '{{input.limit | default: 10}}' },
          ...(s > 0 && r.chance(0.5) ? { condition: `{{steps.s${s}.words}}` } : {}),
        }));
        json.outputMapping = { result: `{{steps.s${callees.length}.result}}`, words: '{{steps.s1.words}}' };
      }
      json.version = `${r.int(0, 3)}.${r.int(0, 20)}.${r.int(0, 9)}`;
      json.tags = uniqueTags;
      json.author = r.pick(AUTHORS);
      json.timeout = r.pick([5000, 15000, 30000]);
      json.retry = r.int(0, 2);
      write(dir, 'skill.json', `${JSON.stringify(json, null, 2)}\n`);
      if (mode === 'code') write(dir, 'index.ts', INDEX_TS);
      if (mode === 'llm') write(dir, 'prompt.md', body(r, title, lang, Math.max(6, Math.round(lines / 3)), []));
      if (mode !== 'composite') callable.push(name);
    }
    refs.forEach((ref) => write(dir, ref, reference(r, lang)));
    if (!isJson && (first || r.chance(0.2))) {
      const [p, text] = asset(r);
      write(dir, p, text);
    }
    if (first) {
      // Pad the install fixture to exactly 20 files.
      for (let k = 0; fileCount - before < 20; k++) write(dir, `assets/data-${k}.json`, `${JSON.stringify({ k, values: r.some(NOUNS, 5) })}\n`);
    }
    skills.push({ name, dir, kind, files: fileCount - before, lang });
  }

  const commonTerms = [...df].filter(([w, n]) => w.length > 3 && n >= count * 0.05).sort((a, b) => b[1] - a[1]).slice(0, 20).map(([w]) => w);
  return { root, count, seed, skills, twentyFileSkill: 'install-twenty-files', rareTerms, commonTerms, cjkTerms: [...cjkTerms].sort(), bytes, fileCount };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { count: { type: 'string', default: '1000' }, seed: { type: 'string', default: '1' }, out: { type: 'string' }, json: { type: 'boolean', default: false } } });
  if (!values.out) {
    console.error('usage: node scripts/generate-registry.ts --count N [--seed S] --out <dir> [--json]');
    process.exitCode = 2;
    return;
  }
  const started = performance.now();
  const result = await generateRegistry({ count: Number(values.count), seed: Number(values.seed), out: values.out });
  if (values.json) {
    console.log(JSON.stringify({ ...result, skills: undefined }));
    return;
  }
  const kinds = new Map<string, number>();
  for (const s of result.skills) kinds.set(s.kind, (kinds.get(s.kind) ?? 0) + 1);
  const cjk = result.skills.filter((s) => s.lang !== 'en').length;
  console.log(`generated ${result.count} skills (${result.fileCount} files, ${(result.bytes / 1e6).toFixed(1)} MB) in ${result.root} in ${((performance.now() - started) / 1000).toFixed(1)}s`);
  console.log(`  ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}; CJK ${cjk}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
