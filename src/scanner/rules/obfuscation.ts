import { oncePer } from '../../core/once-per.ts';
import { forEachMatch, lineAt, type SkillTextFile } from '../document.ts';
import { forEachPatternMatch, gapped, pattern, type Pattern } from '../pattern.ts';
import { defineRule, type Hit } from '../rule.ts';
import { prefilter } from '../words.ts';
import { DOWNLOAD_EXEC_PATTERNS } from './download-exec.ts';
import { DESTRUCTIVE_PATTERNS } from './destructive.ts';

export const base64ToShell = defineRule({
  id: 'obfuscation/base64-to-shell',
  severity: 'critical',
  description: 'Decodes an encoded string and runs it',
  explanation:
    'Text is base64- or hex-decoded and piped into a shell (`echo … | base64 -d | sh`, `powershell -enc …`). ' +
    'Encoding a command has no purpose except hiding it from the reader and from scanners.',
  hint: 'Write the command out in plain text so reviewers and users can read what it does.',
  check(file, report) {
    for (const p of BASE64_TO_SHELL) forEachPatternMatch(p, file, (start) => report({ offset: start, evidence: lineAt(file, start).trim() }));
  },
});

export const evalDecoded = defineRule({
  id: 'obfuscation/eval-decoded',
  severity: 'critical',
  description: 'Evaluates decoded or decompressed code',
  explanation:
    'JavaScript or Python code is decoded at run time and then executed (`eval(atob(…))`, ' +
    '`exec(base64.b64decode(…))`, `Function(…)(…)` over decoded text, `exec(compile(zlib.decompress(…)))`). ' +
    'This is how obfuscated malware hides its real instructions.',
  hint: 'Ship the code itself in readable form; a skill never needs to eval encoded source.',
  check(file, report) {
    const seen = new Set<number>();
    for (const p of EVAL_DECODED) {
      forEachPatternMatch(p, file, (start) => {
        if (seen.has(start)) return;
        seen.add(start);
        report({ offset: start, evidence: file.text.slice(start, start + 200).split('\n')[0]! });
      });
    }
  },
});

export const encodedBlob = defineRule({
  id: 'obfuscation/encoded-blob',
  severity: 'warn',
  description: 'Long base64 or hex blob',
  explanation:
    'A long run of base64 or hex (≥ 120 base64 or ≥ 160 hex characters, or ≥ 40 `\\xNN` escapes) cannot be ' +
    'reviewed by reading it. Payloads are smuggled this way. Inside test-data folders (`tests/`, `fixtures/` …) ' +
    'it is reported at `info`; `data:image/…;base64,` and `data:font/…` URIs are not reported.',
  hint: 'Ship binary data as a real file (e.g. `assets/logo.png`) or explain the blob next to it; move test vectors under `tests/`.',
  check(file, report) {
    for (const found of encodedDataIn(file)) if (found.kind === 'blob') report(found.hit);
  },
});

export const encodedCommand = defineRule({
  id: 'obfuscation/encoded-command',
  severity: 'critical',
  description: 'Encoded string hides a dangerous command',
  explanation:
    'A base64 or hex string decodes to a download-and-execute or destructive command. The finding shows the decoded text.',
  hint: 'Remove the encoded command. If the skill needs to run something, write it in plain text so it can be reviewed.',
  check(file, report) {
    for (const found of encodedDataIn(file)) if (found.kind === 'command') report(found.hit);
  },
});

