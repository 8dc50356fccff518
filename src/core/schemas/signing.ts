import { z } from 'zod';
import { PUBLIC_KEY_PATTERN } from '../public-key.ts';

/**
 * A registry public key in its one-line form: `ed25519:` and the 32-byte key in base64url (43
 * characters), the way it is pinned with `--trust` and listed in `skilldex.config.json`.
 */
export const PublicKeyText = z.string().regex(PUBLIC_KEY_PATTERN, 'must be ed25519: followed by 43 base64url characters');

/** Key id: the RFC 7638 JWK thumbprint (SHA-256, base64url) of the public key. */
export const KeyId = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

export const KeyStatus = z.enum(['active', 'retired', 'revoked']);

/** One entry of the keys document and of `signing.keys` in the config. */
export const RegistryKey = z
  .object({
    /** The public key, `ed25519:<base64url>`. */
    publicKey: PublicKeyText,
    /**
     * `active`: the build signs with it. `retired`: no longer used to sign; clients that pin it
     * should move to an active key. `revoked`: compromised or lost; clients must stop trusting it.
     */
    status: KeyStatus.default('active'),
    /** Free text for people: who holds it, since when. */
    note: z.string().max(200).optional(),
  })
  .strict()
  .meta({ id: 'RegistryKey' });
export type RegistryKey = z.infer<typeof RegistryKey>;

/** `keys.json` beside `index.json`: the registry's keys, with their ids and status. */
export const KeysDocument = z
  .object({
    keys: z.array(RegistryKey.extend({ kid: KeyId })),
  })
  .meta({ id: 'KeysDocument', title: 'Skilldex registry keys (keys.json)' });
export type KeysDocument = z.infer<typeof KeysDocument>;

/**
 * `index.jws.json`: `index.json`'s exact bytes, signed. JWS JSON General Serialization (RFC 7515
 * section 7.2.1) with one EdDSA signature per signing key, so old and new keys can both sign while a
 * key is rotated. The payload is the base64url of the same bytes served as `index.json`.
 */
export const SignedIndex = z
  .object({
    payload: z.string().regex(/^[A-Za-z0-9_-]*$/),
    signatures: z
      .array(z.object({ protected: z.string().regex(/^[A-Za-z0-9_-]+$/).max(2048), signature: z.string().regex(/^[A-Za-z0-9_-]{86}$/) }).strict())
      .min(1)
      .max(16),
  })
  .meta({ id: 'SignedIndex', title: 'Skilldex signed registry index (index.jws.json)' });
export type SignedIndex = z.infer<typeof SignedIndex>;
