import { isIP } from 'node:net';

/**
 * A skill's `network_allowlist` as rules the egress proxy can check. Entries are origins
 * (`https://api.example.com`, `http://127.0.0.1:8080`) or bare hosts (`api.example.com`,
 * `*.example.com`, `host:8443`). An origin allows its host on its port (the scheme's default when
 * none is written); a bare host allows ports 80 and 443 unless it names one. `*.` matches any
 * subdomain (not the domain itself). Paths are ignored: the proxy sees only host and port of
 * HTTPS traffic.
 */
export interface AllowRule {
  host: string;
  /** `*.example.com` → suffix match. */
  wildcard: boolean;
  ports: number[];
  /** The entry names an IP address or localhost, so a loopback or private target is intended. */
  literal: boolean;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 };

/** Parses the allowlist; entries that are not an origin or host are returned in `invalid`. */
export function parseAllowlist(entries: readonly string[]): { rules: AllowRule[]; invalid: string[] } {
  const rules: AllowRule[] = [];
  const invalid: string[] = [];
  for (const raw of entries) {
    const entry = raw.trim();
    let host: string;
    let ports: number[];
    try {
      if (entry.includes('://')) {
        const url = new URL(entry);
        const port = url.port ? Number(url.port) : DEFAULT_PORTS[url.protocol];
        if (port === undefined) throw new Error('unsupported scheme');
        host = url.hostname;
        ports = [port];
      } else {
        const url = new URL(`http://${entry.replace(/^\*\./, 'wildcard-placeholder.')}`);
        if (url.pathname !== '/' || url.search || url.username) throw new Error('not a host');
        host = entry.startsWith('*.') ? `*.${url.hostname.slice('wildcard-placeholder.'.length)}` : url.hostname;
        ports = url.port ? [Number(url.port)] : [80, 443];
      }
    } catch {
      invalid.push(raw);
      continue;
    }
    const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
    const wildcard = bare.startsWith('*.');
    rules.push({ host: wildcard ? bare.slice(1) : bare, wildcard, ports, literal: isIP(bare) !== 0 || bare === 'localhost' });
  }
  return { rules, invalid };
}

/** The rule that allows `host:port`, if any. */
export function allowedBy(rules: readonly AllowRule[], host: string, port: number): AllowRule | undefined {
  const name = host.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  return rules.find((rule) => rule.ports.includes(port) && (rule.wildcard ? name.endsWith(rule.host) && name.length > rule.host.length : name === rule.host));
}

/**
 * Addresses a name must not resolve to unless the allowlist names them literally: loopback,
 * private, link-local, unspecified and carrier-grade NAT ranges. Otherwise an allowlisted domain
 * whose DNS its owner controls could be pointed at services on the host or its network.
 */
export function isInternalAddress(address: string): boolean {
  if (isIP(address) === 6) {
    const a = address.toLowerCase();
    if (a.startsWith('::ffff:')) return isInternalAddress(a.slice(7));
    return a === '::1' || a === '::' || a.startsWith('fe8') || a.startsWith('fe9') || a.startsWith('fea') || a.startsWith('feb') || a.startsWith('fc') || a.startsWith('fd');
  }
  const [a = 0, b = 0] = address.split('.').map(Number);
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
}
