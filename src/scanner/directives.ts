import { lineIndexAt, lineOf, type SkillTextFile } from './document.ts';

/**
 * An author's answer to a finding, written in the file it concerns:
 *
 *     <!-- skilldex-scan: allow exec/download-pipe-shell "official installer from the vendor's docs" -->
 *
 * (or after `#` / `//` in a script). It covers its own line and the next non-blank line, or the
 * whole fenced block that line opens. A reason is required; a directive without one covers
 * nothing. Directives never hide a finding: they lower it, and the reason travels with it.
 */
export interface ScanDirective {
  rule: string;
  reason: string;
  /** 0-based line indexes covered. */
  from: number;
  to: number;
}

const DIRECTIVE = /skilldex-scan:[ \t]*allow[ \t]+([a-z0-9-]{1,40}\/[a-z0-9-]{1,60})[ \t]+"([^"\r\n]{1,200})"/g;


export function parseDirectives(file: SkillTextFile): ScanDirective[] {
  const out: ScanDirective[] = [];
  // A cheap guard: most files have no directive, and the regex then never runs.
  if (!file.text.includes('skilldex-scan:')) return out;
  DIRECTIVE.lastIndex = 0;
  for (let m = DIRECTIVE.exec(file.text); m; m = DIRECTIVE.exec(file.text)) {
    const at = lineIndexAt(file, m.index);
    let next = at + 1;
    while (next < file.lineStarts.length && lineOf(file, next).trim() === '') next++;
    let to = Math.min(next, file.lineStarts.length - 1);
    // A directive above a fenced block covers the block.
    if (file.fenced[to] === 1 && /^ {0,3}(?:`{3,}|~{3,})/.test(lineOf(file, to))) {
      while (to + 1 < file.lineStarts.length && file.fenced[to + 1] === 1) {
        to++;
        if (/^ {0,3}(?:`{3,}|~{3,})\s*$/.test(lineOf(file, to))) break;
      }
    }
    out.push({ rule: m[1]!, reason: m[2]!, from: at, to });
  }
  return out;
}

/** The directive that covers a match of `rule` at `offset`, if any. */
export function directiveFor(directives: readonly ScanDirective[], file: SkillTextFile, rule: string, offset: number): ScanDirective | undefined {
  if (directives.length === 0) return undefined;
  const line = lineIndexAt(file, offset);
  return directives.find((d) => d.rule === rule && line >= d.from && line <= d.to);
}
