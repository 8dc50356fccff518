import { hash } from 'node:crypto';
import { treeDigestText, type DigestedFile } from '../core/digest.ts';

/**
 * Synchronous SHA-256 for the build's hot path; same results as core's WebCrypto version. The
 * one-shot `crypto.hash` is four times faster than a `createHash` object on small inputs
 * (10,000 digests of 600 bytes: 39 ms against 159 ms), and a build takes one per file and document.
 */
export function sha256HexSync(data: Uint8Array | string): string {
  return hash('sha256', data, 'hex');
}

/** Tree digest (docs/registry-format.md#digests) computed synchronously. */
export function treeDigestSync(files: readonly DigestedFile[]): string {
  return `sha256:${sha256HexSync(treeDigestText(files))}`;
}
