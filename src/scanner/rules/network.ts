import { oncePer } from '../../core/once-per.ts';
import { forEachMatch, type SkillTextFile } from '../document.ts';
import { defineRule, type ReportHit } from '../rule.ts';

export const rawIpUrl = defineRule({
  id: 'network/raw-ip-url',
  severity: 'high',
  description: 'URL points at a raw IP address',
  explanation:
    'Legitimate services have domain names; a URL with a bare public IP address (or an IP written in ' +
    'decimal or hex) is typical of command-and-control servers and throwaway payload hosts. Loopback, ' +
    'unspecified and documentation addresses are ignored; private (RFC 1918) addresses are `info`.',
  hint: 'Use the service\'s domain name over HTTPS, or remove the URL.',
  check(file, report) {
    for (const u of urlsIn(file)) {
      const ip = classifyIp(u.host);
      if (ip === 'public') report({ offset: u.offset, evidence: u.url });
      else if (ip === 'private') report({ offset: u.offset, evidence: u.url, ceiling: 'info', detail: 'The address is in a private network range.' });
    }
  },
});

export const pasteSiteUrl = defineRule({
  id: 'network/paste-site',
  severity: 'high',
  description: 'URL points at a paste or anonymous file-drop site',
  explanation:
    'Paste sites (pastebin.com, rentry.co, transfer.sh, 0x0.st …) serve content anyone can change at any ' +
    'time without history. Attackers host second-stage payloads there.',
  hint: 'Put the content in the skill itself, or link a versioned source such as a tagged release in a repository.',
  check: (file, report) => reportHostsIn(PASTE, file, report),
});

export const urlShortener = defineRule({
  id: 'network/url-shortener',
  severity: 'warn',
  description: 'URL goes through a link shortener',
  explanation: 'A shortened link (bit.ly, tinyurl.com …) hides where it leads, and its target can be changed later.',
  hint: 'Replace it with the full destination URL.',
  check: (file, report) => reportHostsIn(SHORTENER, file, report),
});

export const exfiltrationEndpoint = defineRule({
  id: 'network/exfiltration-endpoint',
  severity: 'high',
  description: 'URL points at a webhook collector or tunnel',
  explanation:
    'Discord/Slack webhooks, Telegram bot APIs, request catchers (webhook.site, requestbin, pipedream) and ' +
    'tunnels (ngrok, trycloudflare) are where stolen data is usually sent.',
  hint: 'If the skill really posts to such an endpoint, make the URL a user-supplied setting and explain it in SKILL.md.',
  check(file, report) {
    for (const u of urlsIn(file)) {
      if (hostIn(u.host, EXFIL) || (EXFIL_PATH_HOSTS.has(u.host) && EXFIL_PATHS.some((re) => re.test(`${u.host}${u.path}`)))) report({ offset: u.offset, evidence: u.url });
    }
  },
});

