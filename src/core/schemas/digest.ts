import { z } from 'zod';

/** A file's or a tree's SHA-256, as published: `sha256:` and 64 lowercase hex digits. */
export const Sha256Digest = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be sha256: followed by 64 lowercase hex digits');
