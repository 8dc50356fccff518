/**
 * keyword_extract: frequency-ranked keywords with stop-word filtering and CJK word segmentation.
 * Deterministic for a given Node/ICU version; no I/O.
 */

export interface Keyword {
  term: string;
  count: number;
  score: number;
}

export interface KeywordExtractOutput {
  keywords: Keyword[];
  phrases: { phrase: string; count: number }[];
  totalTerms: number;
  uniqueTerms: number;
}

interface Ctx {
  skill?: { name: string; version: string };
  log?: (msg: string) => void;
}

const EN_STOP = `a about above after again against all also am an and any are aren't as at be because been before
being below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during
each either etc even ever every few for from further get gets got had hadn't has hasn't have haven't having he her
here hers herself him himself his how however i if in into is isn't it it's its itself just let's like may me might
more most must mustn't my myself no nor not now of off often on once only or other ought our ours ourselves out over
own per same shall she should shouldn't since so some such than that that's the their theirs them themselves then
there there's these they they're this those though through thus to too under until up upon us use used uses using
very via was wasn't we we're were weren't what what's when where which while who whom whose why will with within
without won't would wouldn't yet you you're your yours yourself yourselves`;

const CJK_STOP = `的 了 是 在 和 与 及 或 而 也 就 都 并 对 从 把 被 让 给 向 以 于 之 其 这 那 这个 那个 这些 那些 一个
我们 你们 他们 它们 我 你 他 她 它 自己 可以 可能 已经 因为 所以 但是 如果 然后 还是 没有 不是 什么 怎么 为了 进行 通过 以及
一些 这样 那样 非常 很 更 最 等 等等 之后 之前 时候 其中 所有 能够 需要 使用
は が を に で と も の へ や から まで より です ます した する して いる ある こと もの ため これ それ あれ この その あの
よう ように など なる れる られる ない ので`;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

function toNumber(value: unknown, fallback: number, min: number, max: number): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(n)));
}

function normalise(segment: string): string {
  return segment.normalize('NFKC').toLowerCase().replace(/’/g, "'").replace(/^'+|'+$/g, '');
}

/** Word tokens in order; `null` marks a boundary (punctuation, stop word) that breaks phrases. */
export function tokenize(text: string, stop: Set<string>, minLength: number): (string | null)[] {
  const tokens: (string | null)[] = [];
  for (const { segment, isWordLike } of segmenter.segment(text)) {
    if (!isWordLike) {
      if (/[^\s]/u.test(segment)) tokens.push(null);
      continue;
    }
    const term = normalise(segment);
    const isCjk = CJK.test(term);
    const keep =
      term !== '' &&
      !stop.has(term) &&
      !/^[\p{N}.,]+$/u.test(term) &&
      (isCjk ? [...term].length >= 2 : [...term].length >= minLength);
    tokens.push(keep ? term : null);
  }
  return tokens;
}

/** Merge English plurals into their singular when both occur: skills → skill, registries → registry. */
function foldPlurals(counts: Map<string, { count: number; first: number }>): void {
  for (const [term, entry] of [...counts.entries()]) {
    if (term.length < 4 || !term.endsWith('s') || term.endsWith('ss') || !/^[a-z'-]+$/.test(term)) continue;
    const candidates = term.endsWith('ies')
      ? [term.slice(0, -3) + 'y']
      : /(s|x|z|ch|sh)es$/.test(term)
        ? [term.slice(0, -2), term.slice(0, -1)]
        : [term.slice(0, -1)];
    const singular = candidates.find((c) => counts.has(c));
    if (singular === undefined) continue;
    const target = counts.get(singular);
    if (target === undefined) continue;
    target.count += entry.count;
    target.first = Math.min(target.first, entry.first);
    counts.delete(term);
  }
}

export function extractKeywords(
  text: string,
  options: { limit?: number; minLength?: number; phrases?: boolean; stopwords?: string[] } = {},
): KeywordExtractOutput {
  const limit = options.limit ?? 10;
  const minLength = options.minLength ?? 3;
  const stop = new Set([...EN_STOP.split(/\s+/), ...CJK_STOP.split(/\s+/), ...(options.stopwords ?? []).map(normalise)]);
  stop.delete('');
  const tokens = tokenize(text, stop, minLength);

  const counts = new Map<string, { count: number; first: number }>();
  tokens.forEach((t, i) => {
    if (t === null) return;
    const entry = counts.get(t);
    if (entry) entry.count += 1;
    else counts.set(t, { count: 1, first: i });
  });
  foldPlurals(counts);
  const totalTerms = tokens.filter((t) => t !== null).length;
  const keywords = [...counts.entries()]
    .sort((a, b) => b[1].count - a[1].count || a[1].first - b[1].first)
    .slice(0, limit)
    .map(([term, { count }]) => ({ term, count, score: Math.round((count / totalTerms) * 10000) / 10000 }));

  const phrases: { phrase: string; count: number }[] = [];
  if (options.phrases) {
    const pairCounts = new Map<string, { count: number; first: number }>();
    for (let i = 0; i + 1 < tokens.length; i++) {
      const a = tokens[i];
      const b = tokens[i + 1];
      if (a == null || b == null) continue;
      const joiner = CJK.test(a) && CJK.test(b) ? '' : ' ';
      const phrase = `${a}${joiner}${b}`;
      const entry = pairCounts.get(phrase);
      if (entry) entry.count += 1;
      else pairCounts.set(phrase, { count: 1, first: i });
    }
    for (const [phrase, { count }] of [...pairCounts.entries()].sort((x, y) => y[1].count - x[1].count || x[1].first - y[1].first)) {
      if (count < 2 || phrases.length >= limit) break;
      phrases.push({ phrase, count });
    }
  }
  return { keywords, phrases, totalTerms, uniqueTerms: counts.size };
}

export async function execute(input: Record<string, unknown>, ctx?: Ctx): Promise<KeywordExtractOutput> {
  const text = input.text;
  if (typeof text !== 'string') throw new TypeError('keyword_extract: input.text must be a string');
  const extra = Array.isArray(input.stopwords) ? input.stopwords.filter((s): s is string => typeof s === 'string') : [];
  const result = extractKeywords(text, {
    limit: toNumber(input.limit, 10, 1, 100),
    minLength: toNumber(input.minLength, 3, 1, 50),
    phrases: input.phrases === true || input.phrases === 'true',
    stopwords: extra,
  });
  ctx?.log?.(`keyword_extract: ${result.keywords.length} keywords from ${result.totalTerms} terms`);
  return result;
}
