import { oncePer } from '../../core/once-per.ts';
import type { SkillTextFile } from '../document.ts';
import { defineRule, type TextCheck } from '../rule.ts';
import { decodeTagRun, decodeVariationRun, isBidiControl, isTagCharacter, isVariationSelector, isZeroWidth, makeVisible } from '../unicode.ts';

export const tagCharacters = defineRule({
  id: 'unicode/tag-characters',
  severity: 'critical',
  description: 'Invisible Unicode tag characters carry hidden text',
  explanation:
    'Characters from the tag block (U+E0000–U+E007F) render as nothing but each one encodes an ASCII ' +
    'character, and models read them. This is "ASCII smuggling": instructions a reviewer cannot see. The ' +
    'evidence shows the decoded text as `<hidden-tags "…">`.',
  hint: 'Delete the tag characters. Flag emoji (which use tags after U+1F3F4) are not reported.',
  check(file, report) {
    for (const run of runsIn(file, 'tag')) {
      const decoded = decodeTagRun(run.codePoints);
      report({ offset: run.offset, evidence: `<hidden-tags "${decoded.slice(0, 150)}"> in: ${around(file.text, run)}`, detail: `${run.codePoints.length} tag characters spell "${decoded.slice(0, 120)}".` });
    }
  },
});

export const bidiControl = defineRule({
  id: 'unicode/bidi-control',
  severity: 'high',
  description: 'Bidirectional control characters',
  explanation:
    'Bidi overrides and isolates (U+202A–U+202E, U+2066–U+2069, U+061C) make text display in a different ' +
    'order from how it is stored ("Trojan Source"), so what a reviewer reads is not what the agent or shell gets.',
  hint: 'Remove the control characters. Right-to-left languages display correctly without explicit overrides.',
  check: reportRunsOf('bidi'),
});

export const zeroWidth = defineRule({
  id: 'unicode/zero-width',
  severity: 'warn',
  description: 'Zero-width characters',
  explanation:
    'Zero-width spaces, joiners and word joiners (U+200B–U+200D, U+2060, U+FEFF, U+180E, U+2061–U+2064) are ' +
    'invisible. They split words so filters miss them, or encode hidden bits. Joiners inside emoji sequences ' +
    'and between letters of scripts that need them (Arabic, Indic …) are not reported.',
  hint: 'Delete the invisible characters.',
  check: reportRunsOf('zw'),
});

export const variationSelectorRun = defineRule({
  id: 'unicode/variation-selector-run',
  severity: 'high',
  description: 'Run of variation selectors (hidden bytes)',
  explanation:
    'A single variation selector picks an emoji or ideograph style; a run of them (or a supplementary ' +
    'selector after plain ASCII) encodes one byte each, smuggling hidden data behind a harmless-looking ' +
    'character. The evidence shows the decoded bytes when they are text.',
  hint: 'Delete the variation selectors.',
  check(file, report) {
    for (const run of runsIn(file, 'vs')) {
      const decoded = decodeVariationRun(run.codePoints);
      report({
        offset: run.offset,
        evidence: decoded !== undefined ? `<hidden-bytes "${makeVisible(decoded, 150)}"> after "${run.before}"` : `${run.codePoints.length} variation selectors after "${run.before}": ${around(file.text, run)}`,
        detail: `${run.codePoints.length} variation selectors in a row.`,
      });
    }
  },
});

export type HiddenClass = 'tag' | 'bidi' | 'zw' | 'vs';

export const classifyHidden = (cp: number): HiddenClass | undefined =>
  isTagCharacter(cp) ? 'tag' : isBidiControl(cp) ? 'bidi' : isZeroWidth(cp) ? 'zw' : isVariationSelector(cp) ? 'vs' : undefined;

/** Letters, marks and emoji around a joiner mean it is doing its legitimate job. */
const JOINS = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{M}\p{Script=Arabic}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Malayalam}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Gujarati}\p{Script=Gurmukhi}\p{Script=Oriya}\p{Script=Sinhala}\p{Script=Syriac}\p{Script=Hebrew}\p{Script=Khmer}\p{Script=Myanmar}\u{FE0F}]/u;

