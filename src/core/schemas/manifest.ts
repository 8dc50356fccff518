import { z } from 'zod';
import { MAX_RETRY, MAX_TIMEOUT_MS } from './run-limits.ts';
import { PUBLISHED_NAME } from '../names.ts';
import { pathProblem, repeatedPath } from '../paths.ts';
import { SHA256_DIGEST } from '../digest.ts';
import { ValidatorDiagnostic } from './diagnostic.ts';
import { ScanResult } from './scan.ts';
import { Abp, Resources, SecurityPolicy, Triggers } from './skill-md.ts';
import { PipelineStep } from './skill-json.ts';
import { VersionsPin } from './versions-pin.ts';

/**
 * The one internal shape every skill is normalised into, whatever its source format. The build
 * publishes it as `skills/<name>.json`, so a client can run a skill without parsing Markdown.
 */

/** Where a skill came from. */
export const SkillFormat = z.enum(['skill-md', 'package', 'skill-json']).meta({
  description: '`skill-md`: plain Agent Skills SKILL.md; `package`: SKILL.md with extended frontmatter (docs/extended-package.md); `skill-json`: typed function (docs/skill-json.md).',
});
export type SkillFormat = z.infer<typeof SkillFormat>;

/**
 * How a skill runs: `instructions` (read by the agent, nothing to execute), `code` (an entry
 * program), `llm` (prompt.md against a chat model), `composite` (a pipeline of other skills).
 */
export const SkillMode = z.enum(['instructions', 'code', 'llm', 'composite']);
export type SkillMode = z.infer<typeof SkillMode>;

/** How a code entry is driven: a stdin/stdout protocol script (docs/script-protocol.md), or a module exporting `execute`. */
export const EntryRunner = z.enum(['protocol', 'module']);
export type EntryRunner = z.infer<typeof EntryRunner>;

export const EntryLanguage = z.enum(['python', 'shell', 'javascript', 'typescript']);
export type EntryLanguage = z.infer<typeof EntryLanguage>;

export const SkillEntry = z.object({
  /** Path inside the skill folder. */
  path: z.string(),
  runner: EntryRunner,
  language: EntryLanguage,
});
export type SkillEntry = z.infer<typeof SkillEntry>;

export const SkillFile = z.object({
  /** Path inside the skill folder, `/`-separated, following the discovery RFC path rules. */
  path: z
    .string()
    .regex(/^[\x20-\x7e]+$/)
    .superRefine((path, ctx) => {
      const problem = pathProblem(path);
      if (problem) ctx.addIssue({ code: 'custom', message: `'${path}' ${problem}` });
    }),
  size: z.number().int().nonnegative(),
  /** `sha256:<hex>` of the raw bytes. */
  digest: z.string().regex(SHA256_DIGEST),
});
export type SkillFile = z.infer<typeof SkillFile>;

/**
 * A skill name as published: 1–64 letters, digits, `-` and `_`, starting with a letter or digit.
 * Clients use names as folder names, so a registry publishing any other name is refused outright.
 */
export const SkillName = z.string().regex(PUBLISHED_NAME, 'must be 1–64 letters, digits, - or _, starting with a letter or digit');
export type SkillName = z.infer<typeof SkillName>;

/**
 * How one skill refers to another: `calls` (skill.json `calls`, any mode), `pipeline-step` (a
 * composite pipeline step runs it), `dependency` (a SKILL.md `requires`, `dependencies` or
 * `depends_on` field, top-level or under `metadata`), `tool-id` (its `skill:<name>:<tool>` id in
 * the other skill's Markdown) or `link` (a relative Markdown link to its folder or one of its files).
 */
export const ReferenceKind = z.enum(['calls', 'pipeline-step', 'dependency', 'tool-id', 'link']);
export type ReferenceKind = z.infer<typeof ReferenceKind>;

/** A skill that refers to this one, and every way it does, in {@link ReferenceKind} order. */
export const SkillUser = z.object({
  name: SkillName,
  kinds: z.array(ReferenceKind),
});
export type SkillUser = z.infer<typeof SkillUser>;

export const SkillAction = z.object({ name: z.string(), description: z.string().optional() });
export type SkillAction = z.infer<typeof SkillAction>;

