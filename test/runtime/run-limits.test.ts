import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRegistry } from '../../src/pipeline/index.ts';
import { enforcedPolicy } from '../../src/core/enforced-policy.ts';
import { allowedBy, isInternalAddress, parseAllowlist } from '../../src/runtime/node/sandbox/network-allowlist.ts';
import { tempDir } from './_registries.ts';

/** The bounds on timeout and retry, reported by the build at the line that asks for too much. */
describe('run limits in the build', () => {
  it('reports retry: 1000000 and timeout: 3600000 in skill.json, and timeout_ms beyond 10 minutes in SKILL.md', async () => {
    const root = await tempDir('limits');
    await mkdir(join(root, 'skills/greedy'), { recursive: true });
    await writeFile(
      join(root, 'skills/greedy/skill.json'),
      `${JSON.stringify({ name: 'greedy', description: 'Asks for far too much time and far too many retries.', category: 'test', input: { type: 'object' }, output: { type: 'object' }, mode: 'llm', timeout: 3_600_000, retry: 1_000_000 }, null, 2)}\n`,
    );
    await writeFile(join(root, 'skills/greedy/prompt.md'), 'Reply with {}.\n');
    await mkdir(join(root, 'skills/slowpoke/scripts'), { recursive: true });
    await writeFile(
      join(root, 'skills/slowpoke/SKILL.md'),
      ['---', 'name: slowpoke', 'description: Declares a one-hour timeout and a 1 TB memory limit.', 'version: 1.0.0', 'security:', '  timeout_ms: 3600000', '  memory_mb: 1048576', '---', '', '# Slowpoke', '', 'Runs for an hour.', ''].join('\n'),
    );
    await writeFile(join(root, 'skills/slowpoke/scripts/run.sh'), '#!/bin/sh\necho \'{"success":true,"data":{}}\'\n');
    const result = await buildRegistry({ root, outDir: await tempDir('limits-out'), sourceDateEpoch: 1_700_000_000, lenient: true, cache: false });
    const found = result.diagnostics.map((d) => `${d.file}:${d.line} ${d.rule} ${d.message}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'skills/greedy/skill.json:12 skill-json/meta-schema timeout: at most 600000 ms (10 minutes)',
        'skills/greedy/skill.json:13 skill-json/meta-schema retry: at most 5 retries',
        'skills/slowpoke/SKILL.md:6 frontmatter/field-type security.timeout_ms: at most 600000 ms (10 minutes)',
        'skills/slowpoke/SKILL.md:7 frontmatter/field-type security.memory_mb: at most 65536 MB',
      ]),
    );
    // Neither skill is published with the out-of-range values.
    expect(result.manifests.map((m) => m.name)).not.toContain('greedy');
  });
});

describe('enforcedPolicy', () => {
  it('marks every declared field enforced for a strict policy', () => {
    const strict = enforcedPolicy({ timeout_ms: 5000, memory_mb: 64, network: 'none', filesystem: 'none', environment: { A: 'b' } });
    expect(Object.values(strict).every((field) => field.enforced)).toBe(true);
    expect(strict.filesystem.note).toContain('can write nowhere');
  });

  it('describes an allowlist as HTTP(S) through the filtering proxy', () => {
    const open = enforcedPolicy({ network: 'allowlist', network_allowlist: ['https://api.example.com'], requires_filesystem: true });
    expect(open.network).toEqual({ enforced: true, note: 'only HTTP and HTTPS to the listed hosts, through a filtering proxy; nothing else leaves the sandbox' });
    expect(open.filesystem.note).toContain('writes only a fresh work folder');
    // An allowlist policy with an empty list is no network at all.
    expect(enforcedPolicy({ network: 'allowlist', network_allowlist: [] }).network.note).toContain('no network');
  });

  it('describes the defaults of an undeclared policy: no network, a writable work folder', () => {
    const none = enforcedPolicy(undefined);
    expect(none.network).toEqual({ enforced: true, note: 'no network: the run has its own empty network namespace' });
    expect(none.requires_filesystem.note).toBe('a fresh writable work folder');
  });
});

describe('network allowlist rules', () => {
  it('reads origins and bare hosts, with default and explicit ports and *. wildcards', () => {
    const { rules, invalid } = parseAllowlist(['https://api.example.com', 'http://127.0.0.1:8080', '*.cdn.example.org', 'files.example.net:8443', 'not a host', 'ftp://x.example']);
    expect(invalid).toEqual(['not a host', 'ftp://x.example']);
    expect(allowedBy(rules, 'API.example.com', 443)?.host).toBe('api.example.com');
    expect(allowedBy(rules, 'api.example.com', 80)).toBeUndefined();
    expect(allowedBy(rules, '127.0.0.1', 8080)?.literal).toBe(true);
    expect(allowedBy(rules, 'a.cdn.example.org', 443)).toBeDefined();
    expect(allowedBy(rules, 'cdn.example.org', 443)).toBeUndefined();
    expect(allowedBy(rules, 'evilcdn.example.org', 443)).toBeUndefined();
    expect(allowedBy(rules, 'files.example.net', 8443)).toBeDefined();
    expect(allowedBy(rules, 'files.example.net', 443)).toBeUndefined();
  });

  it('treats loopback, private and link-local addresses as internal', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1']) {
      expect(isInternalAddress(address)).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111']) expect(isInternalAddress(address)).toBe(false);
  });
});
