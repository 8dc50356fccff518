import type { RiskSeverity } from '../core/schemas/diagnostic.ts';
import type { Finding, ScanResult } from '../core/schemas/scan.ts';
import { findingsTruncated, TEXT_RULES } from './catalog.ts';
import { decodeFile } from './decode.ts';
import { quotedContext } from './context.ts';
import { directiveFor, parseDirectives, type ScanDirective } from './directives.ts';
import { createTextFile, positionAt, type SkillTextFile } from './document.ts';
import { BINARY_EXTENSIONS, extensionOf, TEXT_EXTENSIONS } from './magic.ts';
import { SEVERITY_RANK, type Hit, type ScannerRule } from './rule.ts';
import { disguisedExecutable, executableBinary, magicMismatch, symlinkEntry, undecodableFile } from './rules/file-type.ts';
import { imitatedNames, typosquat } from './rules/typosquat.ts';
import { makeVisible } from './unicode.ts';
import { verdictOf } from './verdict.ts';

/** Version of the rule set; bump it whenever a rule is added, removed or changes what it matches. */
export const RULES_VERSION = '2026.11.8';

/** At most this many findings of one rule in one file are listed; the rest are counted by `scan/truncated`. */
export const MAX_FINDINGS_PER_RULE_PER_FILE = 20;

export interface ScanInputFile {
  /** Path inside the skill, `/`-separated. */
  path: string;
  bytes: Uint8Array;
}

export interface ScanInput {
  /** The skill's declared name (for typosquatting). */
  name: string;
  files: readonly ScanInputFile[];
  /** Names of the other skills in the registry, for typosquatting. */
  knownNames?: readonly string[];
  /** Symbolic links found in the skill folder; they are reported, never followed. */
  symlinks?: readonly { path: string; target?: string }[];
}

export interface ScanOptions {
  /** Per-registry severity overrides (`skilldex.config.json` `scan.rules`); `off` silences a rule. */
  rules?: Readonly<Record<string, RiskSeverity | 'off'>>;
}

/**
 * Scans one skill statically: nothing is executed, nothing is fetched. Findings are sorted worst
 * first, then by file, line and column.
 *
 * @example
 * const result = scanSkill({ name: 'pdf', files: [{ path: 'SKILL.md', bytes }] });
 * if (result.verdict === 'fail') console.log(result.findings[0]);
 */
export function scanSkill(input: ScanInput, options: ScanOptions = {}): ScanResult {
  const collector = createCollector(options.rules ?? {});
  const texts = new Map<string, SkillTextFile>();
  const files = [...input.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const file of files) {
    const text = scanFile(file, collector.add);
    if (text) texts.set(file.path, text);
  }
  for (const link of input.symlinks ?? []) {
    collector.add(symlinkEntry, { line: 1, column: 1, evidence: `${link.path} -> ${link.target ?? '?'}` }, link.path);
  }
  checkName(input, texts, collector.add);
  const findings = collector.findings();
  return { verdict: verdictOf(findings), rulesVersion: RULES_VERSION, findings };
}

type Add = (rule: ScannerRule, hit: Hit, file: string, text?: SkillTextFile) => void;

function scanFile(file: ScanInputFile, add: Add): SkillTextFile | undefined {
  const decoded = decodeFile(file.bytes);
  const ext = extensionOf(file.path);
  const at = { line: 1, column: 1 };
  if (decoded.kind === 'binary') {
    const { format } = decoded;
    const honest = format.extensions.includes(ext);
    if (format.executable) {
      add(honest ? executableBinary : disguisedExecutable, { ...at, evidence: `${format.id} binary named ${file.path}` }, file.path);
    } else if (!honest && (TEXT_EXTENSIONS.has(ext) || BINARY_EXTENSIONS.has(ext))) {
      add(magicMismatch, { ...at, evidence: `${format.id} content in a .${ext} file`, detail: `The bytes are ${format.id}, the name says .${ext}.` }, file.path);
    }
    return undefined;
  }
  let text: string;
  if (decoded.kind === 'undecodable') {
    add(undecodableFile, { ...at, evidence: `${file.path}: ${decoded.reason}`, detail: `The file ${decoded.reason}.` }, file.path);
    if (decoded.fallbackText === undefined) return undefined;
    text = decoded.fallbackText;
  } else {
    text = decoded.text;
    if (BINARY_EXTENSIONS.has(ext)) {
      add(magicMismatch, { ...at, evidence: `text content in a .${ext} file: ${text.slice(0, 80)}`, detail: `The file is text, the name says .${ext}.` }, file.path);
    }
  }
  const doc = createTextFile(file.path, text);
  const directives = parseDirectives(doc);
  for (const rule of TEXT_RULES) rule.check(doc, (hit) => add(rule, weigh(rule, hit, doc, directives), file.path, doc));
  return doc;
}

