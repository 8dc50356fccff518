/**
 * Signing the registry index at build time. The private key never comes from the repository:
 * only from `SKILLDEX_SIGNING_KEY` (PKCS #8 PEM, one or more keys) or the file named by
 * `SKILLDEX_SIGNING_KEY_FILE`, which CI fills from a secret on the default branch only.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { RegistryKey } from '../../core/schemas/signing.ts';
import type { SignedIndex } from '../../core/schemas/signing.ts';
import { keyIdOf, SIGNED_INDEX_TYPE } from '../../core/signing.ts';
import { ConfigError } from '../config-error.ts';

export interface SigningKey {
  kid: string;
  /** `ed25519:<base64url>`. */
  publicKey: string;
  privateKey: KeyObject;
}

const PEM_BLOCK = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/g;

/** The public half of a private key, in the one-line `ed25519:<x>` form. */
function publicKeyText(privateKey: KeyObject): string {
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return `ed25519:${jwk.x}`;
}

/** Parses one or more PKCS #8 PEM blocks holding Ed25519 private keys. */
export async function parseSigningKeys(pem: string, source: string): Promise<SigningKey[]> {
  const blocks = pem.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) throw new ConfigError(`${source} holds no "-----BEGIN PRIVATE KEY-----" block; generate a key with 'skilldex keygen'`);
  return Promise.all(
    blocks.map(async (block) => {
      let privateKey: KeyObject;
      try {
        privateKey = createPrivateKey({ key: block, format: 'pem' });
      } catch {
        throw new ConfigError(`${source}: a private key block cannot be read; generate a key with 'skilldex keygen'`);
      }
      if (privateKey.asymmetricKeyType !== 'ed25519') throw new ConfigError(`${source}: the key is ${privateKey.asymmetricKeyType}, not Ed25519`);
      const publicKey = publicKeyText(privateKey);
      return { kid: await keyIdOf(publicKey), publicKey, privateKey };
    }),
  );
}

/** Signing keys from the environment, or none. */
export async function signingKeysFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<SigningKey[]> {
  if (env.SKILLDEX_SIGNING_KEY) return parseSigningKeys(env.SKILLDEX_SIGNING_KEY, 'SKILLDEX_SIGNING_KEY');
  if (env.SKILLDEX_SIGNING_KEY_FILE) {
    const text = await readFile(env.SKILLDEX_SIGNING_KEY_FILE, 'utf8').catch(() => {
      throw new ConfigError(`SKILLDEX_SIGNING_KEY_FILE names ${env.SKILLDEX_SIGNING_KEY_FILE}, which cannot be read`, {
        hint: "point it at the PEM file 'skilldex keygen' wrote, or unset it to build an unsigned index",
      });
    });
    return parseSigningKeys(text, env.SKILLDEX_SIGNING_KEY_FILE);
  }
  return [];
}

/**
 * Every signing key must be one the registry publishes as active: a key the maintainers did not
 * list would sign an index that no client pinning the listed keys accepts.
 */
export function checkSigningKeys(keys: readonly SigningKey[], listed: readonly RegistryKey[]): void {
  for (const key of keys) {
    const entry = listed.find((k) => k.publicKey === key.publicKey);
    if (!entry) throw new ConfigError(`the signing key ${key.kid} is not listed in skilldex.config.json; add {"publicKey": "${key.publicKey}"} to signing.keys`);
    if (entry.status !== 'active') throw new ConfigError(`the signing key ${key.kid} is ${entry.status} in skilldex.config.json; sign with an active key`);
  }
}

/**
 * Signs the exact bytes of `index.json`, once per key. Ed25519 signatures are deterministic, so
 * the same index and keys give byte-identical output.
 */
export async function signIndex(indexBytes: Uint8Array, keys: readonly SigningKey[]): Promise<SignedIndex> {
  // Loaded here, not at the top: every build loads this module, few sign (jose is ~45 modules).
  const { GeneralSign } = await import('jose');
  const sign = new GeneralSign(indexBytes);
  for (const key of [...keys].sort((a, b) => (a.kid < b.kid ? -1 : 1))) {
    sign.addSignature(key.privateKey).setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: SIGNED_INDEX_TYPE });
  }
  const jws = await sign.sign();
  return { payload: jws.payload, signatures: jws.signatures.map((s) => ({ protected: s.protected as string, signature: s.signature })) };
}

/** A new Ed25519 key pair: the private key as PKCS #8 PEM, the public key as `ed25519:<x>`. */
export async function generateSigningKey(): Promise<{ privateKeyPem: string; publicKey: string; kid: string }> {
  const { privateKey } = generateKeyPairSync('ed25519');
  const publicKey = publicKeyText(privateKey);
  return { privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }) as string, publicKey, kid: await keyIdOf(publicKey) };
}
