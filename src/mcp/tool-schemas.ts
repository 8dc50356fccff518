import { z } from 'zod';
import { SkillExecutionOutcome } from '../core/schemas/outcome.ts';
import { SkillFormat, SkillMode } from '../core/schemas/manifest.ts';

/**
 * The input and output of every built-in tool of the MCP server, as zod: the one source of the
 * JSON Schemas the server lists and of the checks it applies to what a client sends.
 */

/** Described here for agents, in words of their own. */
const Format = SkillFormat.meta({ description: 'skill-md: an Agent Skills SKILL.md; package: SKILL.md with typed extensions; skill-json: a typed function (skill.json).' });
const Mode = SkillMode.meta({ description: 'instructions: read and follow; code, llm, composite: can also be run.' });

const SkillName = z.string().min(1).max(128).describe('Skill name (case-insensitive), as list_skills or search_skills give it.');

export const SkillSummary = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  version: z.string(),
  format: Format,
  mode: Mode,
  category: z.string().optional(),
  tags: z.array(z.string()),
});
export type SkillSummary = z.infer<typeof SkillSummary>;

export const ListSkillsInput = z.object({});
export const ListSkillsOutput = z.object({ registry: z.string(), total: z.number().int(), skills: z.array(SkillSummary) });

export const SearchSkillsInput = z.object({
  query: z.string().max(1000).describe('Words to look for in names, titles, descriptions, tags and keywords (any language).'),
  limit: z.number().int().min(1).max(100).default(10).describe('At most this many results.'),
  filters: z
    .object({
      tags: z.array(z.string().max(128)).max(32).optional().describe('Only skills carrying every one of these tags.'),
      category: z.string().max(128).optional(),
      format: Format.optional(),
      mode: Mode.optional(),
    })
    .optional(),
});
export const SearchSkillsOutput = z.object({ results: z.array(SkillSummary.extend({ score: z.number() })) });

export const MatchSkillsInput = z.object({
  message: z.string().max(10_000).describe("The user's message; skills whose trigger phrases occur in it fire (docs/extended-package.md#trigger-matching)."),
  event: z.string().max(200).optional().describe('The event being handled, e.g. abp.tool_request: fires skills that list it.'),
  intents: z.array(z.string().max(200)).max(32).optional().describe('Intents an upstream classifier recognised.'),
  limit: z.number().int().min(1).max(100).default(10).describe('At most this many matches.'),
});
export const MatchSkillsOutput = z.object({
  matches: z.array(
    SkillSummary.extend({
      priority: z.number(),
      score: z.number(),
      fired: z.object({ phrases: z.array(z.string()), intents: z.array(z.string()), event: z.string().optional() }),
    }),
  ),
});

export const LoadSkillInput = z.object({ name: SkillName });
export const LoadSkillOutput = z.object({
  name: z.string(),
  format: Format,
  mode: Mode,
  /** `# Skill: <name>` followed by the instructions. */
  text: z.string(),
});

export const LoadSkillAssetInput = z.object({
  name: SkillName,
  path: z.string().min(1).max(1024).describe('A path under references/, assets/ or scripts/, as list_skill_assets gives it.'),
});
export const LoadSkillAssetOutput = z.object({
  name: z.string(),
  path: z.string(),
  encoding: z.enum(['utf-8', 'base64']),
  content: z.string(),
});

export const ListSkillAssetsInput = z.object({ name: SkillName });
export const ListSkillAssetsOutput = z.object({ name: z.string(), assets: z.array(z.string()) });

export const GetSkillScriptPathInput = z.object({
  name: SkillName,
  script: z.string().min(1).max(1024).describe('A file under scripts/, without the scripts/ prefix, e.g. compare.py.'),
});
export const GetSkillScriptPathOutput = z.object({ name: z.string(), script: z.string(), path: z.string() });

export const InstallSkillInput = z.object({
  name: z.string().min(1).max(400).describe('Skill name (case-insensitive), as list_skills or search_skills give it; add @version or @range (pdf@1.2.0, pdf@^1.2) for an earlier published version.'),
  target: z.string().min(1).max(1024).describe("An agent (claude for .claude/skills, agents for .agents/skills, cursor, codex, … or the agent's folder itself) or a folder inside the install root."),
});
export const InstallSkillOutput = z.object({ name: z.string(), version: z.string(), dir: z.string(), digest: z.string(), files: z.number().int(), changed: z.boolean() });

export const RunSkillInput = z.object({
  name: SkillName,
  input: z.unknown().optional().describe("The skill's input (see load_skill for its input schema)."),
  action: z.string().min(1).max(128).optional().describe('For protocol scripts: the action (default: the first the skill declares).'),
});
/** Extended (with nothing) to drop the schema's registry id, so the listed JSON Schema is inline rather than a `$ref`. */
export const RunSkillOutput = SkillExecutionOutcome.extend({});
