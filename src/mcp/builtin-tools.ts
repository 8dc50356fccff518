import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { discoveryName } from '../core/names.ts';
import type { IndexEntry } from '../core/schemas/registry-index.ts';
import type { NodeRegistry } from '../runtime/node/node-registry.ts';
import type { RunOptions } from '../runtime/node/run.ts';
import { resolveInstallTarget } from './install-target.ts';
import { mimeType, skillUri, textOrBlob } from './skill-uri.ts';
import { RUN_OFF, structured, toolError } from './tool-results.ts';
import * as shapes from './tool-schemas.ts';

/** One tool the server always offers: its schemas (zod) and what a call does. */
export interface BuiltinTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  output: z.ZodType;
  readOnly: boolean;
  /** Runs with arguments already checked against `input`; `signal` aborts when the client cancels the call. */
  run(args: any, registry: NodeRegistry, signal?: AbortSignal): Promise<CallToolResult>;
}

/**
 * A tool whose `run` receives its arguments typed by its own `input` schema, so the schema is
 * named once per tool.
 */
const tool = <Input extends z.ZodType>(definition: Omit<BuiltinTool, 'input' | 'run'> & { input: Input; run(args: z.output<Input>, registry: NodeRegistry, signal?: AbortSignal): Promise<CallToolResult> }): BuiltinTool => definition;

/**
 * A tool about one skill named in its arguments: `run` receives the name as the registry spells it
 * (a client may write it in another case), or the call fails with the registry's "no such skill".
 */
const skillTool = <Input extends z.ZodType<{ name: string }>>(
  definition: Omit<BuiltinTool, 'input' | 'run'> & { input: Input; run(name: string, args: z.output<Input>, registry: NodeRegistry): Promise<CallToolResult> },
): BuiltinTool => tool({ ...definition, run: (args, registry) => definition.run(registry.entry(args.name).name, args, registry) });

/**
 * A JSON Schema for the tool list: without `$schema`, which the SDK's draft-07 validator rejects,
 * and in zod's `input` form, which does not forbid extra properties — clients validate structured
 * content against output schemas, and an outcome may carry fields a newer runtime adds.
 */
export const jsonSchema = (schema: z.ZodType): Tool['inputSchema'] => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest as Tool['inputSchema'];
};

const summary = (entry: IndexEntry): shapes.SkillSummary => ({
  name: entry.name,
  title: entry.title,
  description: entry.description,
  version: entry.version,
  format: entry.format,
  mode: entry.mode,
  ...(entry.category ? { category: entry.category } : {}),
  tags: entry.tags,
});

/**
 * The skills-manager tools (list, search, load, assets, script path) plus verified install and
 * run. Install needs an install root and run needs `allowRun`; without them the tools are still
 * listed and answer with how to enable them.
 *
 * @example
 * builtinTools({ allowRun: false }).map((tool) => tool.name); // ['list_skills', 'search_skills', …]
 */
