import type { SkillTextFile } from '../document.ts';
import { forEachPatternMatch, pattern } from '../pattern.ts';
import { defineRule, type ReportHit } from '../rule.ts';

export const secretLiteral = defineRule({
  id: 'secret/literal',
  severity: 'high',
  description: 'Secret key or token written into the skill',
  explanation:
    'The file contains what looks like a live credential: an OpenAI/Anthropic-style `sk-…` key, a GitHub ' +
    'token (`ghp_…`, `github_pat_…`), a Slack token (`xox…-`), an AWS access key id (`AKIA…`), a Google API ' +
    'key, a Stripe secret key or a PEM private key block. Anyone who installs the skill gets it. Obvious ' +
    'placeholders (`sk-xxxx…`, `AKIAIOSFODNN7EXAMPLE`, `your-key-here`) are ignored, and test-data folders ' +
    'are reported at `info`. The evidence is masked so the report does not leak the secret again.',
  hint: 'Revoke the credential now, remove it from the skill (and its git history), and read it from an environment variable at run time.',
  check: checkSecretLiteral,
});

// `sk-` and `xox…-` end their word at the `-`; the other keys run on in word characters, so
// their words are prefixes.
export const TOKEN = pattern(
  'sk sk_live_* rk_live_* ghp_* gho_* ghu_* ghs_* ghr_* github_pat_* xoxb xoxp xoxo xoxa xoxs xoxr akia* asia* aiza*',
  /\b(?:sk-(?:proj-|ant-(?:api|admin)\d\d-|svcacct-)?[A-Za-z0-9_-]{20,}|(?:sk|rk)_live_[0-9A-Za-z]{20,}|gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{50,}|xox[bpoasr]-[A-Za-z0-9-]{10,}|(?:AKIA|ASIA)[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35})\b/g,
);
export const PRIVATE_KEY = pattern('private', /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----/g);
const PLACEHOLDER = /x{4,}|X{4,}|\*{3,}|\.{3}|EXAMPLE|example|your|YOUR|redacted|REDACTED|placeholder|PLACEHOLDER|0{8,}|1234567890|abcdefghij|ABCDEFGHIJ|<|>/;

/** Shows the kind of secret and its length, never the secret itself. */
const mask = (s: string): string => `${s.slice(0, Math.min(8, s.indexOf('-') > 0 ? s.indexOf('-') + 4 : 6))}…(${s.length} chars, masked)`;

function checkSecretLiteral(file: SkillTextFile, report: ReportHit): void {
  forEachPatternMatch(TOKEN, file, (start, end) => {
    const token = file.text.slice(start, end);
    if (PLACEHOLDER.test(token)) return;
    // A real key is random: it mixes letters and digits. `sk-learn-some-long-name` is prose.
    const body = token.replace(/^[A-Za-z]+[-_](?:[a-z]+[-_])?/, '');
    if (!/\d/.test(body) || !/[A-Za-z]/.test(body) || (body.match(/-/g)?.length ?? 0) > 4) return;
    report({ offset: start, evidence: mask(token), ceiling: file.isTestData ? 'info' : undefined });
  });
  forEachPatternMatch(PRIVATE_KEY, file, (start, end) => {
    const after = file.text.slice(end, end + 200);
    // A real PEM block continues on the next line with base64 or `Proc-Type:` headers; a header
    // followed by `...`, a placeholder or more prose is documentation of the format, not a key.
    if (!/^\r?\n(?:[A-Za-z0-9+/=-]{16,}|Proc-Type:|Comment:)/.test(after)) return;
    report({ offset: start, evidence: `${file.text.slice(start, end)} …(key body masked)`, ceiling: file.isTestData ? 'info' : undefined });
  });
}
