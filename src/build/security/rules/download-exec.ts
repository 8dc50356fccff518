import { forEachMatch } from '../document.ts';
import { defineRule, type TextCheck } from '../rule.ts';

export const downloadPipeShell = defineRule({
  id: 'exec/download-pipe-shell',
  severity: 'critical',
  title: 'Downloads code and runs it in one step',
  explanation:
    'A command fetches a script from the network and hands it straight to a shell or interpreter ' +
    '(`curl … | sh`, `bash <(curl …)`, `iex (iwr …)`). Whatever the server returns at that moment runs ' +
    'with the user\'s rights, and nobody reviewed it: this was the main payload of the 2026 ClawHub attacks.',
  fix:
    'Ship the script inside the skill so it is reviewed and digested with it, or tell the user to install ' +
    'the tool from their package manager. If a download is unavoidable, pin it and verify a checksum before running it.',
});

// A gap that may cross a shell line continuation (`\` + newline) but never an ordinary newline.
const GAP = String.raw`(?:[^\n]|\\\r?\n){0,300}?`;
const SUDO = String.raw`(?:sudo\s+(?:-[A-Za-z]+\s+)*)?(?:env\s+)?`;
const SHELL = String.raw`(?:(?:ba|z|da|k|fi|tc|c)?sh|source)\b`;
// An interpreter reads a script from stdin only when given no script argument (or `-`).
const INTERPRETER = String.raw`(?:python[0-9.]*|perl|ruby|node|php|pwsh|powershell)(?=[ \t]*(?:$|[;&|)"'\x60]|-(?![\w-])))`;
const FETCHER = String.raw`(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|downloadfile|net\.webclient|curl|wget)`;

/** Patterns for "fetch and execute"; also used to recognise decoded payloads. */
export const DOWNLOAD_EXEC_PATTERNS: readonly RegExp[] = [
  new RegExp(String.raw`\b(?:curl|wget|fetch)\b${GAP}\|\s*${SUDO}(?:${SHELL}|${INTERPRETER})`, 'gim'),
  new RegExp(String.raw`(?:\b(?:ba|z|k)?sh|\bsource|(?:^|[\s;&])\.)\s+<\(\s*${SUDO}(?:curl|wget)\b`, 'gim'),
  new RegExp(String.raw`(?:\b(?:ba|z)?sh\s+-c|\beval)\s+["']?(?:\$\(|\x60)\s*(?:curl|wget)\b`, 'gim'),
  new RegExp(String.raw`\b(?:iex|invoke-expression)\b[^\n]{0,200}?\b${FETCHER}\b`, 'gim'),
  new RegExp(String.raw`\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring)\b[^\n]{0,300}?\|\s*(?:iex|invoke-expression)\b`, 'gim'),
  new RegExp(String.raw`(?<![.\w])(?:exec|eval)\s*\([^\n]{0,120}?\b(?:urlopen|urllib\.request|requests\.get|httpx\.get|fetch|axios)\b`, 'gm'),
  new RegExp(String.raw`\b(?:curl|wget)\b${GAP}(?:&&|;)\s*${SUDO}(?:chmod\s+(?:[ugoa]*\+x|[0-7]?7[0-7]{2})\b|(?:ba|z)?sh\s+[\w./~-]|\./[\w.-])`, 'gim'),
];

export const checkDownloadExec: TextCheck = (file, emit) => {
  const seen = new Set<number>();
  for (const re of DOWNLOAD_EXEC_PATTERNS) {
    forEachMatch(re, file.text, (m) => {
      // Skip a leading separator the pattern consumed, so the column points at the command.
      const lead = /^[\s;&]*/.exec(m[0])![0].length;
      if (seen.has(m.index + lead)) return;
      seen.add(m.index + lead);
      emit({ rule: downloadPipeShell, offset: m.index + lead, evidence: m[0].slice(lead) });
    });
  }
};