export function builtinTools(options: { allowRun?: boolean; installRoot?: string; perRunLimits?: Pick<RunOptions, 'defaultMemoryMb' | 'maxProcesses'> }): BuiltinTool[] {
  return [
    tool({
      name: 'list_skills',
      title: 'List skills',
      description: 'Every skill in the registry: name, title, description, version, format, mode, category and tags.',
      input: shapes.ListSkillsInput,
      output: shapes.ListSkillsOutput,
      readOnly: true,
      async run(_args, registry) {
        const skills = registry.list().map(summary);
        return structured({ registry: registry.root, total: skills.length, skills });
      },
    }),
    tool({
      name: 'search_skills',
      title: 'Search skills',
      description: 'Ranks the skills against a query (names, titles, descriptions, tags, keywords; Chinese and Japanese too), optionally filtered by tags, category, format or mode.',
      input: shapes.SearchSkillsInput,
      output: shapes.SearchSkillsOutput,
      readOnly: true,
      async run(args, registry) {
        const results = registry.search(args.query, { limit: args.limit, ...args.filters }).map((hit) => ({ ...summary(hit.skill), score: Number(hit.score.toFixed(4)) }));
        return structured({ results });
      },
    }),
    tool({
      name: 'match_skills',
      title: 'Match skills to a message',
      description: "The skills whose triggers fire for a user's message (and optionally an event or intents), by trigger priority and then relevance: which skills to load for this turn.",
      input: shapes.MatchSkillsInput,
      output: shapes.MatchSkillsOutput,
      readOnly: true,
      async run(args, registry) {
        const matches = registry
          .match(args.message, { limit: args.limit, ...(args.event ? { event: args.event } : {}), ...(args.intents ? { intents: args.intents } : {}) })
          .map((m) => ({ ...summary(m.skill), priority: m.priority, score: Number(m.score.toFixed(4)), fired: m.fired }));
        return structured({ matches });
      },
    }),
    tool({
      name: 'load_skill',
      title: 'Load a skill',
      description: "A skill's instructions to follow, as '# Skill: <name>' followed by the body (for typed skills: signature, input and output schema). Verified against the registry's digests.",
      input: shapes.LoadSkillInput,
      output: shapes.LoadSkillOutput,
      readOnly: true,
      async run(args, registry) {
        const skill = await registry.load(args.name);
        return structured({ name: skill.name, format: skill.format, mode: skill.mode, text: skill.text }, skill.text);
      },
    }),
    skillTool({
      name: 'list_skill_assets',
      title: "List a skill's assets",
      description: "The files under a skill's references/, assets/ and scripts/ folders.",
      input: shapes.ListSkillAssetsInput,
      output: shapes.ListSkillAssetsOutput,
      readOnly: true,
      async run(name, _args, registry) {
        return structured({ name, assets: await registry.listAssets(name) });
      },
    }),
    skillTool({
      name: 'load_skill_asset',
      title: 'Read a skill asset',
      description: "One file under a skill's references/, assets/ or scripts/ (no '..', no absolute paths), verified. Text comes as UTF-8, anything else as base64.",
      input: shapes.LoadSkillAssetInput,
      output: shapes.LoadSkillAssetOutput,
      readOnly: true,
      async run(name, args, registry) {
        const bytes = await registry.loadAssetBytes(name, args.path);
        const content = textOrBlob(bytes);
        if ('text' in content) return structured({ name, path: args.path, encoding: 'utf-8', content: content.text }, content.text);
        return { structuredContent: { name, path: args.path, encoding: 'base64', content: content.blob }, content: [{ type: 'resource', resource: { uri: skillUri(name, args.path), mimeType: mimeType(args.path), blob: content.blob } }] };
      },
    }),
    skillTool({
      name: 'get_skill_script_path',
      title: "Get a skill script's local path",
      description: "The absolute path of scripts/<script> in a verified copy of the skill in this server's cache, to run with your own tools.",
      input: shapes.GetSkillScriptPathInput,
      output: shapes.GetSkillScriptPathOutput,
      readOnly: false,
      async run(name, args, registry) {
        const path = await registry.scriptPath(name, args.script);
        return structured({ name, script: args.script, path }, path);
      },
    }),
    tool({
      name: 'install_skill',
      title: 'Install a skill',
      description: `Downloads a skill (or, as name@version or name@range, an earlier published version), verifies every file's sha256 and the tree digest, and installs it into an agent's folder (claude: .claude/skills, agents: .agents/skills, cursor, codex, …) or a folder, inside this server's install root${options.installRoot ? '' : ' (none configured: start the server with --install-root <dir> to allow installs)'}.`,
      input: shapes.InstallSkillInput,
      output: shapes.InstallSkillOutput,
      readOnly: false,
      async run(args, registry) {
        if (!options.installRoot) return toolError('installing is off on this server; start it with --install-root <dir> to allow installs into that folder');
        const manifest = await registry.manifest(args.name);
        const target = await resolveInstallTarget(options.installRoot, args.target, discoveryName(manifest.name, manifest.format));
        // By the name as asked: `pdf@^1` installs the version that range selects (already resolved above, and cached).
        const result = await registry.install(args.name, target.dir, target.to ? { to: target.to } : {});
        return structured({ ...result });
      },
    }),
    tool({
      name: 'run_skill',
      title: 'Run a skill',
      description: `Runs a skill from a verified copy (sandboxed child process with a timeout and output cap; skills the registry's scan failed are refused) and returns its outcome {status, output, error, warnings}.${options.allowRun ? '' : ' Off on this server (start it with --allow-run).'}`,
      input: shapes.RunSkillInput,
      output: shapes.RunSkillOutput,
      readOnly: false,
      async run(args, registry, signal) {
        if (!options.allowRun) return toolError(RUN_OFF);
        // A call the client cancels stops the skill's processes at once, not at its timeout.
        const outcome = await registry.run(args.name, args.input ?? {}, { ...options.perRunLimits, action: args.action, signal });
        return { ...structured(outcome as Record<string, unknown>), ...(outcome.status === 'error' ? { isError: true } : {}) };
      },
    }),
  ];
}
