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
