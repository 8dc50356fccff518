import { z } from 'zod';
import { Sha256Digest } from './digest.ts';
import { RuleSeverity } from './diagnostic.ts';
import { FindingSeverity, ScanVerdict } from './scan.ts';

/**
 * `skilldex.config.json` at the registry root. Every field is optional; the defaults are what a
 * public registry accepting pull requests wants.
 */
export const Limits = z.object({
  /** Largest single file in a skill. */
  maxFileBytes: z.number().int().positive().default(5 * 1024 * 1024),
  /** Largest skill, all files together. */
  maxSkillBytes: z.number().int().positive().default(20 * 1024 * 1024),
  /** Most files in one skill. */
  maxFiles: z.number().int().positive().default(100),
  /** Largest YAML frontmatter block, parsed only below this size. */
  maxFrontmatterBytes: z.number().int().positive().default(64 * 1024),
  /** Deepest nesting of frontmatter or skill.json values. */
  maxDepth: z.number().int().positive().default(32),
  /** YAML alias expansions allowed (guards against billion-laughs documents). */
  maxAliases: z.number().int().nonnegative().default(100),
  /** SKILL.md body lines before `body/too-long` warns (spec guidance: 500). */
  maxBodyLines: z.number().int().positive().default(500),
  /** Estimated model tokens in a SKILL.md body before `body/too-large` warns (Agent Skills guidance: under 5,000). */
  maxBodyTokens: z.number().int().positive().default(5000),
});
export type Limits = z.infer<typeof Limits>;

/** One entry of `scan.allow`. */
export const ScanAllowance = z
  .object({
    /** The skill's name. */
    skill: z.string().min(1).max(64),
    /** The scanner rule id, e.g. `exec/download-pipe-shell`. */
    rule: z.string().regex(/^[a-z0-9-]+\/[a-z0-9-]+$/),
    /** The file inside the skill, `/`-separated, as the finding names it. */
    file: z.string().min(1).max(1024),
    /** The file's digest when it was reviewed (`skilldex scan --format json` lists it in the manifest's `files`). */
    digest: Sha256Digest,
    /** Why the finding is acceptable; shown with the finding. */
    reason: z.string().min(1).max(500),
  })
  .strict();
export type ScanAllowance = z.infer<typeof ScanAllowance>;

export const RegistryConfig = z
  .object({
    $schema: z.string().optional(),
    /** Shown in the site header and the index. */
    title: z.string().default('Skilldex'),
    /** Public URL of the deployed site, e.g. `https://skills.example.org/`. Used for absolute links. */
    siteUrl: z.string().optional(),
    /** Source repository, for "source" and "edit this skill" links. */
    repository: z
      .object({ url: z.string(), branch: z.string().default('main') })
      .optional(),
    /** Folder holding the skills, relative to the config file. */
    // A pull request that points this at `..` or `/etc` would publish files from outside the
    // repository; only a plain relative path below the root is accepted.
    skillsDir: z
      .string()
      .min(1)
      .max(200)
      .refine((p) => /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*\/?$/.test(p) && !p.split('/').some((s) => s === '.' || s === '..'), {
        message: 'must be a relative folder below the registry root (letters, digits, `.`, `_`, `-`, `/`; no `..`)',
      })
      .default('skills'),
    /** Per-rule severity overrides, ESLint style: `{"frontmatter/unknown-field": "error"}`. */
    rules: z.record(z.string(), RuleSeverity).default({}),
    /** Extended-package fields that must be present (the package format lists many as required; the default asks for none). */
    requiredPackageFields: z.array(z.string()).default([]),
    limits: Limits.default(Limits.parse({})),
    scan: z
      .object({
        /** Per-rule severity overrides for the security scanner. */
        rules: z.record(z.string(), z.union([FindingSeverity, z.literal('off')])).default({}),
        /** The worst verdict a skill may have and still be published. */
        blockOn: ScanVerdict.default('fail'),
        /**
         * Findings the maintainers reviewed and accept, each for one skill, rule and file. The entry
         * holds the file's digest, so it lapses as soon as the file changes; the finding stays
         * listed at `info` with the reason.
         */
        allow: z.array(ScanAllowance).default([]),
      })
      .default({ rules: {}, blockOn: 'fail', allow: [] }),
  })
  .meta({ id: 'RegistryConfig', title: 'skilldex.config.json' });
export type RegistryConfig = z.infer<typeof RegistryConfig>;
export type RegistryConfigInput = z.input<typeof RegistryConfig>;
