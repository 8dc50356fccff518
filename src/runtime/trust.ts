import type { SignedIndex } from '../core/schemas/signing.ts';
import { SIGNED_INDEX_FILE, verifySignedIndex } from '../core/signing.ts';
import type { RegistryIndex } from '../core/schemas/registry-index.ts';
import { parseJsonDocument } from './json-document.ts';
import { RegistryError } from '../core/errors/registry-error.ts';
import type { RegistryTransport } from './transport.ts';


/**
 * Reads `index.jws.json` and returns the exact index.json bytes it signs, after checking that a
 * key in `trust` signed them. Nothing else of the registry is read first, so a host that was
 * taken over cannot get a single manifest or file used. The signed bytes are the index: the
 * unsigned index.json beside it is never consulted.
 *
 * @example
 * const { bytes, kid } = await readSignedIndex(transport, ['ed25519:…'], 64 << 20);
 */
export async function readSignedIndex(transport: RegistryTransport, trust: readonly string[], maxBytes: number): Promise<{ bytes: Uint8Array; kid: string }> {
  // base64url costs 4/3 of the bytes it encodes, plus the signatures.
  const raw = await readSigningFile(transport, SIGNED_INDEX_FILE, Math.ceil(maxBytes * 1.34) + 64 * 1024, {
    message: `${transport.root} publishes no signed index (${SIGNED_INDEX_FILE}), but a key is pinned for it`,
    hint: 'nothing was read from this registry; the host may have been changed. Ask its maintainers, or drop --trust to read it unverified',
  });
  const document = parseJsonDocument(raw, `${transport.root}: ${SIGNED_INDEX_FILE}`, 'SIGNATURE_INVALID');
  if (!isSignedIndex(document)) throw new RegistryError('SIGNATURE_INVALID', `${transport.root}: ${SIGNED_INDEX_FILE} is not a signed index`, { hint: 'nothing was read from this registry' });
  const verified = await verifySignedIndex(document, trust);
  if (!verified.ok) {
    throw new RegistryError('SIGNATURE_INVALID', `${transport.root}: the index is not signed by a trusted key: ${verified.reason}`, {
      hint: 'nothing was read from this registry. If its maintainers rotated keys, get the new key from them (not from the host) and pin it with --trust',
    });
  }
  return { bytes: verified.payload, kid: verified.kid };
}

const B64URL = /^[A-Za-z0-9_-]*$/;

/**
 * The `SignedIndex` shape (core/schemas/signing.ts), checked without zod so the browser bundle
 * stays small; the zod schema is the definition and the published JSON Schema.
 */
function isSignedIndex(value: unknown): value is SignedIndex {
  const v = value as Partial<SignedIndex> | null;
  return (
    typeof v === 'object' && v !== null && typeof v.payload === 'string' && B64URL.test(v.payload) &&
    Array.isArray(v.signatures) && v.signatures.length >= 1 && v.signatures.length <= 16 &&
    v.signatures.every((s) => typeof s === 'object' && s !== null && typeof s.protected === 'string' && s.protected.length <= 2048 && B64URL.test(s.protected) && typeof s.signature === 'string' && /^[A-Za-z0-9_-]{86}$/.test(s.signature))
  );
}

/**
 * A signed index older than one already seen is a rollback: an attacker replaying an old, validly
 * signed index to bring back a skill version that was fixed. Refused.
 */
export function checkRollback(index: RegistryIndex, lastSeen: string | undefined, root: string): void {
  // An index without a time after one with a time cannot be shown newer, so it is refused too.
  if (lastSeen !== undefined && (index.generatedAt === undefined || index.generatedAt < lastSeen)) {
    throw new RegistryError('INDEX_ROLLBACK', `${root}: the signed index was generated at ${index.generatedAt ?? 'an unknown time'}, before the one already seen (${lastSeen})`, {
      hint: 'nothing was read from this registry: an older index is being served (a stale mirror or a replay). Retry later, or ask its maintainers',
    });
  }
}

/**
 * Reads a file that signing relies on (`index.jws.json`, `keys.json`). A registry that does not
 * serve it is unsigned, which the caller states in `unsigned`; any other failure (too large,
 * redirected) passes through unchanged.
 */
export async function readSigningFile(transport: RegistryTransport, file: string, maxBytes: number, unsigned: { message: string; hint: string }): Promise<Uint8Array> {
  try {
    return await transport.read(file, { maxBytes });
  } catch (error) {
    if (!(error instanceof RegistryError) || error.code !== 'FETCH_FAILED') throw error;
    throw new RegistryError('INDEX_UNSIGNED', unsigned.message, { cause: error, hint: unsigned.hint });
  }
}