/** Every character {@link classifyHidden} puts in a class (test/scanner/hidden-unicode.test.ts keeps the two in step). */
export const HIDDEN_CANDIDATE = /[\u061C\u180E\u200B-\u200D\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFE00-\uFE0F\uFEFF\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu;

/** Consecutive hidden characters of one class. */
export interface HiddenRun {
  cls: HiddenClass;
  /** UTF-16 offsets of the run in the text. */
  offset: number;
  end: number;
  /** Code points in the run. */
  length: number;
  /** The first code point. */
  first: number;
  /** The code points, up to 4,096 (enough to decode and show). */
  codePoints: number[];
  /** The whole character just before the run. */
  before: string;
}

/**
 * Every run of hidden characters that is not doing a legitimate job, in one linear pass. This is
 * the one definition of "hidden text": the validator's `files/*` rules and the scanner's
 * `unicode/*` rules both read it.
 */
export function* hiddenCharacterRuns(t: string): Generator<HiddenRun> {
  let i = 0;
  while (i < t.length) {
    // Jump to the next candidate with the regex engine: most text holds none.
    HIDDEN_CANDIDATE.lastIndex = i;
    const found = HIDDEN_CANDIDATE.exec(t);
    if (!found) return;
    i = found.index;
    const cp = t.codePointAt(i)!;
    const cls = classifyHidden(cp);
    if (!cls) {
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const start = i;
    const run: number[] = [];
    let length = 0;
    while (i < t.length) {
      const next = t.codePointAt(i)!;
      if (classifyHidden(next) !== cls) break;
      // Keep enough to decode and show; a megabyte-long run is still walked but not stored.
      if (run.length < 4096) run.push(next);
      length++;
      i += next > 0xffff ? 2 : 1;
    }
    const before = charBefore(t, start);
    if (legitimate(t, cls, run, before, i)) continue;
    yield { cls, offset: start, end: i, length, first: cp, codePoints: run, before };
  }
}

function legitimate(t: string, cls: HiddenClass, run: number[], prev: string, end: number): boolean {
  // Subdivision flags (🏴 U+1F3F4 + tags + U+E007F cancel) are the one legitimate use of tags.
  if (cls === 'tag') return prev === '\u{1F3F4}' && run[run.length - 1] === 0xe007f;
  if (cls === 'zw') {
    const next = t.slice(end, end + 2);
    const nextCp = next.length > 0 ? String.fromCodePoint(next.codePointAt(0)!) : '';
    const joinerOnly = run.every((cp) => cp === 0x200d || cp === 0x200c);
    return joinerOnly && run.length === 1 && (JOINS.test(prev) || JOINS.test(nextCp));
  }
  if (cls === 'vs') {
    const supplementaryAfterAscii = run.some((cp) => cp >= 0xe0100) && /^[\x20-\x7e]?$/.test(prev);
    return run.length < 2 && !supplementaryAfterAscii;
  }
  return false;
}

/** The hidden-character runs of a file, found once for the four rules that report them. */
const allRunsIn = oncePer((file: SkillTextFile) => [...hiddenCharacterRuns(file.text)]);
const runsIn = (file: SkillTextFile, cls: HiddenClass): HiddenRun[] => allRunsIn(file).filter((run) => run.cls === cls);

/** Reports each run of a class where it starts, with the text around it as evidence. */
function reportRunsOf(cls: HiddenClass): TextCheck {
  return (file, report) => {
    for (const run of runsIn(file, cls)) report({ offset: run.offset, evidence: around(file.text, run) });
  };
}

/** The run with up to 30 characters either side, made visible. */
const around = (t: string, { offset, end }: HiddenRun): string =>
  makeVisible(t.slice(Math.max(0, offset - 30), Math.min(t.length, end + 30)).replace(/^[\uDC00-\uDFFF]/, ''), 200);

const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** The whole character (surrogate pair included) just before an offset. */
function charBefore(t: string, i: number): string {
  if (i === 0) return '';
  return isLowSurrogate(t.charCodeAt(i - 1)) && i >= 2 ? t.slice(i - 2, i) : t.slice(i - 1, i);
}
