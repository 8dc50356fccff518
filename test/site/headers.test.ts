/**
 * public/_headers, read the way Netlify and Cloudflare Pages read it: every rule whose path
 * pattern matches applies, and their headers are combined (Netlify joins two values of one header
 * with a comma, which turns `Access-Control-Allow-Origin: *` into an invalid `*, *`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const file = path.resolve(import.meta.dirname, '../../public/_headers');

interface Rule {
  pattern: RegExp;
  source: string;
  headers: Array<[string, string]>;
}

/** `*` matches anything (slashes too), `:name` one path segment; everything else literally. */
function parseHeaders(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      const source = line.trim();
      const regex = source.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/:[A-Za-z]\w*/g, '[^/]+');
      rules.push({ pattern: new RegExp(`^${regex}$`), source, headers: [] });
    } else {
      const [name, ...value] = line.trim().split(':');
      rules.at(-1)!.headers.push([name!.trim().toLowerCase(), value.join(':').trim()]);
    }
  }
  return rules;
}

function headersFor(rules: Rule[], pathname: string): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const rule of rules) {
    if (!rule.pattern.test(pathname)) continue;
    for (const [name, value] of rule.headers) result.set(name, [...(result.get(name) ?? []), `${value} (${rule.source})`]);
  }
  return result;
}

const rules = parseHeaders(readFileSync(file, 'utf8'));
const REGISTRY = ['/index.json', '/index.schema.json', '/schemas/manifest.schema.json', '/skills/demo.json', '/skills/demo/0123456789abcdef/SKILL.md', '/skills/demo/0123456789abcdef.tar.gz', '/.well-known/agent-skills/index.json', '/.well-known/agent-skills/demo/0123456789abcdef.tar.gz', '/.well-known/skills/index.json', '/.well-known/skills/demo/SKILL.md', '/runtime/skilldex.js'];
const SITE = ['/', '/skills/demo/', '/assets/site.css', '/pagefind/pagefind.js', '/docs/hosting/'];

describe('public/_headers', () => {
  it('opens every registry file to other origins exactly once', () => {
    for (const p of REGISTRY) expect(headersFor(rules, p).get('access-control-allow-origin'), p).toEqual([expect.stringMatching(/^\* /)]);
  });

  it('sets no header twice on any path', () => {
    for (const p of [...REGISTRY, ...SITE]) {
      for (const [name, values] of headersFor(rules, p)) expect(values.length, `${p}: ${name} from ${values.join(' and ')}`).toBe(1);
    }
  });

  it('sandboxes raw skill files only', () => {
    expect(headersFor(rules, '/skills/demo/0123456789abcdef/logo.svg').get('content-security-policy')?.[0]).toContain('sandbox');
    expect(headersFor(rules, '/skills/demo.json').get('content-security-policy')).toBeUndefined();
    expect(headersFor(rules, '/index.json').get('content-security-policy')).toBeUndefined();
  });
});
