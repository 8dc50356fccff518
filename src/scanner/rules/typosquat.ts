import { defineRule } from '../rule.ts';
import { confusableSkeleton } from '../unicode.ts';

export const typosquat = defineRule({
  id: 'name/typosquat',
  severity: 'high',
  description: 'Name imitates another skill',
  explanation:
    'The skill\'s name is one edit (insertion, deletion, substitution or swap of neighbours) away from ' +
    'another skill in the registry, or looks identical to one once confusable characters are folded ' +
    '(`0`→`o`, `1`/`I`→`l`, `rn`→`m`, Cyrillic `а`→`a` …). ClawHavoc used such names to catch people ' +
    'installing a popular skill. Edit distance only applies to names of 4 or more characters.',
  hint: 'Choose a clearly distinct name. If the names are related on purpose, say so in the description and ask a maintainer to override.',
  reportedBy: 'the scan, once it knows the names of the other skills (src/scanner/scan.ts)',
});

/** Optimal string alignment distance ≤ 1, in one linear pass (no full matrix). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // substitution
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // transposition
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.slice(i + 1) === short.slice(i);
}

/** The known names this one imitates, most relevant first. Identical names are never reported. */
export function imitatedNames(name: string, knownNames: readonly string[]): { name: string; how: 'edit' | 'homoglyph' }[] {
  const own = name.toLowerCase();
  const skeleton = confusableSkeleton(name);
  const hits: { name: string; how: 'edit' | 'homoglyph' }[] = [];
  for (const known of knownNames) {
    const other = known.toLowerCase();
    if (other === own) continue;
    if (confusableSkeleton(known) === skeleton) hits.push({ name: known, how: 'homoglyph' });
    else if (other.length >= 4 && own.length >= 4 && withinOneEdit(own, other)) hits.push({ name: known, how: 'edit' });
  }
  return hits;
}

// A polynomial hash over UTF-16 code units, modulo 2^32 (Math.imul wraps): a name's one-deletion
// variants all hash in one pass, without building the strings.
const BASE = 0x01000193;
const mix = (h: number, length: number): number => Math.imul(h ^ Math.imul(length, 0x9e3779b1), 0x85ebca6b) ^ (h >>> 15);

/**
 * The hashes of `lower` and of each string one deletion from it. Two strings one edit apart
 * always share one: a substitution or a swap of neighbours is a deletion from each, an insertion
 * a deletion from the other.
 */
function variantHashes(lower: string): number[] {
  const n = lower.length;
  // pow[k] = BASE^k; prefix[k] = hash of lower[0..k); suffix[k] = lower(k..n) at its own positions.
  const pow = [1];
  for (let k = 1; k <= n; k++) pow.push(Math.imul(pow[k - 1]!, BASE));
  const prefix = [0];
  for (let k = 0; k < n; k++) prefix.push((Math.imul(prefix[k]!, BASE) + lower.charCodeAt(k)) | 0);
  const suffix = new Array<number>(n);
  let tail = 0;
  for (let k = n - 1; k >= 0; k--) {
    suffix[k] = tail;
    tail = (tail + Math.imul(lower.charCodeAt(k), pow[n - 1 - k]!)) | 0;
  }
  const out = [mix(prefix[n]!, n)];
  for (let k = 0; k < n; k++) out.push(mix((Math.imul(prefix[k]!, pow[n - 1 - k]!) + suffix[k]!) | 0, n - 1));
  return out;
}

/** Room for a name's position below its variant's hash in one double (exact up to 2^53). */
const POSITIONS = 2 ** 21;

/**
 * Names that `name` could imitate according to the typosquatting rule: same confusable skeleton,
 * or one deletion variant in common. Found through an index of the variants' hashes, so a
 * registry of n skills costs O(n·length) instead of O(n²) comparisons. The index is one sorted
 * array of hash-and-position numbers: a map from each variant string to its names cost 0.3 s at
 * 10,000 skills (200,000 strings and lists), and a build after one skill changed built it for
 * that one skill. The result is a superset of the rule's hits (a hash collision only adds a name
 * the rule then rejects), in registry order, so the scanner's verdict and evidence are exactly
 * what it would give with every name.
 */
export function imitationCandidates(names: readonly string[]): (name: string) => string[] {
  if (names.length >= POSITIONS) throw new Error(`typosquatting index: more than ${POSITIONS - 1} names`);
  const bySkeleton = new Map<string, number[]>();
  const lowered = names.map((name) => name.toLowerCase());
  // A name and each of its one-deletion variants: its length plus one entries.
  const index = new Float64Array(lowered.reduce((sum, lower) => sum + lower.length + 1, 0));
  let at = 0;
  names.forEach((name, i) => {
    const skeleton = confusableSkeleton(name);
    const list = bySkeleton.get(skeleton);
    if (list) list.push(i);
    else bySkeleton.set(skeleton, [i]);
    for (const h of variantHashes(lowered[i] as string)) index[at++] = (h >>> 0) * POSITIONS + i;
  });
  index.sort();
  /** Positions of the names with a variant hashing to `h`. */
  const withVariant = (h: number, found: Set<number>): void => {
    const from = (h >>> 0) * POSITIONS;
    let lo = 0;
    let hi = index.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((index[mid] as number) < from) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < index.length && (index[k] as number) < from + POSITIONS; k++) found.add((index[k] as number) - from);
  };
  return (name: string) => {
    const found = new Set<number>(bySkeleton.get(confusableSkeleton(name)));
    for (const h of variantHashes(name.toLowerCase())) withVariant(h, found);
    // Like the full list the scanner used to get: every name but the skill's own.
    return [...found].sort((a, b) => a - b).map((i) => names[i] as string).filter((n) => n !== name);
  };
}
