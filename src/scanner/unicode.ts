/**
 * Hidden and look-alike Unicode. Attackers smuggle instructions to a model in characters a
 * reviewer cannot see (Snyk ToxicSkills), so every excerpt the scanner prints goes
 * through `makeVisible`, and hidden payloads are decoded back to the text they carry.
 */
import { codePointLabel } from '../core/control-chars.ts';
import { LATIN_LOOKALIKES } from '../core/names.ts';

/** Bidirectional controls that reorder how text is displayed (Trojan Source, CVE-2021-42574). */
export const isBidiControl = (cp: number): boolean =>
  (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp === 0x061c;

/** The tag block: each U+E00xx mirrors one ASCII character and renders as nothing. */
export const isTagCharacter = (cp: number): boolean => cp >= 0xe0000 && cp <= 0xe007f;

/** Zero-width and invisible formatting characters. */
export const isZeroWidth = (cp: number): boolean =>
  cp === 0x200b || cp === 0x200c || cp === 0x200d || cp === 0x2060 || cp === 0xfeff || cp === 0x180e ||
  (cp >= 0x2061 && cp <= 0x2064);

/** Variation selectors: FE00–FE0F and the supplementary E0100–E01EF. */
export const isVariationSelector = (cp: number): boolean =>
  (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);

const isOtherInvisible = (cp: number): boolean =>
  (cp < 0x20 && cp !== 0x09 && cp !== 0x0a && cp !== 0x0d) || (cp >= 0x7f && cp <= 0x9f) || cp === 0x00ad ||
  cp === 0x200e || cp === 0x200f || cp === 0x2028 || cp === 0x2029;

export const isHidden = (cp: number): boolean =>
  isBidiControl(cp) || isTagCharacter(cp) || isZeroWidth(cp) || isVariationSelector(cp) || isOtherInvisible(cp);

const hex = (cp: number): string => `<${codePointLabel(cp)}>`;

/** The ASCII a run of tag characters spells out; the language tag and cancel tag are dropped. */
export function decodeTagRun(codePoints: readonly number[]): string {
  let out = '';
  for (const cp of codePoints) {
    const ascii = cp - 0xe0000;
    if (ascii >= 0x20 && ascii <= 0x7e) out += String.fromCharCode(ascii);
  }
  return out;
}

/**
 * Variation-selector smuggling maps each selector to one byte (FE00–FE0F → 0–15, E0100–E01EF →
 * 16–255). Returns the bytes decoded as UTF-8 when they are mostly printable, else undefined.
 */
export function decodeVariationRun(codePoints: readonly number[]): string | undefined {
  const bytes = new Uint8Array(codePoints.length);
  codePoints.forEach((cp, i) => {
    bytes[i] = cp <= 0xfe0f ? cp - 0xfe00 : cp - 0xe0100 + 16;
  });
  const text = new TextDecoder('utf-8').decode(bytes);
  let printable = 0;
  for (const ch of text) if (/[\p{L}\p{N}\p{P}\p{S} ]/u.test(ch)) printable++;
  return text.length > 0 && printable / text.length >= 0.8 ? text : undefined;
}

/**
 * Renders a string so that nothing in it is invisible: hidden characters become `<U+XXXX>`, a run
 * of tag characters becomes `<hidden-tags "the ASCII they spell">`, newlines and tabs become spaces.
 * The result is cut to `max` characters so one finding cannot flood a report.
 */
export function makeVisible(input: string, max = 200): string {
  let out = '';
  const cps = Array.from(input, (ch) => ch.codePointAt(0) as number);
  for (let i = 0; i < cps.length && out.length < max; i++) {
    const cp = cps[i] as number;
    if (isTagCharacter(cp)) {
      const run: number[] = [];
      while (i < cps.length && isTagCharacter(cps[i] as number)) run.push(cps[i++] as number);
      i--;
      out += `<hidden-tags "${decodeTagRun(run)}">`;
    } else if (cp === 0x0a || cp === 0x0d || cp === 0x09) {
      if (!out.endsWith(' ')) out += ' ';
    } else if (isHidden(cp)) {
      out += hex(cp);
    } else {
      out += String.fromCodePoint(cp);
    }
  }
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}

/**
 * Letters that render like Latin ones (a subset of Unicode's confusables.txt that matters for
 * skill names), plus digit and digraph look-alikes such as `0`/`o`, `1`/`l`, `rn`/`m`.
 */
const CONFUSABLE: Record<string, string> = {
  ...LATIN_LOOKALIKES,
  '0': 'o', '1': 'l', i: 'l', '|': 'l', '5': 's', '3': 'e', '_': '-', '.': '-', ' ': '-',
};

/**
 * A name's "skeleton": two names with the same skeleton look the same to a reader. Used to catch
 * homoglyph typosquats such as `pdf-t00ls` or a Cyrillic `раdf` for `pdf-tools` / `padf`.
 */
export function confusableSkeleton(name: string): string {
  let s = name.normalize('NFKC').toLowerCase();
  s = Array.from(s, (ch) => CONFUSABLE[ch] ?? ch).join('');
  return s.replaceAll('rn', 'm').replaceAll('vv', 'w').replaceAll('cl', 'd');
}
