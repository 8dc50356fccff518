import { z } from 'zod';
import { SHA256_DIGEST } from '../digest.ts';

/** A file's or a tree's SHA-256, as published: `sha256:` and 64 lowercase hex digits. */
export const Sha256Digest = z.string().regex(SHA256_DIGEST, 'must be sha256: followed by 64 lowercase hex digits');
