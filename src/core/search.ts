import { isCjkTerm, tokenize } from './tokenize.ts';

/**
 * BM25F ranking over a skill catalog. Pure and browser-safe: the runtime, the CLI and the site all
 * rank with this one function, so a query finds the same skills everywhere.
 *
 * Everything that does not depend on the query (field-length normalisation, per-term weights) is
 * computed once in `createSearchIndex`, which leaves a query with one postings walk per term. That
 * keeps a query over 10k skills in the low milliseconds.
 */

/** The fields a skill is ranked on. */
export interface SearchDocument {
  name: string;
  title?: string;
  description: string;
  tags?: readonly string[];
  keywords?: readonly string[];
}

/** Field weights: a word in the name says more about a skill than the same word in its description. */
const FIELDS = [
  { get: (d: SearchDocument) => d.name.replace(/[-_]/g, ' '), weight: 4, b: 0.5 },
  { get: (d: SearchDocument) => d.title ?? '', weight: 2, b: 0.5 },
  { get: (d: SearchDocument) => (d.tags ?? []).join(' '), weight: 2, b: 0.3 },
  { get: (d: SearchDocument) => (d.keywords ?? []).join(' '), weight: 2, b: 0.3 },
  { get: (d: SearchDocument) => d.description, weight: 1, b: 0.75 },
] as const;

const K1 = 1.2;
/** How much a prefix-expanded term counts against an exact one (`rev` → `review`). */
const PREFIX_WEIGHT = 0.6;
const MAX_PREFIX_EXPANSIONS = 16;
/** Added when the whole query is the skill's name, so `pdf` puts the skill named `pdf` first. */
const EXACT_NAME_BONUS = 5;

interface Postings {
  docs: number[];
  /** BM25F pseudo term frequency per doc, already length-normalised and weighted. */
  tf: number[];
  idf: number;
}

/** A prepared index; build it once per catalog with {@link createSearchIndex}. */
export interface SearchIndex<T extends SearchDocument> {
  readonly docs: readonly T[];
  readonly postings: ReadonlyMap<string, Postings>;
  /** Sorted word terms (no CJK), for prefix expansion by binary search. */
  readonly vocabulary: readonly string[];
  /** Lowercased names with `-`/`_` as spaces, for the exact-name bonus. */
  readonly names: readonly string[];
}

export interface SearchHit<T> {
  doc: T;
  score: number;
}

export interface SearchIndexOptions<T> {
  /** At most this many hits (default 10). */
  limit?: number;
  /** Only documents passing this test are returned. */
  filter?: (doc: T) => boolean;
}

const normaliseName = (text: string): string => text.normalize('NFKC').toLowerCase().replace(/[-_\s]+/g, ' ').trim();

/**
 * Prepares a catalog for ranking.
 *
 * @example
 * const index = createSearchIndex(registryIndex.skills);
 * searchIndex(index, 'review code', { limit: 5 });
 */
export function createSearchIndex<T extends SearchDocument>(docs: readonly T[]): SearchIndex<T> {
  const tokenised = docs.map((doc) => FIELDS.map((field) => tokenize(field.get(doc))));
  const averages = FIELDS.map((_, f) => {
    const total = tokenised.reduce((sum, fields) => sum + (fields[f] as string[]).length, 0);
    return Math.max(total / Math.max(docs.length, 1), 1);
  });
  const postings = new Map<string, Postings>();
  tokenised.forEach((fields, docIndex) => {
    const combined = new Map<string, number>();
    fields.forEach((terms, f) => {
      const field = FIELDS[f] as (typeof FIELDS)[number];
      const norm = 1 - field.b + (field.b * terms.length) / (averages[f] as number);
      const counts = new Map<string, number>();
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
      for (const [term, count] of counts) combined.set(term, (combined.get(term) ?? 0) + (field.weight * count) / norm);
    });
    for (const [term, tf] of combined) {
      let list = postings.get(term);
      if (!list) postings.set(term, (list = { docs: [], tf: [], idf: 0 }));
      list.docs.push(docIndex);
      list.tf.push(tf);
    }
  });
  const n = docs.length;
  for (const list of postings.values()) {
    const df = list.docs.length;
    list.idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }
  const vocabulary = [...postings.keys()].filter((term) => !isCjkTerm(term)).sort();
  return { docs, postings, vocabulary, names: docs.map((doc) => normaliseName(doc.name)) };
}

