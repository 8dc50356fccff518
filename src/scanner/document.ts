import { splitFrontmatter } from '../core/parse/frontmatter-split.ts';
import { extensionOf } from './magic.ts';

/** How the scanner reads a file's text, which decides what counts as "quoted" context. */
export type TextKind = 'markdown' | 'svg' | 'code' | 'text';

/**
 * One decoded text file of a skill, with the line table and Markdown structure the rules need to
 * place a finding and to judge its context.
 */
export interface SkillTextFile {
  /** Path inside the skill, `/`-separated. */
  path: string;
  text: string;
  kind: TextKind;
  /** Offset of the first character of each line. */
  lineStarts: readonly number[];
  /** Per 0-based line: 1 when the line is inside (or is the fence of) a fenced code block. */
  fenced: Uint8Array;
  /** Number of lines (from line 1) that form YAML frontmatter, fences included; 0 if none. */
  frontmatterLines: number;
  /** Under a `tests/`, `fixtures/`, `testdata/` … folder: sample data rather than live content. */
  isTestData: boolean;
}

const MARKDOWN = new Set(['md', 'markdown', 'mdx']);
const CODE = new Set([
  'sh', 'bash', 'zsh', 'fish', 'ps1', 'psm1', 'bat', 'cmd', 'py', 'pyw', 'js', 'mjs', 'cjs', 'ts', 'mts', 'cts', 'jsx',
  'tsx', 'rb', 'pl', 'php', 'lua', 'go', 'rs', 'java', 'kt', 'swift', 'c', 'h', 'cpp', 'cs', 'r', 'vbs', 'applescript',
]);
const TEST_FOLDERS = new Set(['test', 'tests', '__tests__', 'spec', 'fixtures', '__fixtures__', 'testdata', 'test-data']);

export function textKindOf(path: string, text: string): TextKind {
  const ext = extensionOf(path);
  if (MARKDOWN.has(ext)) return 'markdown';
  if (ext === 'svg') return 'svg';
  if (CODE.has(ext) || text.startsWith('#!')) return 'code';
  return 'text';
}

export function isTestDataPath(path: string): boolean {
  const parts = path.split('/');
  return parts.slice(0, -1).some((p) => TEST_FOLDERS.has(p.toLowerCase()));
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** `lineStarts`, when the caller has them already (a parsed declaration's source text), are not computed again. */
export function createTextFile(path: string, text: string, knownLineStarts?: readonly number[]): SkillTextFile {
  const lineStarts = knownLineStarts ?? lineStartsOf(text);
  const kind = textKindOf(path, text);
  const fenced = new Uint8Array(lineStarts.length);
  let frontmatterLines = 0;
  if (kind === 'markdown') {
    const split = splitFrontmatter(text);
    // The block's lines, its closing line included.
    if (split.kind === 'yaml') frontmatterLines = lineIndexOf(lineStarts, split.closeStart) + 1;
    markFences(text, lineStarts, fenced, frontmatterLines);
  }
  return { path, text, kind, lineStarts, fenced, frontmatterLines, isTestData: isTestDataPath(path) };
}

const lineText = (text: string, starts: readonly number[], i: number): string =>
  text.slice(starts[i], i + 1 < starts.length ? starts[i + 1]! - 1 : text.length).replace(/\r$/, '');

/** Line `i` (0-based) of a file, without its line break. */
export const lineOf = (file: SkillTextFile, i: number): string => lineText(file.text, file.lineStarts, i);

/** CommonMark fences: up to 3 spaces, then ≥3 backticks or tildes; closed by the same char, at least as long. */
function markFences(text: string, starts: readonly number[], fenced: Uint8Array, from: number): void {
  let open: { char: string; length: number } | undefined;
  for (let i = from; i < starts.length; i++) {
    // Only the start of the line matters, so long lines cost nothing here; and a line whose first
    // character after up to three spaces is neither ` nor ~ opens or closes nothing (most lines:
    // slicing each one for the pattern was a tenth of link checking over 2,000 skills).
    let first = starts[i]!;
    while (first < starts[i]! + 3 && text.charCodeAt(first) === 32) first++;
    const c = text.charCodeAt(first);
    if (c !== 96 /* ` */ && c !== 126 /* ~ */) {
      if (open) fenced[i] = 1;
      continue;
    }
    const head = text.slice(starts[i], Math.min(starts[i]! + 64, text.length));
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(head);
    if (open) {
      fenced[i] = 1;
      if (m && m[1]![0] === open.char && m[1]!.length >= open.length && /^ {0,3}[`~]+\s*$/.test(lineText(text, starts, i).slice(0, 80))) open = undefined;
    } else if (m) {
      fenced[i] = 1;
      open = { char: m[1]![0]!, length: m[1]!.length };
    }
  }
}

/** 0-based line index of an offset (binary search over the line table). */
export const lineIndexAt = (file: SkillTextFile, offset: number): number => lineIndexOf(file.lineStarts, offset);

function lineIndexOf(lineStarts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** 1-based line and column (UTF-16 code units, SARIF's default `columnKind`). */
export function positionAt(file: SkillTextFile, offset: number): { line: number; column: number } {
  const i = lineIndexAt(file, offset);
  return { line: i + 1, column: offset - file.lineStarts[i]! + 1 };
}

/** True when the offset is inside a fenced code block of a Markdown file: quoted, not addressed to the agent. */
export const isFencedAt = (file: SkillTextFile, offset: number): boolean => file.fenced[lineIndexAt(file, offset)] === 1;

/**
 * The line containing an offset, without its line break. On very long lines only a window around
 * the offset (100 characters before, 300 after) is returned, so evidence costs O(1) per finding.
 */
export function lineAt(file: SkillTextFile, offset: number): string {
  const i = lineIndexAt(file, offset);
  const start = file.lineStarts[i]!;
  const end = i + 1 < file.lineStarts.length ? file.lineStarts[i + 1]! - 1 : file.text.length;
  return file.text.slice(Math.max(start, offset - 100), Math.min(end, offset + 300)).replace(/\r$/, '');
}

/**
 * Runs a global regex over the text, calling `fn` for each match. Every pattern the rules use
 * starts with a literal token and has only bounded gaps, so this is linear in the text's length.
 */
export function forEachMatch(re: RegExp, text: string, fn: (m: RegExpExecArray) => void): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0].length === 0) re.lastIndex++;
    fn(m);
  }
}
