// Every export here is public API: the Node runtime. It adds what a browser cannot do — an
// on-disk HTTP cache, local registry folders, verified installs, and running skills in child
// processes — on top of everything the browser-safe entry (`../index.ts`) exports.

export * from '../index.ts';
export { openRegistry, type NodeOpenRegistryOptions } from './open-registry.ts';
export { NodeRegistry, type InstallOptions, type InstallResult } from './node-registry.ts';
export { runSkill, defaultAction, type RunOptions, type RunHost } from './run.ts';
export { callAbpTool, type AbpCallOptions, type AbpToolResult } from './abp-tool.ts';
export { abpParametersSchema, abpReturnsSchema, type AbpToolDeclaration } from '../../core/abp-schema.ts';
export { scriptFile, toolIdOf } from '../tool-id.ts';
export { ModelCallError } from './model-call-error.ts';
export { chatCompletionsProvider, providerFromEnv, parseModelJson, type ChatProvider, type ChatRequest, type ChatReply, type ChatMessage, type ChatCompletionsConfig } from './llm.ts';
export { AGENT_SKILL_FOLDERS, installDestination, verifyInstalled, type AgentTarget } from './install.ts';
export { zodShapeCheck } from './zod-shape-check.ts';
export { cachedHttpTransport } from './http-cache.ts';
export { fileTransport } from './file-transport.ts';
export { defaultCacheDir } from './cache-dir.ts';
export { MAX_OUTPUT_BYTES } from './bounded-process.ts';
export { DEFAULT_TIMEOUT_MS as DEFAULT_PROTOCOL_TIMEOUT_MS } from '../../core/schemas/run-limits.ts';
export { INHERITED_ENV } from './run-sandbox.ts';
export { fileMemoryStore } from './file-memory.ts';
export { fileSessionStore } from './file-session.ts';