/** Vocabulary terms starting with `prefix`, found by binary search over the sorted list. */
function expandPrefix(vocabulary: readonly string[], prefix: string): string[] {
  let lo = 0;
  let hi = vocabulary.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((vocabulary[mid] as string) < prefix) lo = mid + 1;
    else hi = mid;
  }
  const found: string[] = [];
  for (let i = lo; i < vocabulary.length && found.length < MAX_PREFIX_EXPANSIONS; i += 1) {
    const term = vocabulary[i] as string;
    if (!term.startsWith(prefix)) break;
    if (term !== prefix) found.push(term);
  }
  return found;
}

/**
 * Ranks the catalog against a query, best first; ties are broken by name so results are stable.
 * A query word that matches nothing exactly is expanded to the words it is a prefix of. An empty
 * query returns every document that passes the filter, in name order.
 *
 * @example
 * searchIndex(index, '代码质量').map((hit) => hit.doc.name); // ['code-quality-analyzer', …]
 */
export function searchIndex<T extends SearchDocument>(index: SearchIndex<T>, query: string, options: SearchIndexOptions<T> = {}): SearchHit<T>[] {
  const limit = options.limit ?? 10;
  const filter = options.filter;
  const terms = [...new Set(tokenize(query))];
  if (terms.length === 0) {
    const all = index.docs.filter((doc) => !filter || filter(doc)).map((doc) => ({ doc, score: 0 }));
    return all.sort((a, b) => (a.doc.name < b.doc.name ? -1 : a.doc.name > b.doc.name ? 1 : 0)).slice(0, limit);
  }
  const scores = new Float64Array(index.docs.length);
  const touched: number[] = [];
  const accumulate = (list: Postings, weight: number): void => {
    for (let i = 0; i < list.docs.length; i += 1) {
      const doc = list.docs[i] as number;
      const tf = list.tf[i] as number;
      if (scores[doc] === 0) touched.push(doc);
      scores[doc] = (scores[doc] as number) + (weight * list.idf * tf * (K1 + 1)) / (tf + K1);
    }
  };
  for (const term of terms) {
    const exact = index.postings.get(term);
    if (exact) accumulate(exact, 1);
    else if (!isCjkTerm(term) && term.length >= 2) {
      for (const expanded of expandPrefix(index.vocabulary, term)) accumulate(index.postings.get(expanded) as Postings, PREFIX_WEIGHT);
    }
  }
  const wholeName = normaliseName(query);
  for (const docIndex of touched) if (index.names[docIndex] === wholeName) scores[docIndex] = (scores[docIndex] as number) + EXACT_NAME_BONUS;
  // Keep the best `limit` in a small min-heap instead of sorting every touched document: a word
  // common to thousands of skills would otherwise cost a full sort on every keystroke.
  const heap: number[] = [];
  const better = (a: number, b: number): boolean => {
    const sa = scores[a] as number;
    const sb = scores[b] as number;
    return sa !== sb ? sa > sb : (index.docs[a] as T).name < (index.docs[b] as T).name;
  };
  const siftDown = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < heap.length && better(heap[worst] as number, heap[l] as number)) worst = l;
      if (r < heap.length && better(heap[worst] as number, heap[r] as number)) worst = r;
      if (worst === i) return;
      [heap[i], heap[worst]] = [heap[worst] as number, heap[i] as number];
      i = worst;
    }
  };
  for (const docIndex of touched) {
    if (heap.length === limit && !better(docIndex, heap[0] as number)) continue;
    if (filter && !filter(index.docs[docIndex] as T)) continue;
    if (heap.length < limit) {
      heap.push(docIndex);
      for (let i = heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (!better(heap[parent] as number, heap[i] as number)) break;
        [heap[i], heap[parent]] = [heap[parent] as number, heap[i] as number];
        i = parent;
      }
    } else {
      heap[0] = docIndex;
      siftDown(0);
    }
  }
  heap.sort((a, b) => (better(a, b) ? -1 : 1));
  return heap.map((docIndex) => ({ doc: index.docs[docIndex] as T, score: scores[docIndex] as number }));
}
