import { z } from 'zod';
import { Sha256Digest } from './digest.ts';
import { RegistryKey } from './signing.ts';
import { RiskSeverity, RuleSeverity } from './diagnostic.ts';
import { ScanVerdict } from './scan.ts';
import { SkillMdFrontmatter } from './skill-md.ts';
import { isFolderBelowRoot } from '../paths.ts';
import { MAX_SKILL_BYTES, MAX_SKILL_FILES } from '../client-limits.ts';
import { siteUrlProblem } from '../site-url.ts';

/** The default `limits.maxFileBytes`: commands that read a skill's files outside a build (convert, migrate) read no more. */
export const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024;

// Every field carries `.describe()`, so schemas/config.schema.json gives editors the same text.
export const Limits = z
  .object({
    maxFileBytes: z.number().int().positive().default(DEFAULT_MAX_FILE_BYTES).describe('Largest single file in a skill, in bytes (`files/too-large`).'),
    maxSkillBytes: z.number().int().positive().max(MAX_SKILL_BYTES, `must be at most ${MAX_SKILL_BYTES} (256 MiB): no client reads more of one skill, so nothing larger could be installed`).default(20 * 1024 * 1024).describe('Largest skill, all files together, in bytes (`files/skill-too-large`); at most 268435456 (256 MiB), the most a client reads of one skill.'),
    maxFiles: z.number().int().positive().max(MAX_SKILL_FILES, `must be at most ${MAX_SKILL_FILES}: no client reads more files of one skill, so nothing larger could be installed`).default(100).describe('Most files in one skill (`files/too-many`); at most 10000, the most a client reads of one skill.'),
    maxFrontmatterBytes: z.number().int().positive().default(64 * 1024).describe('Largest YAML frontmatter block; larger blocks are not parsed (`frontmatter/too-large`).'),
    maxDepth: z.number().int().positive().default(32).describe('Deepest nesting of frontmatter or skill.json values (`frontmatter/too-deep`, `skill-json/too-deep`).'),
    maxAliases: z.number().int().nonnegative().default(100).describe('YAML alias expansions allowed; guards against billion-laughs documents (`frontmatter/alias-limit`).'),
    maxBodyLines: z.number().int().positive().default(500).describe('SKILL.md body lines before `body/too-long` warns (Agent Skills guidance: 500).'),
    maxBodyTokens: z.number().int().positive().default(5000).describe('Estimated model tokens in a SKILL.md body before `body/too-large` warns (Agent Skills guidance: under 5,000).'),
  })
  .describe('Size and shape limits every skill must stay within.');
export type Limits = z.infer<typeof Limits>;

/** One entry of `scan.allow`. */
export const ScanAllowance = z
  .object({
    skill: z.string().min(1).max(64).describe("The skill's name."),
    rule: z.string().regex(/^[a-z0-9-]+\/[a-z0-9-]+$/).describe('The scanner rule id, e.g. `exec/download-pipe-shell`.'),
    file: z.string().min(1).max(1024).describe('The file inside the skill, `/`-separated, as the finding names it.'),
    digest: Sha256Digest.describe("The file's digest when it was reviewed (its `digest` in the manifest's `files`); the entry lapses when the file changes."),
    reason: z.string().min(1).max(500).describe('Why the finding is acceptable; shown with the finding.'),
  })
  .strict()
  .describe('A scan finding the maintainers reviewed and accept, for one skill, rule and file digest.');
export type ScanAllowance = z.infer<typeof ScanAllowance>;


/**
 * `skilldex.config.json` at the registry root. Every field is optional; the defaults are what a
 * public registry accepting pull requests wants.
 */
export const RegistryConfig = z
  .object({
    $schema: z.string().optional().describe('Path or URL of this schema, for editors.'),
    title: z.string().default('Skilldex').describe('Shown in the site header and the index.'),
    siteUrl: z
      .string()
      .refine((url) => siteUrlProblem(url) === undefined, { message: 'must be the absolute http(s) URL the site is served at, e.g. https://skills.example.org/ (no query, fragment or credentials)' })
      .optional()
      .describe('Public URL of the deployed site, e.g. `https://skills.example.org/`. Used for absolute links: feed, sitemap, canonical URLs, install commands.'),
    repository: z
      .object({
        url: z.string().describe('Web URL of the repository, e.g. `https://github.com/acme/skills`.'),
        branch: z.string().default('main').describe('The branch the site is built from.'),
      })
      .optional()
      .describe('Source repository, for "source" and "edit this skill" links.'),
    skillsDir: z
      .string()
      .min(1)
      .max(200)
      .refine(isFolderBelowRoot, {
        message: 'must be a relative folder below the registry root (letters, digits, `.`, `_`, `-`, `/`; no `..`)',
      })
      .default('skills')
      .describe('Folder holding the skills, relative to this file; never outside the repository.'),
    rules: z.record(z.string(), RuleSeverity).default({}).describe('Per-rule severity overrides, ESLint style: `{"frontmatter/unknown-field": "error"}`. See docs/rules.md.'),
    requiredPackageFields: z
      .array(z.enum(Object.keys(SkillMdFrontmatter.shape) as [string, ...string[]]))
      .default([])
      .describe('Frontmatter fields every package skill must have (`package/required-field`), such as `version` or `license`; none by default.'),
    limits: Limits.default(Limits.parse({})),
    scan: z
      .object({
        rules: z.record(z.string(), z.union([RiskSeverity, z.literal('off')])).default({}).describe('Per-rule severity overrides for the security scanner; `off` silences a rule. See docs/security.md.'),
        blockOn: ScanVerdict.default('fail').describe('The verdict at which a skill is not published (`security/blocked`).'),
        allow: z
          .array(ScanAllowance)
          .default([])
          .describe('Findings the maintainers reviewed and accept. Each entry holds the file digest, so it lapses when the file changes; the finding stays listed at `info` with the reason.'),
      })
      .default({ rules: {}, blockOn: 'fail', allow: [] })
      .describe('The security scanner: severities, the publishing gate and reviewed exceptions.'),
    withdrawn: z
      .record(z.string().min(1).max(64), z.array(z.string().min(1).max(256)).max(1000))
      .default({})
      .describe(
        'Earlier versions the registry no longer publishes, by skill name: `{"pdf-tools": ["1.0.0", "1.1.0"]}`. Their manifests, files and archives are left out and the versions document does not list them; git history is not changed. The current version cannot be withdrawn: bump the skill, or remove it.',
      ),
    signing: z
      .object({ keys: z.array(RegistryKey).default([]).describe('Public keys, `ed25519:<base64url>`, with their status.') })
      .default({ keys: [] })
      .describe('The keys that sign index.json (public halves only; the private key comes from the SKILLDEX_SIGNING_KEY secret). Published as keys.json. See docs/security.md#the-chain-of-trust.'),
  })
  // A misspelt key (`"titel"`) would otherwise be dropped without a word, its setting never applied.
  .strict()
  .meta({ id: 'RegistryConfig', title: 'skilldex.config.json' });
export type RegistryConfig = z.infer<typeof RegistryConfig>;
