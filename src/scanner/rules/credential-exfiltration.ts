import { isFencedAt, lineAt, positionAt, type SkillTextFile } from '../document.ts';
import { forEachPatternMatch, pattern, type Pattern } from '../pattern.ts';
import { defineRule, type ReportHit } from '../rule.ts';
import { mayContain } from '../words.ts';

export const credentialStoreNetwork = defineRule({
  id: 'exfil/credential-store-network',
  severity: 'critical',
  description: 'Reads credential stores and talks to the network',
  explanation:
    'The same file touches SSH keys (`~/.ssh`), cloud credentials (`~/.aws`, `~/.kube`, `~/.docker/config.json`, ' +
    '`~/.netrc`, `~/.git-credentials`, `~/.npmrc`), GnuPG keys, browser profiles (cookies, saved logins) or ' +
    'wallets, and also makes a network call. That combination is credential theft. In Markdown only fenced ' +
    'code blocks are considered.',
  hint: 'A skill should never read these files. Ask the user for the specific value it needs, or use the official CLI that owns the credential.',
  quotable: true,
  check: (file, report) => reportWithNetwork(CREDENTIAL_STORE, file, report),
});

export const dotenvNetwork = defineRule({
  id: 'exfil/dotenv-network',
  severity: 'warn',
  description: 'Reads a .env file and talks to the network',
  explanation:
    'The file reads `.env` (which usually holds every secret of a project) and also makes a network call. ' +
    'That is often legitimate (an API key for the API being called) but is also how secrets get sent away, ' +
    'so a reviewer should confirm where the data goes. Loading through `dotenv` without naming the file is not reported.',
  hint: 'Read only the variable the skill needs from the environment (`os.environ["X_API_KEY"]`, `process.env.X_API_KEY`).',
  quotable: true,
  check: (file, report) => reportWithNetwork(DOTENV, file, report),
});

// Every branch follows `(?<![\w.-])`, so its first word (after the `.` of a dotfile) stands whole.
export const CREDENTIAL_STORE = pattern(
  'ssh aws gnupg kube docker netrc git npmrc pypirc config mozilla google application login logins key3 key4 local find wallet electrum exodus bash_history zsh_history',
  /(?<![\w.-])(?:\.ssh(?=[/\\'"`\s)]|$)|\.ssh\/id_[a-z0-9]+|\.aws(?=[/\\'"`\s)]|$)|\.gnupg\b|\.kube\/config\b|\.docker\/config\.json\b|\.netrc\b|\.git-credentials\b|\.npmrc\b|\.pypirc\b|\.config\/(?:google-chrome|chromium|BraveSoftware|microsoft-edge)\b|\.mozilla\/firefox\b|Google\/Chrome\/(?:User Data|Default)|Application Support\/(?:Google\/Chrome|Firefox|BraveSoftware|Microsoft Edge)|Login Data\b|logins\.json\b|key[34]\.db\b|Local State\b|login\.keychain(?:-db)?\b|find-generic-password\b|wallet\.dat\b|\.electrum\b|Exodus\/exodus\.wallet|\.bash_history\b|\.zsh_history\b)/gm,
);
export const DOTENV = pattern('env', /(?<![\w.$-])\.env(?:\.(?:local|production|development|prod|dev))?(?=['"`\s),;]|$)/gm);
// No `\b` closes these: `\bcurl` also matches `curly`, so such words are prefixes (`curl*`).
// The others end at `.`, `-`, `(` or a space; `new WebSocket` stands as `websocket*`, `/dev/tcp/` as `dev`.
// netcat counts with an option (`nc -e`) or with a host and a port (`| nc collector.example 9999`).
export const NETWORK = pattern(
  'curl* wget* requests urllib urlopen* httpx aiohttp* http fetch axios* xmlhttprequest* sendbeacon* websocket* https invoke iwr* irm* net uploadstring* uploadfile* socket smtplib* ftplib* paramiko* nc ncat* netcat* scp rsync dev',
  /\b(?:curl|wget|requests\.(?:get|post|put|patch)|urllib\.request|urlopen|httpx\.|aiohttp|http\.client|fetch\s*\(|axios|XMLHttpRequest|sendBeacon|new\s+WebSocket|https?\.request|https?\.get|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|Net\.WebClient|UploadString|UploadFile|socket\.connect|socket\.create_connection|smtplib|ftplib|paramiko|nc\s+(?:-|[\w.-]+\s+\d{1,5}\b)|ncat|netcat|scp\s|rsync\s|\/dev\/(?:tcp|udp)\/)/g,
);

/** Markdown prose talks about these files ("put your key in ~/.ssh"); only fenced code acts on them. */
const counts = (file: SkillTextFile, offset: number): boolean => file.kind !== 'markdown' || isFencedAt(file, offset);

function firstMatch({ matcher, words }: Pattern<RegExp>, file: SkillTextFile): { offset: number; text: string } | undefined {
  if (!mayContain(file, words)) return undefined;
  let found: { offset: number; text: string } | undefined;
  matcher.lastIndex = 0;
  for (let m = matcher.exec(file.text); m; m = matcher.exec(file.text)) {
    if (counts(file, m.index)) {
      found = { offset: m.index, text: m[0] };
      break;
    }
  }
  matcher.lastIndex = 0;
  return found;
}

/** Each read of a file `reads` names, in a file that also calls the network. */
function reportWithNetwork(reads: Pattern<RegExp>, file: SkillTextFile, report: ReportHit): void {
  // The cheap test first: most files name no credential store, and then the network is not searched.
  if (file.kind === 'svg' || !mayContain(file, reads.words)) return;
  const network = firstMatch(NETWORK, file);
  if (!network) return;
  const where = positionAt(file, network.offset);
  forEachPatternMatch(reads, file, (start, end) => {
    if (!counts(file, start)) return;
    report({
      offset: start,
      evidence: lineAt(file, start).trim(),
      detail: `\`${file.text.slice(start, end)}\` is read in a file that also calls the network (\`${network.text.trim()}\` at line ${where.line}).`,
    });
  });
}
