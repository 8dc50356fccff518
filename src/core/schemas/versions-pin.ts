import { z } from 'zod';
import { Sha256Digest } from './digest.ts';

/** Where a skill's versions document is and what its bytes are: part of the current manifest. */
export const VersionsPin = z
  .object({
    /** Path of the versions document, relative to the registry root (`skills/<name>.versions.json`). */
    url: z.string(),
    /** Its size in bytes: a client reads no more. */
    size: z.number().int().nonnegative(),
    /** `sha256:<hex>` of its exact bytes. */
    digest: Sha256Digest,
  })
  .meta({ id: 'VersionsPin' });
export type VersionsPin = z.infer<typeof VersionsPin>;
