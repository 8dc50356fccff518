/**
 * A public key in its one-line form: `ed25519:` and the 32-byte key in base64url (43 characters).
 * Zod-free and on its own, so the signing code, its schema, the trust store and the CLI share it
 * without importing each other.
 */
export const PUBLIC_KEY_PATTERN = /^ed25519:[A-Za-z0-9_-]{43}$/;