/** URL paths, relative to the registry root (no leading slash), so a registry can live under any base. */
export const SkillUrls = z.object({
  /** The catalog page. */
  page: z.string(),
  /** This manifest. */
  manifest: z.string(),
  /** Prefix of the raw files: `files + path`. Content-addressed, so it never changes under one URL. */
  files: z.string(),
  /** Deterministic `.tar.gz` of every file. Content-addressed. */
  archive: z.string(),
});
export type SkillUrls = z.infer<typeof SkillUrls>;

export const SkillManifest = z
  .object({
    name: SkillName,
    /** Human title: displayName, the first heading, or the name in Title Case. */
    title: z.string(),
    description: z.string(),
    version: z.string(),
    format: SkillFormat,
    mode: SkillMode,
    /** The extended package's `type` (direct/service/…), when the source declared one. */
    type: z.string().optional(),
    category: z.string().optional(),
    tags: z.array(z.string()),
    keywords: z.array(z.string()),
    author: z.string().optional(),
    license: z.string().optional(),
    compatibility: z.string().optional(),
    allowedTools: z.array(z.string()).optional(),
    /** Folder of the skill relative to the registry repository, e.g. `skills/memory/search`. */
    sourcePath: z.string(),
    /** The file the skill was declared in: `SKILL.md` or `skill.json`. */
    sourceFile: z.string(),
    hasSkillMd: z.boolean(),
    inputSchema: z.record(z.string(), z.unknown()).optional(),
    outputSchema: z.record(z.string(), z.unknown()).optional(),
    entry: SkillEntry.optional(),
    /** Script-protocol actions understood by the entry or by `scripts/*` protocol scripts. */
    actions: z.array(SkillAction).optional(),
    /** The llm-mode system prompt (`prompt.md`). */
    prompt: z.string().optional(),
    /** SKILL.md body (Markdown, unrendered). */
    instructions: z.string().optional(),
    calls: z.array(SkillName),
    /** Skills whose `calls` name this one; filled in across the registry. */
    calledBy: z.array(SkillName),
    /**
     * Every skill that refers to this one, by name, and how; filled in across the registry (since
     * 2.2.0). Empty in an earlier version's manifest: callers name a skill without a version.
     */
    usedBy: z.array(SkillUser).optional(),
    pipeline: z.array(PipelineStep).optional(),
    outputMapping: z.record(z.string(), z.unknown()).optional(),
    /** Milliseconds. From skill.json `timeout`, `security.timeout_ms`, or the script protocol's default of 300 s. */
    timeoutMs: z.number().int().positive().max(MAX_TIMEOUT_MS),
    retry: z.number().int().nonnegative().max(MAX_RETRY),
    /** `skill:<name>:<script>` for every script under scripts/. */
    tools: z.array(z.string()),
    triggers: Triggers.optional(),
    security: SecurityPolicy.optional(),
    resources: Resources.optional(),
    abp: Abp.optional(),
    capabilities: z.array(z.string()).optional(),
    domain: z.string().optional(),
    cacheable: z.boolean().optional(),
    ttl: z.number().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    /** Frontmatter fields Skilldex does not interpret, carried through unchanged. */
    extra: z.record(z.string(), z.unknown()).optional(),
    files: z.array(SkillFile).refine((files) => repeatedPath(files.map((f) => f.path)) === undefined, 'must not list a path twice'),
    /** Tree digest: sha256 over sorted `{path}\0{hex}\n` lines (docs/registry-format.md#digests). */
    digest: z.string().regex(SHA256_DIGEST),
    /**
     * ISO 8601, from the skill's last git commit or SOURCE_DATE_EPOCH; never the wall clock. Absent
     * when neither is known: an unknown time is left out, not shown as 1970.
     */
    lastModified: z.string().optional(),
    urls: SkillUrls,
    /**
     * The skill's versions document (docs/registry-format.md#versions), pinned by size and digest:
     * through it a signed index covers every older version too. Only in the current version's
     * manifest (since 2.1.0).
     */
    versions: VersionsPin.optional(),
    /** Warnings the validator reported for this skill (errors keep a skill out of the registry). */
    diagnostics: z.array(ValidatorDiagnostic),
    scan: ScanResult.optional(),
  })
  .meta({ id: 'SkillManifest', title: 'Skilldex skill manifest' });
export type SkillManifest = z.infer<typeof SkillManifest>;
