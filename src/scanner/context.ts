import type { RiskSeverity } from '../core/schemas/diagnostic.ts';
import { extensionOf } from './magic.ts';
import { lineIndexAt, lineOf, type SkillTextFile } from './document.ts';

/**
 * How much a match weighs where it stands. The same `curl … | sh` is an order in a script or in
 * the instructions, and an example in a changelog, a detection rule or a list of what not to
 * run; only the first should block publication. Returned: the highest severity the match may
 * keep, and why, for the finding's message.
 */
export interface QuotedContext {
  ceiling: RiskSeverity;
  because: string;
}

const CHANGELOG = /^(?:change(?:s|log)|history|news|release[-_ ]?notes)(?:\.[a-z0-9]+)?$/i;
const DETECTION_EXTENSIONS = new Set(['yar', 'yara', 'sigma', 'rules', 'ioc']);
const DETECTION_FOLDERS = new Set(['detections', 'detection', 'signatures', 'yara', 'sigma', 'iocs', 'ioc']);
const REFERENCE_FOLDERS = new Set(['references', 'reference', 'docs', 'doc', 'examples']);
/** Fence info words that mark a block as an example of what not to do. */
const EXAMPLE_FENCE = /^\s*[`~]{3,}[^\n]*\b(?:example|bad|wrong|unsafe|dangerous|malicious|dont|do-not|avoid|never|vulnerable|attack)\b/i;
/** A line that opens a list of things not to do: `Never run these:`, `Do not:`, `- ❌ …`. */
const NEGATIVE_LEAD = /^\s{0,3}(?:[-*+]|\d{1,3}[.)])?\s*(?:\*\*|__)?(?:❌|🚫|⛔|never\b|do\s+not\b|don['’]t\b|avoid\b|bad\s*:|unsafe\s*:|dangerous\s*:|forbidden\s*:|禁止|不要|切勿|絶対に|しないで)/i;
const NEGATIVE_HEADING = /^\s{0,3}#{1,6}\s+.*(?:\bnever\b|\bdo\s+not\b|\bdon['’]t\b|\bavoid\b|\bdangerous\b|\bunsafe\b|\bforbidden\b|\banti-?patterns?\b|\bwhat\s+not\s+to\b|\bred\s+flags\b|禁止|危险|危険)/i;


/** The context of the match at `offset`, or undefined when it counts in full (code, instructions). */
export function quotedContext(file: SkillTextFile, offset: number): QuotedContext | undefined {
  if (file.kind === 'code') return undefined;
  if (file.isTestData) return { ceiling: 'info', because: 'it sits in test data' };
  const parts = file.path.split('/');
  const base = parts.at(-1)!;
  if (CHANGELOG.test(base)) return { ceiling: 'info', because: 'it is in a changelog' };
  if (DETECTION_EXTENSIONS.has(extensionOf(base)) || parts.slice(0, -1).some((p) => DETECTION_FOLDERS.has(p.toLowerCase()))) {
    return { ceiling: 'info', because: 'it is detection content: a pattern to match, not a command' };
  }
  if (file.kind !== 'markdown') return undefined;
  const instructions = file.path === 'SKILL.md';
  const reference = !instructions && parts.length > 1 && REFERENCE_FOLDERS.has(parts[0]!.toLowerCase());
  // In the instructions a quoted example still shows as a warning: the agent reads this file.
  const quoted = instructions ? 'warn' : 'info';
  const line = lineIndexAt(file, offset);
  if (isNegativeContext(file, line)) return { ceiling: quoted, because: 'it is quoted in a list of what not to do' };
  if (file.fenced[line] === 1 && EXAMPLE_FENCE.test(lineOf(file, fenceStart(file, line)))) {
    return { ceiling: quoted, because: 'it is in a code block marked as an example' };
  }
  if (reference) return { ceiling: 'warn', because: 'it is in reference documentation, not in the instructions' };
  return undefined;
}

/** 0-based index of the opening fence of the block holding line `i`. */
function fenceStart(file: SkillTextFile, i: number): number {
  let j = i;
  while (j > 0 && file.fenced[j - 1] === 1 && !/^ {0,3}(?:`{3,}|~{3,})\s*$/.test(lineOf(file, j - 1))) j--;
  // Step onto the opening fence itself when `i` is inside the block.
  return j > 0 && file.fenced[j - 1] === 1 ? j - 1 : j;
}

/**
 * True when line `i` is a list item or paragraph that itself says "never", sits in a fenced
 * block or list introduced by such a line, or falls under a heading about what not to do.
 * Only the start of an item counts: "Run X, don't skip it" is an order, "Never run X" is not.
 */
function isNegativeContext(file: SkillTextFile, i: number): boolean {
  if (NEGATIVE_LEAD.test(lineOf(file, i))) return true;
  // Walk up through the block (fence, list, wrapped paragraph) to the line that introduces it.
  let blank = 0;
  for (let j = i - 1; j >= file.frontmatterLines && i - j <= 60; j--) {
    const text = lineOf(file, j);
    if (/^\s{0,3}#{1,6}\s/.test(text)) return NEGATIVE_HEADING.test(text);
    if (text.trim() === '') {
      if (++blank > 1) break;
      continue;
    }
    if (file.fenced[j] === 1 || /^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s/.test(text)) continue;
    // The paragraph just above: it introduces the block only when it ends with a colon.
    if (/[:：]\s*$/.test(text) && NEGATIVE_LEAD.test(text)) return true;
    break;
  }
  // Under a heading about what not to do, anywhere in its section.
  for (let j = i - 1; j >= file.frontmatterLines; j--) {
    const text = lineOf(file, j);
    if (file.fenced[j] !== 1 && /^\s{0,3}#{1,6}\s/.test(text)) return NEGATIVE_HEADING.test(text);
  }
  return false;
}