/** Applies where the match stands (quoted or not) and the author's directives to one hit. */
function weigh(rule: ScannerRule, hit: Hit, doc: SkillTextFile, directives: readonly ScanDirective[]): Hit {
  if (hit.offset === undefined) return hit;
  let weighed = hit;
  if (rule.meta.quotable && hit.ceiling === undefined) {
    const context = quotedContext(doc, hit.offset);
    if (context) weighed = { ...weighed, ceiling: context.ceiling, because: context.because };
  }
  const directive = directiveFor(directives, doc, rule.meta.id, hit.offset);
  if (directive && (!weighed.ceiling || SEVERITY_RANK[weighed.ceiling] > SEVERITY_RANK.warn)) {
    weighed = { ...weighed, ceiling: 'warn', because: 'the author answered it in the file' };
  }
  return directive ? { ...weighed, allowed: { by: 'author', reason: directive.reason } } : weighed;
}

function checkName(input: ScanInput, texts: Map<string, SkillTextFile>, add: Add): void {
  const imitated = imitatedNames(input.name, input.knownNames ?? []);
  if (imitated.length === 0) return;
  const { file, offset } = locateName(texts);
  const list = imitated.slice(0, 5).map((h) => `"${h.name}" (${h.how === 'edit' ? 'one edit away' : 'looks identical'})`).join(', ');
  const doc = file ? texts.get(file) : undefined;
  add(
    typosquat,
    { ...(doc ? { offset } : { line: 1, column: 1 }), evidence: `name "${input.name}" vs ${list}`, detail: `"${input.name}" imitates ${list}.` },
    file ?? 'SKILL.md',
    doc,
  );
}

/** Where the name is declared: SKILL.md frontmatter, else skill.json. */
function locateName(texts: Map<string, SkillTextFile>): { file: string | undefined; offset: number } {
  const md = texts.get('SKILL.md');
  if (md) {
    const m = /^name[ \t]*:/m.exec(md.text.slice(0, 64 * 1024));
    return { file: 'SKILL.md', offset: m ? m.index : 0 };
  }
  const json = texts.get('skill.json');
  if (json) {
    const m = /"name"\s*:/.exec(json.text.slice(0, 64 * 1024));
    return { file: 'skill.json', offset: m ? m.index : 0 };
  }
  return { file: undefined, offset: 0 };
}

/**
 * Turns hits into findings: applies the registry's overrides and context ceilings, locates,
 * renders evidence, drops duplicates and caps each rule per file.
 */
function createCollector(overrides: Readonly<Record<string, RiskSeverity | 'off'>>) {
  const out: Finding[] = [];
  const seen = new Set<string>();
  const counts = new Map<string, { count: number; last: Finding }>();

  const toFinding = (rule: ScannerRule, severity: RiskSeverity, file: string, line: number, column: number, evidence: string, detail?: string): Finding => ({
    rule: rule.meta.id,
    severity,
    file,
    line,
    column,
    evidence: makeVisible(evidence, 200),
    message: `${rule.meta.docs.description}.${detail ? ` ${detail}` : ''} Fix: ${rule.meta.hint}`,
    docs: rule.meta.docs.url,
  });

  const add: Add = (rule, hit, file, text) => {
    const configured = overrides[rule.meta.id] ?? rule.meta.severity;
    if (configured === 'off') return;
    let severity = configured;
    let detail = hit.detail;
    if (hit.ceiling && SEVERITY_RANK[severity] > SEVERITY_RANK[hit.ceiling]) {
      severity = hit.ceiling;
      detail = `${detail ? `${detail} ` : ''}Lowered to ${severity}: ${hit.because ?? 'it is quoted in a fenced code block or sits in test data'}.`;
    }
    if (hit.allowed) detail = `${detail ? `${detail} ` : ''}Allowed by the ${hit.allowed.by}: "${hit.allowed.reason}".`;
    const pos = text && hit.offset !== undefined ? positionAt(text, hit.offset) : { line: hit.line ?? 1, column: hit.column ?? 1 };
    const group = `${rule.meta.id}\0${file}`;
    const entry = counts.get(group);
    // Past the cap only a count is kept, so a file with a million matches costs no memory.
    if (entry && entry.count >= MAX_FINDINGS_PER_RULE_PER_FILE) {
      entry.count++;
      return;
    }
    const key = `${group}\0${pos.line}\0${pos.column}`;
    if (seen.has(key)) return;
    seen.add(key);
    const finding = toFinding(rule, severity, file, pos.line, pos.column, hit.evidence, detail);
    if (hit.allowed) finding.allowed = hit.allowed;
    out.push(finding);
    counts.set(group, { count: (entry?.count ?? 0) + 1, last: finding });
  };

  const findings = (): Finding[] => {
    for (const { count, last } of counts.values()) {
      if (count <= MAX_FINDINGS_PER_RULE_PER_FILE) continue;
      const more = count - MAX_FINDINGS_PER_RULE_PER_FILE;
      const severity = overrides[findingsTruncated.meta.id] ?? findingsTruncated.meta.severity;
      if (severity === 'off') continue;
      out.push(toFinding(findingsTruncated, severity, last.file, last.line, last.column, `${more} more ${last.rule} findings in ${last.file}`, `${more} more findings of ${last.rule} in this file are not listed.`));
    }
    return out.sort(compareFindings);
  };

  return { add, findings };
}

export function compareFindings(a: Finding, b: Finding): number {
  return (
    SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
    (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
    a.line - b.line ||
    a.column - b.column ||
    (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)
  );
}
