import { z } from 'zod';
import { SHA256_DIGEST } from '../digest.ts';
import { Sha256Digest } from './digest.ts';
import { ScanVerdict } from './scan.ts';
import { SkillFormat, SkillMode, SkillName } from './manifest.ts';
import { Triggers } from './skill-md.ts';
import { isNameTemplate, NAME_PLACEHOLDER } from '../url-template.ts';

/**
 * `index.json`: a superset of the common skills index shape (docs/registry-format.md). Clients check `version`'s major before
 * reading further; a new major means an incompatible shape.
 *
 * The index holds what search and selection need and what pins each manifest; everything else
 * (file lists, per-file URLs, scan findings) is in the manifest, which a client fetches before it
 * uses a skill anyway. Format history is in docs/registry-format.md#format-versions.
 */
export const INDEX_FORMAT_VERSION = '2.2.0';

export const IndexEntry = z
  .object({
    // the common skills index fields
    name: SkillName,
    title: z.string(),
    description: z.string(),
    version: z.string(),
    tags: z.array(z.string()),
    author: z.string().optional(),
    /** `skill:<name>:<script>` per script. */
    tools: z.array(z.string()),
    scriptCount: z.number().int().nonnegative(),
    /** URL path of the skill's raw files (relative to the registry root), never a machine path. */
    path: z.string(),
    hasSkillMd: z.boolean(),
    /** ISO 8601; absent when the build knew no time for the skill (no git history, no SOURCE_DATE_EPOCH). */
    lastModified: z.string().optional(),
    // Skilldex additions
    format: SkillFormat,
    mode: SkillMode,
    type: z.string().optional(),
    category: z.string().optional(),
    keywords: z.array(z.string()),
    license: z.string().optional(),
    /** The skill's `triggers`, so `match()` ranks a message without fetching manifests. */
    triggers: Triggers.optional(),
    /** The security scan's verdict, when the skill was scanned; the findings are in the manifest. */
    verdict: ScanVerdict.optional(),
    /** The tree digest over the skill's files: what a version check compares without fetching anything. */
    digest: Sha256Digest,
    /** Digest of the exact bytes of the skill's manifest: a signed index covers it, and through it every file. */
    manifestDigest: Sha256Digest,
  })
  .meta({ id: 'IndexEntry' });
export type IndexEntry = z.infer<typeof IndexEntry>;

const UrlTemplate = z.string().refine(isNameTemplate, `must contain ${NAME_PLACEHOLDER} exactly once`);

export const RegistryIndex = z
  .object({
    $schema: z.string().optional(),
    /** Index format version (semver); clients refuse an unknown major. */
    version: z.string(),
    registry: z.object({ title: z.string(), url: z.string().optional() }),
    /**
     * Where each skill's documents are, relative to the registry root: `{name}` is replaced by the
     * skill's name (which the name grammar keeps to letters, digits, `-` and `_`).
     */
    urls: z.object({
      /** The skill's manifest, e.g. `skills/{name}.json`. */
      manifest: UrlTemplate,
      /** The skill's catalog page, e.g. `skills/{name}/`. */
      page: UrlTemplate,
    }),
    skills: z.array(IndexEntry),
    totalSkills: z.number().int().nonnegative(),
    totalTools: z.number().int().nonnegative(),
    /** SOURCE_DATE_EPOCH, else the newest skill's time; absent when no time is known. Never the wall clock. */
    generatedAt: z.string().optional(),
    /** The newest skill's `lastModified`; absent when no time is known. */
    updatedAt: z.string().optional(),
    /** Digests of the discovery indexes' exact bytes, by path, so a signed index covers them too. */
    discovery: z.record(z.string(), Sha256Digest).optional(),
  })
  .meta({ id: 'RegistryIndex', title: 'Skilldex registry index (index.json)' });
export type RegistryIndex = z.infer<typeof RegistryIndex>;

/** `/.well-known/agent-skills/index.json`, the discovery 0.2.0 form the `skills` CLI reads. */
export const DISCOVERY_SCHEMA_URL = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
export const DiscoveryIndexV2 = z
  .object({
    $schema: z.literal(DISCOVERY_SCHEMA_URL),
    skills: z.array(
      z.object({
        name: z.string(),
        type: z.enum(['skill-md', 'archive']),
        description: z.string(),
        /** Resolved against the index URL. */
        url: z.string(),
        /** `sha256:<hex>` of the bytes at `url`. */
        digest: z.string().regex(SHA256_DIGEST),
      }),
    ),
  })
  .meta({ id: 'DiscoveryIndexV2' });
export type DiscoveryIndexV2 = z.infer<typeof DiscoveryIndexV2>;

/** `/.well-known/skills/index.json`, the older 0.1.0 form: files fetched from `{name}/{file}` beside it. */
export const DiscoveryIndexV1 = z
  .object({
    skills: z.array(z.object({ name: z.string(), description: z.string(), files: z.array(z.string()).min(1) })),
  })
  .meta({ id: 'DiscoveryIndexV1' });
export type DiscoveryIndexV1 = z.infer<typeof DiscoveryIndexV1>;
