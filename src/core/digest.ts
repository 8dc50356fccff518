/**
 * Digests, computed the way the discovery RFC draft describes (docs/registry-format.md#digests), so a client can
 * verify a skill file by file and as a whole. Browser-safe: WebCrypto only.
 */

export interface DigestedFile {
  /** Path inside the skill, `/`-separated. */
  path: string;
  /** Hex SHA-256 of the raw bytes (no `sha256:` prefix). */
  hex: string;
}

/** A published digest: `sha256:` and 64 lowercase hex digits (the zod `Sha256Digest`, and the browser runtime's check, use this). */
export const SHA256_DIGEST = /^sha256:[0-9a-f]{64}$/;

const encoder = new TextEncoder();

/**
 * Compares two strings by their UTF-8 bytes, the order the tree digest is defined in. Below the
 * surrogates (U+D800) UTF-16 code units sort as UTF-8 bytes do, so only strings that differ at a
 * surrogate or above are encoded: encoding both paths of every comparison was a fortieth of a
 * `validate --no-scan`.
 */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const shorter = Math.min(a.length, b.length);
  let i = 0;
  while (i < shorter && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  const x0 = i < a.length ? a.charCodeAt(i) : -1;
  const y0 = i < b.length ? b.charCodeAt(i) : -1;
  // One is a prefix of the other (a common prefix ending in half a surrogate pair aside), or both differ below the surrogates.
  if ((x0 === -1 || y0 === -1) && !isSurrogate(a.charCodeAt(i - 1))) return x0 - y0;
  if (x0 !== -1 && y0 !== -1 && x0 < 0xd800 && y0 < 0xd800) return x0 - y0;
  return utf8Order(a, b);
}

const isSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdfff;

function utf8Order(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  }
  return x.length - y.length;
}

/**
 * The exact text the tree digest hashes: one `{path}\0{hex}\n` line per file, sorted by path in
 * byte order.
 *
 * @example
 * treeDigestText([{ path: 'SKILL.md', hex: 'ab…' }]) // 'SKILL.md\0ab…\n'
 */
export function treeDigestText(files: readonly DigestedFile[]): string {
  return [...files]
    .sort((a, b) => compareBytes(a.path, b.path))
    .map((f) => `${f.path}\0${f.hex}\n`)
    .join('');
}

/** Hex SHA-256 of bytes or of a string's UTF-8 encoding. */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  const hash = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return toHex(new Uint8Array(hash));
}

/**
 * The skill's tree digest, `sha256:<hex>`.
 *
 * @example
 * await treeDigest([{ path: 'SKILL.md', hex: await sha256Hex('# Hello\n') }, …])
 */
export async function treeDigest(files: readonly DigestedFile[]): Promise<string> {
  return `sha256:${await sha256Hex(treeDigestText(files))}`;
}

/** The 16-hex-character prefix that content-addresses a skill's published files. */
export function digestPrefix(digest: string): string {
  return digest.replace(/^sha256:/, '').slice(0, 16);
}

function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}
