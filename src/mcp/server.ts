import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import pLimit from 'p-limit';
import { z } from 'zod';
import type { SkillManifest } from '../core/schemas/manifest.ts';
import type { IndexEntry } from '../core/schemas/registry-index.ts';
import type { NodeRegistry } from '../runtime/node/node-registry.ts';
import { SkilldexError } from '../runtime/skilldex-error.ts';
import { inputProblem } from './input-limits.ts';
import { resolveInstallTarget } from './install-target.ts';
import type { LiveRegistry } from './live-registry.ts';
import { mimeType, parseSkillUri, skillUri } from './skill-uri.ts';
import { type SkillTool, skillTools } from './skill-tools.ts';
import * as shapes from './tool-schemas.ts';

export interface McpServerOptions {
  /** Let clients run skills (`run_skill` and the skills' own tools). Off by default. */
  allowRun?: boolean;
  /** Offer every typed skill entry point as a tool of its own. */
  exposeSkills?: boolean;
  /** The only folder `install_skill` may write into; without it, installs are refused. */
  installRoot?: string;
  /** The server version reported to clients. */
  version?: string;
  /** Problems that are not a client's fault (a skill whose manifest cannot be read, a failed refresh). */
  onError?: (error: unknown) => void;
}

/** How many skills or files one `resources/list` or `prompts/list` page holds. */
const PAGE_SIZE = 1000;
/** The MCP error code for an unknown resource (see the specification's resources page). */
const RESOURCE_NOT_FOUND = -32002;
const RUN_OFF = 'running skills is off on this server; start it with --allow-run to allow it';

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * A JSON Schema for the tool list: without `$schema`, which the SDK's draft-07 validator rejects,
 * and in zod's `input` form, which does not forbid extra properties — clients validate structured
 * content against output schemas, and an outcome may carry fields a newer runtime adds.
 */
const jsonSchema = (schema: z.ZodType): Tool['inputSchema'] => {
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

/** What an error says to an agent: message, code and hint, never a stack. */
const describeError = (error: unknown): string => {
  if (error instanceof SkilldexError) return `${error.message} [${error.code}]${error.hint ? `\nhint: ${error.hint}` : ''}`;
  if (error instanceof McpError) return error.message;
  return `internal error: ${error instanceof Error ? error.message : String(error)}`;
};

const toolError = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });
const structured = (value: Record<string, unknown>, text = JSON.stringify(value, null, 2)): CallToolResult => ({ structuredContent: value, content: [{ type: 'text', text }] });

interface BuiltinTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  output: z.ZodType;
  readOnly: boolean;
  run(args: any, registry: NodeRegistry): Promise<CallToolResult>;
}

/** The typed entry points of a registry's skills, computed once per index (manifests are fetched). */
const skillToolCache = new WeakMap<NodeRegistry, Promise<SkillTool[]>>();

/**
 * Creates an MCP server (the official SDK's `Server`) over a live registry: the skills-manager
 * tools, verified install and, with `allowRun`, run; every skill file as a `skill://` resource;
 * every skill's instructions as a prompt. Connect it to any SDK transport. Each connection needs
 * its own server; all of them may share one `LiveRegistry`.
 *
 * @example
 * const live = await LiveRegistry.open('https://skills.example.org/');
 * await createMcpServer(live, { allowRun: false }).connect(new StdioServerTransport());
 */