const PASTE_HOSTS = [
  'pastebin.com', 'paste.ee', 'hastebin.com', 'hastebin.skyra.pw', 'ghostbin.com', 'ghostbin.co', 'rentry.co', 'rentry.org',
  'dpaste.org', 'dpaste.com', 'controlc.com', 'termbin.com', 'ix.io', 'sprunge.us', '0x0.st', 'transfer.sh', 'paste.rs',
  'justpaste.it', 'privatebin.net', 'pastes.dev', 'paste.c-net.org', 'katb.in', 'bpa.st', 'pastebin.pl', 'paste.mozilla.org',
  'temp.sh', 'file.io', 'catbox.moe', 'files.catbox.moe', 'litter.catbox.moe', 'anonfiles.com', 'gofile.io', 'pixeldrain.com',
];
const SHORTENER_HOSTS = [
  'bit.ly', 'tinyurl.com', 't.co', 'goo.gl', 'is.gd', 'v.gd', 'ow.ly', 'buff.ly', 'cutt.ly', 'rb.gy', 'shorturl.at',
  'tiny.cc', 't.ly', 'rebrand.ly', 'bl.ink', 's.id', 'lnkd.in', 'shorte.st', 'adf.ly', 'tiny.one', 'git.io', 'bitly.com',
  'u.to', 'clck.ru', 'qrco.de', 'short.io', 'urlz.fr',
];
const EXFIL_HOSTS = [
  'webhook.site', 'requestbin.com', 'requestbin.net', 'pipedream.net', 'ngrok.io', 'ngrok-free.app', 'ngrok.app',
  'trycloudflare.com', 'interact.sh', 'oast.fun', 'oast.pro', 'oast.live', 'oast.site', 'oast.online', 'oast.me',
  'burpcollaborator.net', 'canarytokens.com', 'localtunnel.me', 'loca.lt', 'serveo.net', 'hookbin.com', 'beeceptor.com',
];
const EXFIL_PATH_HOSTS = new Set(['discord.com', 'discordapp.com', 'api.telegram.org', 'hooks.slack.com']);
const EXFIL_PATHS = [/^(?:discord|discordapp)\.com\/api\/webhooks\//i, /^api\.telegram\.org\/bot/i, /^hooks\.slack\.com\/services\//i];

const PASTE = new Set(PASTE_HOSTS);
const SHORTENER = new Set(SHORTENER_HOSTS);
const EXFIL = new Set(EXFIL_HOSTS);

/** Each URL of a file whose host, or a parent domain of it, is in `hosts`. */
function reportHostsIn(hosts: ReadonlySet<string>, file: SkillTextFile, report: ReportHit): void {
  for (const u of urlsIn(file)) if (hostIn(u.host, hosts)) report({ offset: u.offset, evidence: u.url });
}

/** True when the host or one of its parent domains is in the set (`a.b.ngrok.io` → `ngrok.io`). */
function hostIn(host: string, set: ReadonlySet<string>): boolean {
  for (let i = -1; ; ) {
    if (set.has(host.slice(i + 1))) return true;
    i = host.indexOf('.', i + 1);
    if (i === -1) return false;
  }
}

// The authority part stops at the first character that cannot be in a host, so every start costs
// at most 260 steps and matched text is never rescanned.
const URL = /\b(?:https?|ftp|wss?):\/\/(?:[^\s/?#@"'<>()[\]{}\\`]{1,200}@)?(\[[0-9a-fA-F:.]{2,45}\]|[^\s/?#:"'<>()[\]{}\\`,;*]{1,253})(?::\d{1,5})?([^\s"'<>()[\]{}\\`]{0,200})/gi;

export interface UrlMatch {
  offset: number;
  url: string;
  host: string;
  path: string;
}

/** Every URL in a file, with its host lower-cased and trailing punctuation trimmed; computed once per file. */
export const urlsIn = oncePer((file: SkillTextFile): UrlMatch[] => findUrls(file.text));

/** Every URL in a text, with its host lower-cased and trailing punctuation trimmed from the path. */
export function findUrls(text: string): UrlMatch[] {
  const urls: UrlMatch[] = [];
  forEachMatch(URL, text, (m) => {
    const host = m[1]!.toLowerCase().replace(/\.$/, '');
    const path = m[2]!.replace(/[.,;:!?*]+$/, '');
    urls.push({ offset: m.index, url: m[0].slice(0, m[0].length - (m[2]!.length - path.length)), host, path });
  });
  return urls;
}

/** `public` for a routable IP literal, `private`, `ignored` (loopback, docs ranges), or undefined for a name. */
export function classifyIp(host: string): 'public' | 'private' | 'ignored' | undefined {
  if (host.startsWith('[')) {
    const v6 = host.slice(1, -1).toLowerCase();
    if (v6 === '::1' || v6 === '::' || v6.startsWith('2001:db8')) return 'ignored';
    if (/^f[cd]/.test(v6) || v6.startsWith('fe80')) return 'private';
    return 'public';
  }
  // Decimal (`http://3232235777`) and hex (`http://0x7f000001`) forms exist only to disguise an address.
  if (/^(?:0x[0-9a-f]{1,8}|\d{8,10})$/.test(host)) return 'public';
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return undefined;
  const [a, b, c] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (a === 127 || a === 0) return 'ignored';
  if ((a === 192 && b === 0 && c === 2) || (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return 'ignored';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  // Link-local includes 169.254.169.254, the cloud metadata service that hands out credentials.
  return 'public';
}
