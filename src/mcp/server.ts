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
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import pLimit from 'p-limit';
import type { SkillManifest } from '../core/schemas/manifest.ts';
import type { NodeRegistry } from '../runtime/node/node-registry.ts';
import type { RunOptions } from '../runtime/node/run.ts';
import { SkilldexError } from '../core/errors/skilldex-error.ts';
import { RegistryError } from '../core/errors/registry-error.ts';
import { type BuiltinTool, builtinTools, jsonSchema } from './builtin-tools.ts';
import { inputProblem } from './input-limits.ts';
import { issueLines, paramsChecked } from './request-checks.ts';
import type { LiveRegistry } from './live-registry.ts';
import { mimeType, parseSkillUri, skillUri, textOrBlob } from './skill-uri.ts';
import { type SkillTool, skillTools } from './skill-tools.ts';
import { describeError, ProtocolError, RUN_OFF, structured, toolError } from './tool-results.ts';
import { RunLimit } from './run-limit.ts';

export interface McpServerOptions {
  /** Let clients run skills (`run_skill` and the skills' own tools). Off by default. */
  allowRun?: boolean;
  /** Offer every typed skill entry point as a tool of its own. */
  exposeSkills?: boolean;
  /** The only folder `install_skill` may write into; without it, installs are refused. */
  installRoot?: string;
  /**
   * The run slots this server draws from; share one between the servers of every HTTP session so
   * the cap is server-wide. Without it, a limit of its own with the default cap.
   */
  runLimit?: RunLimit;
  /** Hold this server's session to the limit's per-session share (HTTP), not its whole cap (stdio). */
  runLimitPerSession?: boolean;
  /** The limits of each run (not of how many run: that is `runLimit`): the memory of a skill that declares none, and processes per run. */
  perRunLimits?: Pick<RunOptions, 'defaultMemoryMb' | 'maxProcesses'>;
  /** The server version reported to clients. */
  version?: string;
  /** Problems that are not a client's fault (a skill whose manifest cannot be read, a failed refresh). */
  onError?: (error: unknown) => void;
}

/** How many skills one `prompts/list` page holds. */
const PAGE_SIZE = 1000;
/**
 * How many skills' files one `resources/list` page holds: the file lists are in the manifests
 * (index.json lists no files), so each page fetches this many manifests.
 */
