import { describe, expect, it } from 'vitest';
import { imitatedNames, imitationCandidates, withinOneEdit } from '../../src/scanner/rules/typosquat.ts';
import { confusableSkeleton } from '../../src/scanner/unicode.ts';

/** Names like a registry's, with look-alikes of several of them mixed in (every kind the rule knows). */
function registryNames(): string[] {
  const words = ['pdf', 'tools', 'email', 'draft', 'review', 'code', 'sql', 'query', 'image', 'resize', 'git', 'commit', 'lint', 'csv', 'json', 'translate'];
  const names = new Set<string>();
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % 1_000_003;
  while (names.size < 1500) names.add(`${words[next() % words.length]}-${words[next() % words.length]}-${next().toString(36)}`);
  const list = [...names];
  const lookAlikes = list.slice(0, 60).flatMap((n, i) => {
    const k = 1 + (i % (n.length - 2));
    return [
      n.slice(0, k) + n.slice(k + 1), // deletion
      `${n.slice(0, k)}x${n.slice(k)}`, // insertion
      `${n.slice(0, k)}${n[k + 1]}${n[k]}${n.slice(k + 2)}`, // swap of neighbours
      `${n.slice(0, k)}q${n.slice(k + 1)}`, // substitution
      n.replaceAll('o', '0').replaceAll('l', '1'), // digits for letters
      n.replaceAll('a', 'а').replaceAll('e', 'е'), // Cyrillic а and е
      n.replaceAll('m', 'rn'), // a digraph
      n.toUpperCase(), // case alone
    ];
  });
  // A registry's names are distinct (a repeated name is refused before the scan).
  return [...new Set([...list, ...lookAlikes, 'abcd', 'abdc', 'bacd', 'ab', 'a', 'é-tools', 'e\u0301-tools', '😀-tools', '😁-tools'])];
}

describe('the typosquatting candidates index', () => {
  const names = registryNames();
  const candidatesOf = imitationCandidates(names);

  it('gives every name the rule would report, so the scan with candidates equals the scan with every name', () => {
    let hits = 0;
    // The look-alikes, what they imitate, and a sample of the rest (every pair would take long).
    for (const name of [...names.slice(0, 60), ...names.slice(1500), ...names.slice(60, 1500).filter((_, i) => i % 10 === 0)]) {
      const candidates = candidatesOf(name);
      const everyName = imitatedNames(name, names);
      hits += everyName.length;
      expect(imitatedNames(name, candidates), name).toEqual(everyName);
    }
    // The look-alikes were found (the test would pass on an empty registry otherwise).
    expect(hits).toBeGreaterThan(300);
  });

  it('keeps registry order and leaves out the name itself', () => {
    for (const name of ['abcd', names[0] as string, names[1500] as string]) {
      const candidates = candidatesOf(name);
      expect(candidates).not.toContain(name);
      expect(candidates.map((c) => names.indexOf(c))).toEqual(candidates.map((c) => names.indexOf(c)).sort((a, b) => a - b));
    }
    expect(candidatesOf('abcd')).toEqual(expect.arrayContaining(['abdc', 'bacd']));
  });

  it('adds few names the rule rejects: the index is the variants, not a hash bucket of everything', () => {
    // With every variant built as a string, the candidates are exactly the names that share a
    // variant or a skeleton; hashing them may only add a collision now and then.
    const variants = (s: string) => new Set([s, ...Array.from({ length: s.length }, (_, k) => s.slice(0, k) + s.slice(k + 1))]);
    let extra = 0;
    for (const name of [...names.slice(0, 60), ...names.slice(1500, 1700)]) {
      const mine = variants(name.toLowerCase());
      const exact = names.filter((other) => other !== name && (confusableSkeleton(other) === confusableSkeleton(name) || [...variants(other.toLowerCase())].some((v) => mine.has(v))));
      const candidates = candidatesOf(name);
      expect(candidates).toEqual(expect.arrayContaining(exact));
      extra += candidates.length - exact.length;
    }
    expect(extra).toBeLessThanOrEqual(2);
    expect(withinOneEdit('abcd', 'abdc')).toBe(true);
  });
});
