/**
 * Verifying a signed registry index: browser-safe (WebCrypto, no `node:`), shared by the Node
 * client, the browser runtime and the MCP server. The signature is a JWS (RFC 7515) with EdDSA
 * over Ed25519 (RFC 8037), written at build time by `jose`. Checking one is small enough to do
 * here: the header's fields are checked, then the signing input `protected.payload` is verified
 * with WebCrypto's Ed25519 where it exists (Node ≥ 22, current browsers) and with
 * `@noble/ed25519`, an audited 5 KB implementation, elsewhere. (jose itself would add 10 kB
 * gzipped to the browser bundle for the same check.)
 */
import { verifyAsync } from '@noble/ed25519';
import type { SignedIndex } from './schemas/signing.ts';

/** The `typ` of the protected header: a signature over an index, never over anything else. */
export const SIGNED_INDEX_TYPE = 'skilldex-index+jws';
/** Where a registry publishes `index.json`'s signed bytes, and its keys: beside index.json. */
export const SIGNED_INDEX_FILE = 'index.jws.json';
export const KEYS_FILE = 'keys.json';

const encoder = new TextEncoder();

function base64urlDecode(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

function base64urlEncode(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The `x` of an `ed25519:<x>` public key. */
const keyX = (publicKey: string): string => publicKey.slice('ed25519:'.length);

/**
 * The key id: the RFC 7638 thumbprint of the key as a JWK, so the same key has the same id
 * everywhere, with nothing to configure.
 *
 * @example await keyIdOf('ed25519:11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo') // 43 base64url characters
 */
export async function keyIdOf(publicKey: string): Promise<string> {
  const canonical = `{"crv":"Ed25519","kty":"OKP","x":"${keyX(publicKey)}"}`;
  return base64urlEncode(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(canonical))));
}

export type IndexVerification =
  | { ok: true; kid: string; payload: Uint8Array }
  | { ok: false; reason: string };

/**
 * Checks that at least one signature of `signed` is a valid EdDSA signature by one of the
 * `trusted` keys (`ed25519:<x>`), and returns the signed bytes. A signature by a key that is not
 * trusted counts for nothing, whatever the host's keys document says.
 *
 * @example
 * const v = await verifySignedIndex(signed, ['ed25519:…']);
 * if (v.ok) JSON.parse(new TextDecoder().decode(v.payload));
 */
export async function verifySignedIndex(signed: SignedIndex, trusted: readonly string[], options: { engine?: VerifyEngine } = {}): Promise<IndexVerification> {
  const byKid = new Map(await Promise.all(trusted.map(async (k) => [await keyIdOf(k), keyX(k)] as const)));
  const reasons: string[] = [];
  for (const sig of signed.signatures) {
    let header: { alg?: unknown; kid?: unknown; typ?: unknown; crit?: unknown };
    try {
      header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64urlDecode(sig.protected))) as typeof header;
    } catch {
      reasons.push('a signature has an unreadable header');
      continue;
    }
    if (header.alg !== 'EdDSA' || header.typ !== SIGNED_INDEX_TYPE || header.crit !== undefined || typeof header.kid !== 'string') {
      reasons.push(`a signature is not an EdDSA index signature (alg ${String(header.alg)}, typ ${String(header.typ)})`);
      continue;
    }
    const x = byKid.get(header.kid);
    if (x === undefined) {
      reasons.push(`signed by key ${header.kid}, which is not trusted`);
      continue;
    }
    if (await verifyOne(sig.protected, signed.payload, sig.signature, x, options.engine ?? 'auto')) return { ok: true, kid: header.kid, payload: base64urlDecode(signed.payload) };
    reasons.push(`the signature by trusted key ${header.kid} does not match the index`);
  }
  return { ok: false, reason: reasons.join('; ') || 'no signature' };
}

/** `auto`: jose over WebCrypto where it has Ed25519, else noble. The others force one (for tests). */
export type VerifyEngine = 'auto' | 'webcrypto' | 'noble';

async function verifyOne(protectedHeader: string, payload: string, signature: string, x: string, engine: VerifyEngine): Promise<boolean> {
  const input = encoder.encode(`${protectedHeader}.${payload}`);
  const sig = base64urlDecode(signature);
  const publicKey = base64urlDecode(x);
  const noble = () => verifyAsync(sig, input, publicKey).catch(() => false);
  if (engine === 'noble') return noble();
  let key: CryptoKey;
  try {
    key = await crypto.subtle.importKey('raw', publicKey as Uint8Array<ArrayBuffer>, { name: 'Ed25519' }, false, ['verify']);
  } catch (error) {
    if (engine === 'webcrypto') throw error;
    // No Ed25519 in this WebCrypto.
    return noble();
  }
  return crypto.subtle.verify({ name: 'Ed25519' }, key, sig as Uint8Array<ArrayBuffer>, input as Uint8Array<ArrayBuffer>).catch(() => false);
}
