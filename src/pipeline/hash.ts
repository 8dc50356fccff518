import { createHash } from 'node:crypto';
import { treeDigestText, type DigestedFile } from '../core/digest.ts';

/** Synchronous SHA-256 for the build's hot path; same results as core's WebCrypto version. */
export function sha256HexSync(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Tree digest (docs/registry-format.md#digests) computed synchronously. */
export function treeDigestSync(files: readonly DigestedFile[]): string {
  return `sha256:${sha256HexSync(treeDigestText(files))}`;
}