export const BASE64_TO_SHELL: readonly Pattern[] = [
  pattern(
    'base64 openssl xxd',
    gapped(
      /\b(?:base64\s+(?:-d|--decode|-D)|openssl\s+(?:base64|enc)\s+[^\n|]{0,40}?-d|xxd\s+-r(?:\s+-p)?)\b/g,
      /\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k)?sh|python[0-9.]*|perl)\b/g,
      200,
    ),
  ),
  // The terminal's `base64`.
  pattern('base64', gapped(/\beval\s+["']?\$\(/g, /\bbase64\s+(?:-d|--decode|-D)\b/g, 300)),
  pattern('powershell pwsh', gapped(/\b(?:powershell|pwsh)(?:\.exe)?\b/gi, /\s-(?:e|ec|enc|encodedcommand)\s+[A-Za-z0-9+/=]{16}/gi, 60)),
  pattern('frombase64string', gapped(/\bFromBase64String\b/gi, /\b(?:iex|invoke-expression)\b/gi, 300)),
  pattern('frombase64string', gapped(/\b(?:iex|invoke-expression)\b/gi, /\bFromBase64String\b/gi, 300)),
];

const DECODERS = String.raw`(?:atob|Buffer\.from|fromCharCode|unescape|decodeURIComponent|b64decode|b32decode|b16decode|a85decode|b85decode|decodebytes|decodestring|unhexlify|fromhex|decompress|inflate|inflateSync|gunzipSync|marshal\.loads|codecs\.decode|rot_?13)`;
/** The whole words of `\b${DECODERS}\b`: `Buffer.from` stands as `buffer`, `rot_?13` as `rot13` or `rot_13`. */
const DECODER_WORDS =
  'atob buffer fromcharcode unescape decodeuricomponent b64decode b32decode b16decode a85decode b85decode decodebytes decodestring unhexlify fromhex decompress inflate inflatesync gunzipsync marshal codecs rot13 rot_13';
export const EVAL_DECODED: readonly Pattern[] = [
  // `eval(`/`exec(` (not a `.exec(` method such as RegExp#exec) with a decoder inside its argument.
  pattern(DECODER_WORDS, gapped(/(?<![.\w$])(?:eval|exec|execfile)\s*\(/g, new RegExp(String.raw`\b${DECODERS}\b`, 'g'), 200)),
  pattern(DECODER_WORDS, gapped(/(?<![.\w$])(?:new\s+)?Function\s*\(/g, new RegExp(String.raw`\b${DECODERS}\b`, 'g'), 200)),
  pattern('exec', /(?<![.\w$])exec\s*\(\s*compile\s*\(/g),
  pattern('settimeout setinterval', /\b(?:setTimeout|setInterval)\s*\(\s*(?:atob|unescape|String\.fromCharCode)\s*\(/g),
  // `__import__` may follow a word character (`x__import__(`), so the words are the quoted module names.
  pattern('base64 zlib marshal codecs', gapped(/__import__\(\s*['"](?:base64|zlib|marshal|codecs)['"]\s*\)/g, /\b(?:exec|eval)\b/g, 200)),
];

const isB64 = (c: number): boolean =>
  (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f || c === 0x2d || c === 0x5f;
const isHex = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

const MIN_BASE64 = 120;
const MIN_HEX = 160;
/** Runs this short are still decoded (not reported as blobs) to look for a hidden command. */
const MIN_DECODE = 16;
/** Only the start of a huge run is decoded; a command hidden in a blob sits near its start anyway. */
const MAX_DECODE = 64 * 1024;

/** An encoded run: a dangerous command once decoded, or a blob too long to review. */
interface EncodedData {
  kind: 'command' | 'blob';
  hit: Hit;
}

/** Every encoded run in a file, found once for both rules that report them. */
const encodedDataIn = oncePer(findEncodedData);

/**
 * Finds base64/hex runs with a single linear pass over the characters (no regex, so a 5 MB blob or
 * `'a'.repeat(50000) + '!'` costs one pass). A run that decodes to a command is that command, not
 * also a blob.
 */
function findEncodedData(file: SkillTextFile): EncodedData[] {
  const out: EncodedData[] = [];
  const t = file.text;
  let i = 0;
  while (i < t.length) {
    const first = t.charCodeAt(i);
    if (!isB64(first)) {
      // `=` is stepped over one at a time, as always; elsewhere a run starts no earlier than the
      // next stretch long enough to be decoded (shorter runs are neither decoded nor reported).
      i = first === 0x3d || !prefilter.enabled ? i + 1 : nextStretch(t, i + 1);
      continue;
    }
    const start = i;
    let upper = 0;
    let lower = 0;
    let digit = 0;
    let allHex = true;
    while (i < t.length && isB64(t.charCodeAt(i))) {
      const c = t.charCodeAt(i);
      if (c >= 0x41 && c <= 0x5a) upper++;
      else if (c >= 0x61 && c <= 0x7a) lower++;
      else if (c >= 0x30 && c <= 0x39) digit++;
      if (allHex && !isHex(c)) allHex = false;
      i++;
    }
    while (i < t.length && t.charCodeAt(i) === 0x3d) i++; // `=` padding
    const length = i - start;
    if (length < MIN_DECODE) continue;
    // Mixed letters and digits tell encoded data from long identifiers, kebab-case names and paths.
    const mixed = digit > 0 && (allHex ? upper + lower > 0 : upper > 0 && lower > 0);
    if (!mixed) continue;
    if (isDataUriForMedia(t, start)) continue;
    const run = t.slice(start, Math.min(i, start + MAX_DECODE));
    const decoded = allHex ? decodeHex(run) : decodeBase64(run);
    const command = decoded === undefined ? undefined : hiddenCommand(start, run, decoded);
    if (command) out.push(command);
    else if ((allHex && length >= MIN_HEX) || (!allHex && length >= MIN_BASE64 && !looksLikePath(run))) {
      out.push({
        kind: 'blob',
        hit: {
          offset: start,
          evidence: `${t.slice(start, start + 60)}… (${length} chars)`,
          ceiling: file.isTestData ? 'info' : undefined,
          detail: `A ${length}-character ${allHex ? 'hex' : 'base64'} blob.`,
        },
      });
    }
  }
  forEachMatch(/(?:\\x[0-9a-fA-F]{2}){40,}/g, t, (m) => {
    const decoded = decodeHex(m[0].replaceAll('\\x', ''));
    const command = decoded === undefined ? undefined : hiddenCommand(m.index, m[0], decoded);
    out.push(command ?? { kind: 'blob', hit: { offset: m.index, evidence: `${m[0].slice(0, 60)}… (${m[0].length} chars)`, ceiling: file.isTestData ? 'info' : undefined, detail: `${m[0].length / 4} \\x-escaped bytes.` } });
  });
  return out;
}

const inRun = (c: number): boolean => isB64(c) || c === 0x3d;

/**
 * Where the first stretch of at least MIN_DECODE characters that can be part of a run (base64 and
 * `=` padding) starts, at or after `from`; the text's length if there is none. The character
 * before `from` must be one that cannot be part of a run, so a stretch found starts there or
 * later. Prose has no such stretch, and this reads a fraction of it: a probe that is not a run
 * character rules out every stretch that would cover it, and a word around a probe is passed whole.
 */
function nextStretch(t: string, from: number): number {
  let i = from;
  while (i + MIN_DECODE <= t.length) {
    const probe = i + MIN_DECODE - 1;
    // Any stretch of MIN_DECODE characters that starts in [i, probe] covers the probe.
    if (!inRun(t.charCodeAt(probe))) {
      i = probe + 1;
      continue;
    }
    let start = probe;
    while (start > i && inRun(t.charCodeAt(start - 1))) start--;
    let end = probe + 1;
    while (end < t.length && end - start < MIN_DECODE && inRun(t.charCodeAt(end))) end++;
    if (end - start >= MIN_DECODE) return start;
    // The stretch around the probe is too short and `t[end]` ends it (or the text does).
    i = end + 1;
  }
  return t.length;
}

/**
 * Random base64 has a `/`, `-` or `_` about once in 32 characters; a URL path or a slug has one
 * every few characters.
 */
function looksLikePath(run: string): boolean {
  let separators = 0;
  for (let i = 0; i < run.length; i++) {
    const c = run.charCodeAt(i);
    if (c === 0x2f || c === 0x2d || c === 0x5f) separators++;
  }
  return separators > run.length / 12;
}

function isDataUriForMedia(t: string, start: number): boolean {
  const before = t.slice(Math.max(0, start - 80), start);
  return /data:(?:image\/(?!svg)[\w.+-]+|font\/[\w.+-]+|application\/font-[\w.+-]+|audio\/[\w.+-]+)(?:;[\w=.-]+)*;base64,$/i.test(before);
}

function hiddenCommand(offset: number, run: string, decoded: string): EncodedData | undefined {
  const command = findCommand(decoded);
  if (command === undefined) return undefined;
  return { kind: 'command', hit: { offset, evidence: `${run.slice(0, 40)}… decodes to: ${command}`, detail: `Decodes to \`${command.slice(0, 80)}\`.` } };
}

/** Cheap prefilter: decoded data without any command word cannot match the command patterns. */
const COMMAND_WORD = /\b(?:curl|wget|fetch|iex|invoke-expression|iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|exec|eval|sh|bash|zsh|source|rm|mkfs(?:\.\w+)?|dd|chmod|rd|rmdir|remove-item|find|base64|openssl|xxd|powershell|pwsh|frombase64string)\b|:\(\)|>\s*\/dev\//i;

/** The first download-exec or destructive command in decoded text, if any. */
export function findCommand(text: string): string | undefined {
  if (!COMMAND_WORD.test(text)) return undefined;
  const source = { text };
  for (const p of [...DOWNLOAD_EXEC_PATTERNS, ...BASE64_TO_SHELL, ...DESTRUCTIVE_PATTERNS]) {
    let found: string | undefined;
    forEachPatternMatch(p, source, (start, end) => {
      found ??= text.slice(start, end);
    });
    if (found !== undefined) return found;
  }
  return undefined;
}

const B64_VALUE = new Int16Array(128).fill(-1);
for (const [i, c] of Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/').entries()) B64_VALUE[c.charCodeAt(0)] = i;
B64_VALUE[0x2d] = 62; // `-` (base64url)
B64_VALUE[0x5f] = 63; // `_` (base64url)

/** Text only: at least 90% printable ASCII, whitespace or UTF-8 lead/continuation bytes. */
function textBytes(bytes: Uint8Array): string | undefined {
  let ok = 0;
  for (const b of bytes) if ((b >= 0x20 && b < 0x7f) || b === 0x0a || b === 0x0d || b === 0x09 || b >= 0x80) ok++;
  if (bytes.length === 0 || ok / bytes.length < 0.9) return undefined;
  const text = new TextDecoder('utf-8').decode(bytes);
  return text.includes('\uFFFD') && (text.match(/\uFFFD/g)?.length ?? 0) > text.length / 20 ? undefined : text;
}

/** A hand-written decoder: one pass, no exceptions, and it accepts standard and URL-safe alphabets. */
function decodeBase64(run: string): string | undefined {
  const bytes = new Uint8Array(Math.floor((run.length * 3) / 4));
  let n = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < run.length; i++) {
    const c = run.charCodeAt(i);
    if (c === 0x3d) break;
    const v = c < 128 ? B64_VALUE[c]! : -1;
    if (v < 0) return undefined;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[n++] = (acc >> bits) & 0xff;
    }
  }
  return textBytes(bytes.subarray(0, n));
}

function decodeHex(run: string): string | undefined {
  const bytes = new Uint8Array(run.length >> 1);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(run.slice(i * 2, i * 2 + 2), 16);
  return textBytes(bytes);
}
