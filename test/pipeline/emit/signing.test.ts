/**
 * The build signs index.json with the registry's key(s): `skilldex keygen` makes a key, the
 * build signs with it from SKILLDEX_SIGNING_KEY, and the signature verifies against the public
 * key only. Real CLI processes, real keys.
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeysDocument, SignedIndex } from '../../../src/core/schemas/signing.ts';
import { RegistryIndex } from '../../../src/core/schemas/registry-index.ts';
import { fillName } from '../../../src/core/url-template.ts';
import { keyIdOf, verifySignedIndex } from '../../../src/core/signing.ts';
import { sha256Hex } from '../../../src/core/digest.ts';
import { FIXTURES, REPO } from '../rules/_harness.ts';

let work: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'skilldex-sign-'));
  await cp(join(FIXTURES, 'rules', 'cli-clean'), join(work, 'repo'), { recursive: true });
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

const skilldex = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [join(REPO, 'bin', 'skilldex.mjs'), ...args], { cwd: work, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', SOURCE_DATE_EPOCH: '1700000000', ...env }, timeout: 60_000 });

async function keygen(file: string): Promise<{ pem: string; publicKey: string }> {
  const run = skilldex(['keygen', '--out', file]);
  expect(run.status, run.stderr).toBe(0);
  const publicKey = /public key: +(ed25519:\S+)/.exec(run.stdout)![1]!;
  return { pem: await readFile(join(work, file), 'utf8'), publicKey };
}

const configure = (keys: { publicKey: string; status?: string }[]) => writeFile(join(work, 'repo', 'skilldex.config.json'), JSON.stringify({ title: 'Signed', signing: { keys } }, null, 2));
const build = (out: string, pem?: string) => skilldex(['build', '--root', 'repo', '--out', out], pem ? { SKILLDEX_SIGNING_KEY: pem } : {});
const signed = async (out: string) => SignedIndex.parse(JSON.parse(await readFile(join(work, out, 'index.jws.json'), 'utf8')));

describe('skilldex keygen', () => {
  it('writes a private key readable only by its owner, prints the public key and id, and never overwrites', async () => {
    const { publicKey, pem } = await keygen('k.pem');
    expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(publicKey).toMatch(/^ed25519:[A-Za-z0-9_-]{43}$/);
    const { stat } = await import('node:fs/promises');
    expect((await stat(join(work, 'k.pem'))).mode & 0o777).toBe(0o600);
    const again = skilldex(['keygen', '--out', 'k.pem']);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('k.pem already exists; it is not overwritten');
    expect(await readFile(join(work, 'k.pem'), 'utf8')).toBe(pem);
  });
});

describe('a signed build', () => {
  it('signs the exact bytes of index.json, which pin every manifest and the discovery indexes; deterministic', async () => {
    const key = await keygen('k.pem');
    await configure([{ publicKey: key.publicKey }]);
    expect(build('out', key.pem).status).toBe(0);
    const jws = await signed('out');
    const verified = await verifySignedIndex(jws, [key.publicKey]);
    expect(verified.ok).toBe(true);
    const indexBytes = await readFile(join(work, 'out', 'index.json'));
    expect(verified.ok && Buffer.from(verified.payload).equals(indexBytes)).toBe(true);

    const index = RegistryIndex.parse(JSON.parse(indexBytes.toString('utf8')));
    for (const entry of index.skills) {
      expect(entry.manifestDigest).toBe(`sha256:${await sha256Hex(new Uint8Array(await readFile(join(work, 'out', fillName(index.urls.manifest, entry.name)))))}`);
    }
    for (const [path, digest] of Object.entries(index.discovery ?? {})) {
      expect(digest).toBe(`sha256:${await sha256Hex(new Uint8Array(await readFile(join(work, 'out', path))))}`);
    }
    expect(Object.keys(index.discovery ?? {})).toEqual(['.well-known/agent-skills/index.json', '.well-known/skills/index.json']);

    const keys = KeysDocument.parse(JSON.parse(await readFile(join(work, 'out', 'keys.json'), 'utf8')));
    expect(keys.keys).toEqual([{ kid: await keyIdOf(key.publicKey), publicKey: key.publicKey, status: 'active' }]);

    expect(build('out2', key.pem).status).toBe(0);
    expect(await readFile(join(work, 'out2', 'index.jws.json'), 'utf8')).toBe(await readFile(join(work, 'out', 'index.jws.json'), 'utf8'));
  });

  it('a signature by another key, or over other bytes, does not verify', async () => {
    const key = await keygen('k.pem');
    const other = await keygen('other.pem');
    await configure([{ publicKey: key.publicKey }]);
    expect(build('out', key.pem).status).toBe(0);
    const jws = await signed('out');
    expect(await verifySignedIndex(jws, [other.publicKey])).toEqual({ ok: false, reason: expect.stringContaining('which is not trusted') });
    const tampered = { ...jws, payload: Buffer.from('{"skills":[]}').toString('base64url') };
    for (const engine of ['webcrypto', 'noble'] as const) {
      // noble is what browsers without WebCrypto Ed25519 use: same answers.
      expect((await verifySignedIndex(jws, [key.publicKey], { engine })).ok).toBe(true);
      expect(await verifySignedIndex(tampered, [key.publicKey], { engine })).toEqual({ ok: false, reason: expect.stringContaining('does not match the index') });
    }
  });

  it('rotates: old key, then old and new, then new only', async () => {
    const old = await keygen('old.pem');
    const next = await keygen('new.pem');
    await configure([{ publicKey: old.publicKey }]);
    expect(build('v1', old.pem).status).toBe(0);
    await configure([{ publicKey: old.publicKey }, { publicKey: next.publicKey }]);
    expect(build('v2', `${old.pem}\n${next.pem}`).status).toBe(0);
    await configure([{ publicKey: old.publicKey, status: 'retired' }, { publicKey: next.publicKey }]);
    expect(build('v3', next.pem).status).toBe(0);

    const trusts = async (out: string, key: string) => (await verifySignedIndex(await signed(out), [key])).ok;
    expect([await trusts('v1', old.publicKey), await trusts('v1', next.publicKey)]).toEqual([true, false]);
    expect([await trusts('v2', old.publicKey), await trusts('v2', next.publicKey)]).toEqual([true, true]);
    expect((await signed('v2')).signatures).toHaveLength(2);
    expect([await trusts('v3', old.publicKey), await trusts('v3', next.publicKey)]).toEqual([false, true]);
  });

  it('refuses a signing key that the config does not list as active, and an unreadable key', async () => {
    const key = await keygen('k.pem');
    const other = await keygen('other.pem');
    await configure([{ publicKey: key.publicKey }]);
    const unlisted = build('out', other.pem);
    expect(unlisted.status).toBe(1);
    expect(unlisted.stderr).toContain('is not listed in skilldex.config.json; add {"publicKey": "' + other.publicKey);
    await configure([{ publicKey: key.publicKey, status: 'revoked' }]);
    expect(build('out', key.pem).stderr).toContain('is revoked in skilldex.config.json');
    expect(build('out', 'not a key').stderr).toContain('SKILLDEX_SIGNING_KEY holds no "-----BEGIN PRIVATE KEY-----" block');
  });

  it('writes no signature without a key', async () => {
    expect(build('out').status).toBe(0);
    await expect(readFile(join(work, 'out', 'index.jws.json'))).rejects.toThrow();
  });
});
