import { forEachPatternMatch, gapped, pattern, type Pattern } from '../pattern.ts';
import { defineRule } from '../rule.ts';

export const downloadPipeShell = defineRule({
  id: 'exec/download-pipe-shell',
  severity: 'critical',
  description: 'Downloads code and runs it in one step',
  explanation:
    'A command fetches a script from the network and hands it straight to a shell or interpreter ' +
    '(`curl … | sh`, `bash <(curl …)`, `iex (iwr …)`). Whatever the server returns at that moment runs ' +
    'with the user\'s rights, and nobody reviewed it: this was the main payload of the 2026 ClawHub attacks.',
  hint:
    'Ship the script inside the skill so it is reviewed and digested with it, or tell the user to install ' +
    'the tool from their package manager. If a download is unavoidable, pin it and verify a checksum before running it.',
  quotable: true,
  check(file, report) {
    const seen = new Set<number>();
    for (const p of DOWNLOAD_EXEC_PATTERNS) {
      forEachPatternMatch(p, file, (start, end) => {
        const text = file.text.slice(start, end);
        // Skip a leading separator the pattern consumed, so the column points at the command.
        const lead = /^[\s;&]*/.exec(text)![0].length;
        if (seen.has(start + lead)) return;
        seen.add(start + lead);
        report({ offset: start + lead, evidence: text.slice(lead) });
      });
    }
  },
});

// A command may be named by its absolute path: `| /bin/sh`, `| sudo /usr/bin/env bash`.
const AT = String.raw`(?:(?:/[\w.+-]+)*/)?`;
const SUDO = String.raw`(?:${AT}sudo\s+(?:-[A-Za-z]+\s+)*)?(?:${AT}env\s+)?${AT}`;
const SHELL = String.raw`(?:(?:ba|z|da|k|fi|tc|c)?sh|source)\b`;
// Interpreters that also take a program as the text of `-c`/`-e` (the pattern after the pipes).
const SCRIPT_INTERPRETER = String.raw`python[0-9.]*|perl|ruby|node|php`;
// An interpreter reads a script from stdin only when given no script argument (or `-`).
const INTERPRETER = String.raw`(?:${SCRIPT_INTERPRETER}|pwsh|powershell)(?=[ \t]*(?:$|[;&|)"'\x60]|-(?![\w-])))`;
const FETCHER = String.raw`(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|downloadfile|net\.webclient|curl|wget)`;

/**
 * Patterns for "fetch and execute"; also used to recognise decoded payloads. Each one's words
 * (../words.ts) are those of its anchor, unless a comment says otherwise.
 */
export const DOWNLOAD_EXEC_PATTERNS: readonly Pattern[] = [
  pattern('curl wget fetch', gapped(/\b(?:curl|wget|fetch)\b/gi, new RegExp(String.raw`\|\s*${SUDO}(?:${SHELL}|${INTERPRETER})`, 'gim'), 300, { continuation: true })),
  // `curl`/`wget` follow `(`, a space or `sudo …`/`env`, and end at `\b`.
  pattern('curl wget', new RegExp(String.raw`(?:\b(?:ba|z|k)?sh|\bsource|(?:^|[\s;&])\.)\s+<\(\s*${SUDO}(?:curl|wget)\b`, 'gim')),
  // A shell's `-c`, `eval`, or an interpreter's `-c`/`-e` given the downloaded text as its program.
  pattern('curl wget', new RegExp(String.raw`(?:\b(?:ba|z)?sh\s+-c|\beval|\b(?:${SCRIPT_INTERPRETER})\s+-[ce])\s+["']?(?:\$\(|\x60)\s*(?:curl|wget)\b`, 'gim')),
  pattern('iex invoke', gapped(/\b(?:iex|invoke-expression)\b/gi, new RegExp(String.raw`\b${FETCHER}\b`, 'gi'), 200)),
  // The terminal: `iex` or the `invoke` of `invoke-expression`, after `|` and spaces.
  pattern('iex invoke', gapped(/\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring)\b/gi, /\|\s*(?:iex|invoke-expression)\b/gi, 300)),
  pattern('exec eval', gapped(/(?<![.\w])(?:exec|eval)\s*\(/g, /\b(?:urlopen|urllib\.request|requests\.get|httpx\.get|fetch|axios)\b/g, 120)),
  pattern(
    'curl wget',
    gapped(
      /\b(?:curl|wget)\b/gi,
      new RegExp(String.raw`(?:&&|;)\s*${SUDO}(?:chmod\s+(?:[ugoa]*\+x|[0-7]?7[0-7]{2})\b|(?:ba|z)?sh\s+[\w./~-]|\./[\w.-])`, 'gim'),
      300,
      { continuation: true },
    ),
  ),
];
