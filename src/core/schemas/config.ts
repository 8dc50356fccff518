import { z } from 'zod';
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
});
export type Limits = z.infer<typeof Limits>;

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
    skillsDir: z.string().default('skills'),
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
      })
      .default({ rules: {}, blockOn: 'fail' }),
  })
  .meta({ id: 'RegistryConfig', title: 'skilldex.config.json' });
export type RegistryConfig = z.infer<typeof RegistryConfig>;
export type RegistryConfigInput = z.input<typeof RegistryConfig>;