const RESOURCE_PAGE_SKILLS = 100;
/** The MCP error code for an unknown resource (see the specification's resources page). */
const RESOURCE_NOT_FOUND = -32002;

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

  // Taken before a run starts and given back once its processes are gone and its folder removed.
  const runSlots = (options.runLimit ?? new RunLimit()).session(options.runLimitPerSession ?? false);
  const builtins = builtinTools(options);
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

  const callSkillTool = async (tool: SkillTool, args: Record<string, unknown>, registry: NodeRegistry, signal: AbortSignal): Promise<CallToolResult> => {
    if (!options.allowRun) return toolError(`${tool.name} runs the skill ${tool.call.skill}: ${RUN_OFF}`);
    const { call } = tool;
    let input: unknown = call.wrapInput ? args.input : args;
    if (call.abpTool) input = { ...args, tool: call.abpTool };
    // A call the client cancels stops the skill's processes at once, not at its timeout.
    const outcome = await registry.run(call.skill, input, { ...options.perRunLimits, ...(call.action ? { action: call.action } : {}), signal });
    if (outcome.status === 'error') {
      // Text only, with the hint as every other failure has it: structured content would be checked against the skill's output schema.
      const hint = (outcome.error?.details as { hint?: unknown } | undefined)?.hint;
      return toolError(`${call.skill} failed: ${outcome.error?.message ?? outcome.message ?? 'unknown error'} [${outcome.error?.code ?? 'INTERNAL_ERROR'}]${typeof hint === 'string' ? `\nhint: ${hint}` : ''}`);
    }
    const output = outcome.output;
    if (call.wrapOutput) return structured({ result: output });
    if (typeof output !== 'object' || output === null || Array.isArray(output)) return toolError(`${call.skill} returned ${JSON.stringify(output)?.slice(0, 200)}, not the object its output schema describes [INVALID_OUTPUT]`);
    return structured(output as Record<string, unknown>);
  };

  server.setRequestHandler(paramsChecked(ListToolsRequestSchema), async () => {
    await live.refresh();
    const skills = await exposed(live.current);
    return {
      tools: [
        ...builtinList,
        ...skills.map((tool): Tool => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema as Tool['inputSchema'], outputSchema: tool.outputSchema as Tool['outputSchema'], annotations: { openWorldHint: true } })),
      ],
    };
  });

  server.setRequestHandler(paramsChecked(CallToolRequestSchema), async (request, extra): Promise<CallToolResult> => {
    const registry = live.current;
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const builtin = builtinByName.get(name);
    const skillTool = builtin ? undefined : (await exposed(registry)).find((tool) => tool.name === name);
    if (!builtin && !skillTool) throw new ProtocolError(ErrorCode.InvalidParams, `unknown tool '${String(name).slice(0, 100)}'; list the tools with tools/list`);
    const tooBig = inputProblem(args);
    if (tooBig) return toolError(`${name}: ${tooBig} [INVALID_PARAM]`);
    // Only a call that would start a run takes a slot: without --allow-run it is answered with how to allow it.
    const runs = options.allowRun && (skillTool !== undefined || name === 'run_skill');
    const slot = runs ? runSlots.acquire() : undefined;
    if (slot && 'refused' in slot) return toolError(`${name}: ${slot.refused}`);
    try {
      if (skillTool) return await callSkillTool(skillTool, args, registry, extra.signal);
      const tool = builtin as BuiltinTool;
      const parsed = tool.input.safeParse(args);
      if (!parsed.success) {
        return toolError(`${name}: invalid arguments [INVALID_PARAM]\n${issueLines(parsed.error.issues, '(arguments)')}`);
      }
      // Listing revalidates the index first, so an agent asking what there is sees an update.
      if (name === 'list_skills') await live.refresh();
      return await tool.run(parsed.data, name === 'list_skills' ? live.current : registry, extra.signal);
    } catch (error) {
      if (!(error instanceof SkilldexError)) onError(error);
      return toolError(describeError(error));
    } finally {
      slot?.release();
    }
  });

  const page = <T>(items: readonly T[], cursor: string | undefined, size = PAGE_SIZE): { items: T[]; nextCursor?: string } => {
    const start = cursor === undefined ? 0 : /^\d{1,9}$/.test(cursor) ? Number(cursor) : -1;
    if (start < 0) throw new ProtocolError(ErrorCode.InvalidParams, 'invalid cursor; pass back the nextCursor of the previous page');
    const end = start + size;
    return { items: items.slice(start, end), ...(end < items.length ? { nextCursor: String(end) } : {}) };
  };

  server.setRequestHandler(paramsChecked(ListResourcesRequestSchema), async (request) => {
    await live.refresh();
    const registry = live.current;
    const { items, nextCursor } = page(registry.list(), request.params?.cursor, RESOURCE_PAGE_SKILLS);
    const limit = pLimit(8);
    // A skill whose manifest cannot be read or verified lists no files; the others still do.
    const manifests = await Promise.all(items.map((entry) => limit(() => registry.manifest(entry.name).catch((error: unknown) => void onError(error)))));
    return {
      resources: manifests.flatMap((m) => (m ? m.files.map((file) => ({ uri: skillUri(m.name, file.path), name: `${m.name}/${file.path}`, mimeType: mimeType(file.path), size: file.size })) : [])),
      ...(nextCursor ? { nextCursor } : {}),
    };
  });

  server.setRequestHandler(paramsChecked(ListResourceTemplatesRequestSchema), async () => ({
    resourceTemplates: [{ uriTemplate: 'skill://{name}/{+path}', name: 'skill-file', title: 'A file of a skill', description: "Any published file of a skill, verified against the registry's digest." }],
  }));

  server.setRequestHandler(paramsChecked(ReadResourceRequestSchema), async (request) => {
    const { uri } = request.params;
    const target = parseSkillUri(uri);
    if (!target) throw new ProtocolError(ErrorCode.InvalidParams, `not a skill resource: ${JSON.stringify(uri.slice(0, 200))}; use skill://<name>/<path> as resources/list gives it`);
    const registry = live.current;
    let bytes: Uint8Array;
    try {
      bytes = await registry.file(registry.entry(target.name).name, target.path);
    } catch (error) {
      const missing = error instanceof RegistryError && (error.code === 'SKILL_NOT_FOUND' || error.code === 'ASSET_NOT_FOUND');
      throw new ProtocolError(missing ? RESOURCE_NOT_FOUND : ErrorCode.InternalError, describeError(error), { uri });
    }
    return { contents: [{ uri, mimeType: mimeType(target.path), ...textOrBlob(bytes) }] };
  });

  server.setRequestHandler(paramsChecked(ListPromptsRequestSchema), async (request) => {
    await live.refresh();
    const { items, nextCursor } = page(live.current.list(), request.params?.cursor);
    return { prompts: items.map((entry) => ({ name: entry.name, title: entry.title, description: entry.description })), ...(nextCursor ? { nextCursor } : {}) };
  });

  server.setRequestHandler(paramsChecked(GetPromptRequestSchema), async (request) => {
    try {
      const skill = await live.current.load(request.params.name);
      return { description: `The instructions of the skill ${skill.name}`, messages: [{ role: 'user', content: { type: 'text', text: skill.text } }] };
    } catch (error) {
      throw new ProtocolError(ErrorCode.InvalidParams, describeError(error));
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