export function createMcpServer(live: LiveRegistry, options: McpServerOptions = {}): Server {
  const onError = options.onError ?? (() => {});
  const server = new Server(
    { name: 'skilldex', title: 'Skilldex skills', version: options.version ?? '0.0.0' },
    {
      capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true } },
      instructions:
        `Agent skills from the registry ${live.current.root}. Find a skill with search_skills (or list_skills), read it with load_skill and follow its instructions; ` +
        'read its references, assets and scripts with list_skill_assets and load_skill_asset.' +
        (options.allowRun ? ' run_skill runs a skill and returns its outcome.' : ''),
    },
  );

  const builtins: BuiltinTool[] = [
    {
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
    },
    {
      name: 'search_skills',
      title: 'Search skills',
      description: 'Ranks the skills against a query (names, titles, descriptions, tags, keywords; Chinese and Japanese too), optionally filtered by tags, category, format or mode.',
      input: shapes.SearchSkillsInput,
      output: shapes.SearchSkillsOutput,
      readOnly: true,
      async run(args: z.output<typeof shapes.SearchSkillsInput>, registry) {
        const results = registry.search(args.query, { limit: args.limit, ...args.filters }).map((hit) => ({ ...summary(hit.skill), score: Number(hit.score.toFixed(4)) }));
        return structured({ results });
      },
    },
    {
      name: 'load_skill',
      title: 'Load a skill',
      description: "A skill's instructions to follow, as '# Skill: <name>' followed by the body (for typed skills: signature, input and output schema). Verified against the registry's digests.",
      input: shapes.LoadSkillInput,
      output: shapes.LoadSkillOutput,
      readOnly: true,
      async run(args: z.output<typeof shapes.LoadSkillInput>, registry) {
        const skill = await registry.load(args.name);
        return structured({ name: skill.name, format: skill.format, mode: skill.mode, text: skill.text }, skill.text);
      },
    },
    {
      name: 'list_skill_assets',
      title: "List a skill's assets",
      description: "The files under a skill's references/, assets/ and scripts/ folders.",
      input: shapes.ListSkillAssetsInput,
      output: shapes.ListSkillAssetsOutput,
      readOnly: true,
      async run(args: z.output<typeof shapes.ListSkillAssetsInput>, registry) {
        const name = registry.entry(args.name).name;
        return structured({ name, assets: await registry.listAssets(name) });
      },
    },
    {
      name: 'load_skill_asset',
      title: 'Read a skill asset',
      description: "One file under a skill's references/, assets/ or scripts/ (no '..', no absolute paths), verified. Text comes as UTF-8, anything else as base64.",
      input: shapes.LoadSkillAssetInput,
      output: shapes.LoadSkillAssetOutput,
      readOnly: true,
      async run(args: z.output<typeof shapes.LoadSkillAssetInput>, registry) {
        const name = registry.entry(args.name).name;
        const bytes = await registry.loadAssetBytes(name, args.path);
        let text: string | undefined;
        try {
          text = decoder.decode(bytes);
        } catch {
          text = undefined;
        }
        if (text !== undefined) return structured({ name, path: args.path, encoding: 'utf-8', content: text }, text);
        const content = Buffer.from(bytes).toString('base64');
        return { structuredContent: { name, path: args.path, encoding: 'base64', content }, content: [{ type: 'resource', resource: { uri: skillUri(name, args.path), mimeType: mimeType(args.path), blob: content } }] };
      },
    },
    {
      name: 'get_skill_script_path',
      title: "Get a skill script's local path",
      description: "The absolute path of scripts/<script> in a verified copy of the skill in this server's cache, to run with your own tools.",
      input: shapes.GetSkillScriptPathInput,
      output: shapes.GetSkillScriptPathOutput,
      readOnly: false,
      async run(args: z.output<typeof shapes.GetSkillScriptPathInput>, registry) {
        const name = registry.entry(args.name).name;
        const path = await registry.scriptPath(name, args.script);
        return structured({ name, script: args.script, path }, path);
      },
    },
    {
      name: 'install_skill',
      title: 'Install a skill',
      description: `Downloads a skill, verifies every file's sha256 and the tree digest, and installs it into an agent folder (claude: .claude/skills, agents: .agents/skills) or a folder, inside this server's install root${options.installRoot ? '' : ' (none configured: start the server with --install-root <dir> to allow installs)'}.`,
      input: shapes.InstallSkillInput,
      output: shapes.InstallSkillOutput,
      readOnly: false,
      async run(args: z.output<typeof shapes.InstallSkillInput>, registry) {
        if (!options.installRoot) return toolError('installing is off on this server; start it with --install-root <dir> to allow installs into that folder');
        const name = registry.entry(args.name).name;
        const target = await resolveInstallTarget(options.installRoot, args.target, name);
        const result = await registry.install(name, target.dir, target.to ? { to: target.to } : {});
        return structured({ ...result });
      },
    },
    {
      name: 'run_skill',
      title: 'Run a skill',
      description: `Runs a skill from a verified copy (sandboxed child process with a timeout and output cap; skills the registry's scan failed are refused) and returns its outcome {status, output, error, warnings}.${options.allowRun ? '' : ' Off on this server (start it with --allow-run).'}`,
      input: shapes.RunSkillInput,
      output: shapes.RunSkillOutput,
      readOnly: false,
      async run(args: z.output<typeof shapes.RunSkillInput>, registry) {
        if (!options.allowRun) return toolError(RUN_OFF);
        const outcome = await registry.run(args.name, args.input ?? {}, { action: args.action });
        return { ...structured(outcome as Record<string, unknown>), ...(outcome.status === 'error' ? { isError: true } : {}) };
      },
    },
  ];
  const builtinByName = new Map(builtins.map((tool) => [tool.name, tool]));
  const builtinList: Tool[] = builtins.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input),
    outputSchema: jsonSchema(tool.output),
    annotations: { readOnlyHint: tool.readOnly, openWorldHint: false },
  }));

  const exposed = (registry: NodeRegistry): Promise<SkillTool[]> => {
    if (!options.exposeSkills) return Promise.resolve([]);
    let pending = skillToolCache.get(registry);
    if (!pending) {
      const limit = pLimit(8);
      pending = Promise.all(
        registry
          .list()
          .filter((entry) => entry.mode !== 'instructions')
          .map((entry) =>
            limit(() =>
              registry.manifest(entry.name).catch((error: unknown) => {
                onError(error);
                return undefined;
              }),
            ),
          ),
      ).then((manifests) => skillTools(manifests.filter((m): m is SkillManifest => m !== undefined), new Set(builtinByName.keys())));
      skillToolCache.set(registry, pending);
    }
    return pending;
  };

  const callSkillTool = async (tool: SkillTool, args: Record<string, unknown>, registry: NodeRegistry): Promise<CallToolResult> => {
    if (!options.allowRun) return toolError(`${tool.name} runs the skill ${tool.call.skill}: ${RUN_OFF}`);
    const { call } = tool;
    let input: unknown = call.wrapInput ? args.input : args;
    if (call.abpTool) input = { ...args, tool: call.abpTool };
    const outcome = await registry.run(call.skill, input, call.action ? { action: call.action } : {});
    if (outcome.status === 'error') {
      return toolError(`${call.skill} failed: ${outcome.error?.message ?? outcome.message ?? 'unknown error'} [${outcome.error?.code ?? 'INTERNAL_ERROR'}]`);
    }
    const output = outcome.output;
    if (call.wrapOutput) return structured({ result: output });
    if (typeof output !== 'object' || output === null || Array.isArray(output)) return toolError(`${call.skill} returned ${JSON.stringify(output)?.slice(0, 200)}, not the object its output schema describes [INVALID_OUTPUT]`);
    return structured(output as Record<string, unknown>);
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    await live.refresh();
    const skills = await exposed(live.current);
    return {
      tools: [
        ...builtinList,
        ...skills.map((tool): Tool => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema as Tool['inputSchema'], outputSchema: tool.outputSchema as Tool['outputSchema'], annotations: { openWorldHint: true } })),
      ],
    };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const registry = live.current;
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const builtin = builtinByName.get(name);
    const skillTool = builtin ? undefined : (await exposed(registry)).find((tool) => tool.name === name);
    if (!builtin && !skillTool) throw new McpError(ErrorCode.InvalidParams, `unknown tool '${String(name).slice(0, 100)}'; list the tools with tools/list`);
    const tooBig = inputProblem(args);
    if (tooBig) return toolError(`${name}: ${tooBig} [INVALID_PARAM]`);
    try {
      if (skillTool) return await callSkillTool(skillTool, args, registry);
      const tool = builtin as BuiltinTool;
      const parsed = tool.input.safeParse(args);
      if (!parsed.success) {
        return toolError(`${name}: invalid arguments [INVALID_PARAM]\n${parsed.error.issues.map((issue) => `- ${issue.path.join('.') || '(arguments)'}: ${issue.message}`).join('\n')}`);
      }
      // Listing revalidates the index first, so an agent asking what there is sees an update.
      if (name === 'list_skills') await live.refresh();
      return await tool.run(parsed.data, name === 'list_skills' ? live.current : registry);
    } catch (error) {
      if (!(error instanceof SkilldexError)) onError(error);
      return toolError(describeError(error));
    }
  });

  const page = <T>(items: readonly T[], cursor: string | undefined): { items: T[]; nextCursor?: string } => {
    const start = cursor === undefined ? 0 : /^\d{1,9}$/.test(cursor) ? Number(cursor) : -1;
    if (start < 0) throw new McpError(ErrorCode.InvalidParams, 'invalid cursor; pass back the nextCursor of the previous page');
    const end = start + PAGE_SIZE;
    return { items: items.slice(start, end), ...(end < items.length ? { nextCursor: String(end) } : {}) };
  };

  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    await live.refresh();
    const files = live.current.list().flatMap((entry) => entry.files.map((file) => ({ entry, file })));
    const { items, nextCursor } = page(files, request.params?.cursor);
    return {
      resources: items.map(({ entry, file }) => ({ uri: skillUri(entry.name, file.path), name: `${entry.name}/${file.path}`, mimeType: mimeType(file.path), size: file.size })),
      ...(nextCursor ? { nextCursor } : {}),
    };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [{ uriTemplate: 'skill://{name}/{+path}', name: 'skill-file', title: 'A file of a skill', description: "Any published file of a skill, verified against the registry's digest." }],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const target = parseSkillUri(uri);
    if (!target) throw new McpError(ErrorCode.InvalidParams, `not a skill resource: ${JSON.stringify(uri.slice(0, 200))}; use skill://<name>/<path> as resources/list gives it`);
    const registry = live.current;
    let bytes: Uint8Array;
    try {
      bytes = await registry.file(registry.entry(target.name).name, target.path);
    } catch (error) {
      const missing = error instanceof SkilldexError && (error.code === 'SKILL_NOT_FOUND' || error.code === 'ASSET_NOT_FOUND');
      throw new McpError(missing ? RESOURCE_NOT_FOUND : ErrorCode.InternalError, describeError(error), { uri });
    }
    const type = mimeType(target.path);
    try {
      return { contents: [{ uri, mimeType: type, text: decoder.decode(bytes) }] };
    } catch {
      return { contents: [{ uri, mimeType: type, blob: Buffer.from(bytes).toString('base64') }] };
    }
  });

  server.setRequestHandler(ListPromptsRequestSchema, async (request) => {
    await live.refresh();
    const { items, nextCursor } = page(live.current.list(), request.params?.cursor);
    return { prompts: items.map((entry) => ({ name: entry.name, title: entry.title, description: entry.description })), ...(nextCursor ? { nextCursor } : {}) };
  });

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    try {
      const skill = await live.current.load(request.params.name);
      return { description: `The instructions of the skill ${skill.name}`, messages: [{ role: 'user', content: { type: 'text', text: skill.text } }] };
    } catch (error) {
      throw new McpError(ErrorCode.InvalidParams, describeError(error));
    }
  });

  const unsubscribe = live.onChange(() => {
    // A client that went away (or has not finished initializing) cannot be told; that is fine.
    const ignore = () => {};
    server.sendToolListChanged().catch(ignore);
    server.sendResourceListChanged().catch(ignore);
    server.sendPromptListChanged().catch(ignore);
  });
  const previousOnClose = server.onclose;
  server.onclose = () => {
    unsubscribe();
    previousOnClose?.();
  };
  return server;
}
