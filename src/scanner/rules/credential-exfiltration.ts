import { forEachMatch, isFencedAt, lineAt, positionAt, type SkillTextFile } from '../document.ts';
import { defineRule, type ReportHit } from '../rule.ts';

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

const CREDENTIAL_STORE =
  /(?<![\w.-])(?:\.ssh(?=[/\\'"`\s)]|$)|\.ssh\/id_[a-z0-9]+|\.aws(?=[/\\'"`\s)]|$)|\.gnupg\b|\.kube\/config\b|\.docker\/config\.json\b|\.netrc\b|\.git-credentials\b|\.npmrc\b|\.pypirc\b|\.config\/(?:google-chrome|chromium|BraveSoftware|microsoft-edge)\b|\.mozilla\/firefox\b|Google\/Chrome\/(?:User Data|Default)|Application Support\/(?:Google\/Chrome|Firefox|BraveSoftware|Microsoft Edge)|Login Data\b|logins\.json\b|key[34]\.db\b|Local State\b|login\.keychain(?:-db)?\b|find-generic-password\b|wallet\.dat\b|\.electrum\b|Exodus\/exodus\.wallet|\.bash_history\b|\.zsh_history\b)/gm;
const DOTENV = /(?<![\w.$-])\.env(?:\.(?:local|production|development|prod|dev))?(?=['"`\s),;]|$)/gm;
const NETWORK =
  /\b(?:curl|wget|requests\.(?:get|post|put|patch)|urllib\.request|urlopen|httpx\.|aiohttp|http\.client|fetch\s*\(|axios|XMLHttpRequest|sendBeacon|new\s+WebSocket|https?\.request|https?\.get|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|Net\.WebClient|UploadString|UploadFile|socket\.connect|socket\.create_connection|smtplib|ftplib|paramiko|nc\s+-|ncat|netcat|scp\s|rsync\s|\/dev\/tcp\/)/g;

/** Markdown prose talks about these files ("put your key in ~/.ssh"); only fenced code acts on them. */
const counts = (file: SkillTextFile, offset: number): boolean => file.kind !== 'markdown' || isFencedAt(file, offset);

function firstMatch(re: RegExp, file: SkillTextFile): { offset: number; text: string } | undefined {
  let found: { offset: number; text: string } | undefined;
  re.lastIndex = 0;
  for (let m = re.exec(file.text); m; m = re.exec(file.text)) {
    if (counts(file, m.index)) {
      found = { offset: m.index, text: m[0] };
      break;
    }
  }
  re.lastIndex = 0;
  return found;
}

/** Each read of a file `pattern` names, in a file that also calls the network. */
function reportWithNetwork(pattern: RegExp, file: SkillTextFile, report: ReportHit): void {
  if (file.kind === 'svg') return;
  const network = firstMatch(NETWORK, file);
  if (!network) return;
  const where = positionAt(file, network.offset);
  forEachMatch(pattern, file.text, (m) => {
    if (!counts(file, m.index)) return;
    report({
      offset: m.index,
      evidence: lineAt(file, m.index).trim(),
      detail: `\`${m[0]}\` is read in a file that also calls the network (\`${network.text.trim()}\` at line ${where.line}).`,
    });
  });
}
