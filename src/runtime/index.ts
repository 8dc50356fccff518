// Every export here is public API: the browser-safe Skilldex runtime. Only `fetch` and WebCrypto
// are used, so this entry runs in browsers, Deno, Workers and Node; the site publishes it as one
// ES module at /runtime/skilldex.js. Disk caching, install and run live in `./node/index.ts`.

export { openRegistry, type OpenRegistryOptions } from './open-registry.ts';
export { Registry, parseRegistryIndex, SUPPORTED_INDEX_MAJOR, DEFAULT_MAX_INDEX_BYTES, skillMdBody, type LoadedSkill, type MatchedSkills, type SearchOptions, type SearchResult, type ToPromptOptions } from './registry.ts';
export { httpTransport, checkRegistryPath, registryBaseUrl, registryUrl, type RegistryTransport, type TransportReadOptions } from './transport.ts';
export { structuralShapeCheck, type ShapeCheck, type ShapeResult } from './shape-check.ts';
export { checkAssetPath, ASSET_FOLDERS } from './asset-path.ts';
export { verifyFile, verifySkillFiles, type VerificationProblem } from './verify.ts';
export { toProtocolEnvelope } from './protocol-envelope.ts';
export { memoryKeyValueStore, memoryStore, SERVICE_METHODS, type ContextServices, type KeyValueStore, type MemoryService } from './context-services.ts';
export { SkilldexError } from '../core/errors/skilldex-error.ts';
// SkilldexErrorCode is the name RegistryErrorCode had before SkilldexError became the base of every error.
export { RegistryError, type RegistryErrorCode, type RegistryErrorCode as SkilldexErrorCode } from '../core/errors/registry-error.ts';
export { toPrompt, renderSkillLoad, type PromptSkill, type PromptStyle } from '../core/prompt.ts';
export { parseTemplate, renderTemplate, isTruthy } from '../core/template.ts';
export { TemplateError } from '../core/errors/template-error.ts';
export { tokenize } from '../core/tokenize.ts';
export { matchTriggers, triggerUnits, DEFAULT_TRIGGER_PRIORITY, type MatchOptions, type TriggerMatch, type TriggerDocument } from '../core/trigger-match.ts';
export { parseToolId, type ToolId } from './tool-id.ts';
export type { SkillManifest } from '../core/schemas/manifest.ts';
export type { IndexEntry, RegistryIndex } from '../core/schemas/registry-index.ts';
export type { SkillExecutionOutcome, ProtocolEnvelope } from '../core/schemas/outcome.ts';
export type { MemoryEntry, MemoryHit, MemoryInput } from '../core/schemas/memory.ts';
