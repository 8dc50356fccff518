import { forEachPatternMatch, gapped, pattern, type Pattern } from '../pattern.ts';
import { defineRule } from '../rule.ts';

export const tlsDisabled = defineRule({
  id: 'tls/verification-disabled',
  severity: 'warn',
  description: 'TLS certificate verification is turned off',
  explanation:
    'Turning off certificate checks (`verify=False`, `rejectUnauthorized: false`, ' +
    '`NODE_TLS_REJECT_UNAUTHORIZED=0`, `curl -k`/`--insecure`, `wget --no-check-certificate`, ' +
    '`ssl._create_unverified_context`, `InsecureSkipVerify: true`) lets anyone on the network read and ' +
    'change the traffic, including code the skill downloads.',
  hint: 'Keep verification on. For a private CA, point the client at the CA bundle (`verify="/path/ca.pem"`, `NODE_EXTRA_CA_CERTS`).',
  quotable: true,
  check(file, report) {
    for (const p of TLS_OFF) forEachPatternMatch(p, file, (start, end) => report({ offset: start, evidence: file.text.slice(start, end) }));
  },
});

// No pattern may read one stretch of text in many ways (`\s*[= ]\s*`, `[A-Za-z]*k[A-Za-z]*`): over a
// megabyte of spaces or letters in a pull request's file, such a pattern took minutes.
export const TLS_OFF: readonly Pattern[] = [
  pattern('verify', /\bverify\s*=\s*False\b/g),
  pattern('rejectunauthorized', /\brejectUnauthorized\s*[:=]\s*false\b/g),
  pattern('node_tls_reject_unauthorized', /\bNODE_TLS_REJECT_UNAUTHORIZED\s*[=:]\s*["']?0\b/g),
  pattern('curl', gapped(/\bcurl\b/g, /\s(?:-(?=[A-Za-z]*k)[A-Za-z]+|--insecure)(?=\s|$)/gm, 200, { continuation: true })),
  pattern('wget', gapped(/\bwget\b/g, /\s--no-check-certificate\b/g, 200, { continuation: true })),
  pattern('ssl cert_reqs check_hostname', /\bssl\._create_unverified_context\b|\bcert_reqs\s*=\s*(?:ssl\.)?CERT_NONE\b|\bcheck_hostname\s*=\s*False\b/g),
  pattern('insecureskipverify', /\bInsecureSkipVerify\s*:\s*true\b/g),
  pattern('pythonhttpsverify', /\bPYTHONHTTPSVERIFY\s*=\s*["']?0\b/g),
  // `sslVerify` follows `http.`.
  pattern('git_ssl_no_verify sslverify', /\b(?:GIT_SSL_NO_VERIFY\s*=\s*["']?(?:1|true)|http\.sslVerify[= ]\s*false)\b/gi),
  // `ssl` between `-` and a space or `=`.
  pattern('ssl', /\bstrict-ssl(?:\s*=|\s)\s*false\b/g),
  pattern('skipcertificatecheck', /-SkipCertificateCheck\b/g),
];
