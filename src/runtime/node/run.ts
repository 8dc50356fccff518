import type { SkillManifest } from '../../core/schemas/manifest.ts';
import type { ProtocolError, SkillExecutionOutcome } from '../../core/schemas/outcome.ts';
import { skillMdBody } from '../registry.ts';
import { RegistryError } from '../../core/errors/registry-error.ts';
import { type Attempt, failed } from './attempt.ts';
import { runPipeline } from './composite.ts';
import { entryFile, runModuleEntry, runProtocolEntry } from './entry-process.ts';
import { DEFAULT_TIMEOUT_MS, MAX_MEMORY_MB, MAX_RETRY, MAX_TIMEOUT_MS } from '../../core/schemas/run-limits.ts';
import { type ChatProvider, providerFromEnv, runLlm } from './llm.ts';
import { createRunSandbox } from './run-sandbox.ts';
import { manifestForScript } from './script-target.ts';
import { applyPackageType } from './package-type.ts';
import { parseToolId } from '../tool-id.ts';
import { commitOutcomeMemory, type ContextRunOptions, runCache, withContextServices } from './run-context.ts';
import { SandboxError } from './sandbox/sandbox-error.ts';
import { checkInput, checkOutput } from './schema-check.ts';
import { MAX_JSON_DEPTH, valueDepthExceeds } from '../../core/json-depth.ts';

export interface RunOptions extends ContextRunOptions {
  /** Script-protocol action for protocol scripts; defaults to the first action the skill declares. */
  action?: string;
  /**
   * Run this script of the skill instead of its entry: `compare`, `compare.py` or a tool id. A tool id
   * as the skill name (`skill:<name>:<script>`) does the same (docs/runtime.md#tool-ids).
   */
  script?: string;
  /** Overrides the manifest's `timeoutMs`: a deadline for the whole run, retries included (at most 10 minutes). */
  timeoutMs?: number;
  /** Overrides the manifest's `retry`: extra tries after a retryable failure, at most 5 (docs/runtime.md#retries). */
  retry?: number;
  /**
   * Run script and module entries without the bubblewrap sandbox. Off by default: without
   * bubblewrap a run is refused (SANDBOX_UNAVAILABLE) unless this is set. Unconfined, a skill can
   * read your files, use the network and see other processes; only the timeout, output cap and
   * environment allowlist still apply. See docs/security.md#what-the-runner-guarantees.
   */
  unsandboxed?: boolean;
  /**
   * The memory limit in MB for a skill that declares no `security.memory_mb`: 2048 by default
   * (DEFAULT_MEMORY_MB), 0 for none. A declared `memory_mb` always wins. Enforced in the sandbox only.
   */
  defaultMemoryMb?: number;
  /** The most processes and threads one run may have at once: 256 by default (DEFAULT_MAX_PROCESSES), 0 for no limit. Not enforced for a runner started as root. */
  maxProcesses?: number;
  /** Stops the run: its processes are killed, its run folder removed, and the outcome is CANCELLED. */
  signal?: AbortSignal;
  /** Run a skill the registry's scanner failed, and do not warn about `warn` verdicts. */
  allowUnsafe?: boolean;
  /** Extra environment variables for the skill process, on top of the allowlist. Nothing else is inherited. */
  env?: Record<string, string>;
  /** Sets SKILL_DEBUG=1 for the skill process. */
  debug?: boolean;
  /** The model for llm-mode skills; defaults to the SKILLDEX_LLM_* environment. */
  llm?: ChatProvider;
  /**
   * Receives the skill's stderr (logs, progress) as it arrives, with control characters other
   * than tab and line feed made visible (ESC as ␛), so it can go straight to a terminal.
   */
  onStderr?: (text: string) => void;
}

/** What the runtime needs from a registry to run skills; `NodeRegistry` provides it. */
export interface RunHost {
  find(name: string): { name: string } | undefined;
  manifest(name: string): Promise<SkillManifest>;
  /** Holds the default memory and session stores and the results cache; without one, none is kept on disk. */
  cacheDir?: string;
  /** A verified installed copy to execute from. */
  runnableDir(name: string): Promise<string>;
  /** prompt.md text (verified) for llm skills whose manifest does not inline it. */
  fileText(name: string, path: string): Promise<string>;
  /** The hint for a name no skill has ("did you mean …"). */
  notFoundHint?(name: string): string;
}

/** Errors worth another try: the same input may well succeed the next time. */
const RETRYABLE = new Set(['TIMEOUT', 'INTERNAL_ERROR', 'EXTERNAL_SERVICE_ERROR', 'INVALID_OUTPUT']);
/** Composite pipelines nest; past this depth something is wrong even without a cycle. */
const MAX_DEPTH = 16;

const errorOutcome = (error: ProtocolError, extras: Omit<SkillExecutionOutcome, 'output'> = {}): SkillExecutionOutcome => ({
  ...extras,
  output: null,
  status: 'error',
  message: error.message,
  error,
});

/**
 * What the registry served and the client refused: a manifest in a shape no honest build writes,
 * a path that leaves the registry, more bytes than declared, a redirect elsewhere, an index that
 * fails its signature. Retrying gets the same bytes, so each is `VERIFICATION_FAILED`, not an
 * internal (retryable) error; `details.registryCode` keeps the registry client's own code.
 */
const REFUSED_FROM_REGISTRY: ReadonlySet<string> = new Set([
  'VERIFICATION_FAILED', 'MANIFEST_INVALID', 'MANIFEST_TOO_LARGE', 'INVALID_PATH', 'RESPONSE_TOO_LARGE', 'REDIRECT_REFUSED', 'INDEX_INVALID',
  'INDEX_VERSION_UNSUPPORTED', 'VERSIONS_INVALID', 'INDEX_UNSIGNED', 'SIGNATURE_INVALID', 'INDEX_ROLLBACK',
]);

const fromRegistryError = (error: unknown): ProtocolError => {
  if (error instanceof RegistryError) {
    const code =
      error.code === 'SKILL_NOT_FOUND' ? error.code
      : REFUSED_FROM_REGISTRY.has(error.code) ? 'VERIFICATION_FAILED'
      : error.code === 'FETCH_FAILED' ? 'EXTERNAL_SERVICE_ERROR'
      : 'INTERNAL_ERROR';
    return { code, message: error.message, details: { registryCode: error.code, ...(error.hint ? { hint: error.hint } : {}), ...(error.details ? { problems: error.details } : {}) } };
  }
  return { code: 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error) };
};

/** Protocol skills may describe the whole script-protocol request (`{action, params}`) as their input schema. */
const describesRequest = (manifest: SkillManifest): boolean => Boolean((manifest.inputSchema?.properties as Record<string, unknown> | undefined)?.action);
/** … and the whole envelope (`{success, data, error}`) as their output schema. */
const describesEnvelope = (manifest: SkillManifest): boolean => Boolean((manifest.outputSchema?.properties as Record<string, unknown> | undefined)?.success);

/** The action a protocol run sends: explicit, else the skill's first declared one, else `run`. */
export const defaultAction = (manifest: SkillManifest, explicit?: string): string => explicit ?? manifest.actions?.[0]?.name ?? 'run';

/**
 * Runs a skill by name and returns a SkillExecutionOutcome (docs/runtime.md) — never throws for a skill
 * failure; the outcome carries `status: 'error'` and a script-protocol error code instead.
 *
 * Order: find the skill and its manifest; refuse a failed scan (BLOCKED_BY_SCAN) unless
 * `allowUnsafe`; validate the input (MISSING_PARAM / INVALID_PARAM, defaults applied); dispatch by
 * mode with the manifest's timeout, retrying retryable failures `retry` times; validate the output
 * (INVALID_OUTPUT).
 */
export async function runSkill(host: RunHost, name: string, input: unknown, given: RunOptions = {}, stack: readonly string[] = []): Promise<SkillExecutionOutcome> {
  const options = withContextServices(host.cacheDir, given);
  let manifest: SkillManifest;
  const tool = parseToolId(name);
  const script = options.script ?? tool?.script;
  // A tool id's skill is found by its name; the script part is checked against the manifest
  // below, which names the tools the skill has (or refuses a path-like part as INVALID_PARAM).
  const skill = tool?.name ?? name;
  try {
    // An earlier version is installed to be used (`skilldex install name@1.0.0`); run takes the current one.
    const at = name.indexOf('@');
    if (at > 0 && host.find(name.slice(0, at))) {
      return errorOutcome({ code: 'INVALID_PARAM', message: `run runs the current version of a skill; '${name}' names another`, details: { hint: `run ${name.slice(0, at)}, or install '${name}' and run its scripts from the installed folder` } });
    }
    if (!host.find(skill)) {
      const hint = stack.length > 0 ? undefined : host.notFoundHint?.(name);
      return errorOutcome({ code: 'SKILL_NOT_FOUND', message: stack.length > 0 ? `${stack.at(-1)} calls '${name}', which is not in the registry` : `no skill named '${name}' in the registry`, ...(hint ? { details: { hint } } : {}) });
    }
    manifest = await host.manifest(skill);
    if (script !== undefined) {
      const selected = await manifestForScript(manifest, script, (path) => host.fileText(manifest.name, path));
      if (!('name' in selected)) return errorOutcome(selected);
      manifest = selected;
    }
  } catch (error) {
    return errorOutcome(fromRegistryError(error));
  }
  if (stack.includes(manifest.name)) {
    return errorOutcome({ code: 'INTERNAL_ERROR', message: `composite cycle: ${[...stack, manifest.name].join(' → ')}`, details: { cycle: [...stack, manifest.name] } });
  }
  if (stack.length >= MAX_DEPTH) return errorOutcome({ code: 'INTERNAL_ERROR', message: `composite nesting deeper than ${MAX_DEPTH}: ${stack.join(' → ')}` });

  const typed = applyPackageType(manifest);
  manifest = typed.manifest;
  const warnings: string[] = [...typed.warnings];
  const verdict = manifest.scan?.verdict;
  if (verdict === 'fail' && !options.allowUnsafe) {
    const rules = [...new Set((manifest.scan?.findings ?? []).filter((f) => f.severity === 'critical' || f.severity === 'high').map((f) => `${f.rule} (${f.file}:${f.line})`))];
    return errorOutcome({ code: 'BLOCKED_BY_SCAN', message: `${manifest.name} failed the registry's security scan${rules.length ? `: ${rules.slice(0, 5).join(', ')}` : ''}`, details: { hint: 'read the findings with `skilldex info`; pass allowUnsafe (--allow-unsafe) only if you trust it' } });
  }
  if ((verdict === 'warn' || verdict === 'review') && !options.allowUnsafe) warnings.push(`${manifest.name}: the security scan verdict is '${verdict}'; see \`skilldex info ${manifest.name}\``);

  const protocol = manifest.mode === 'code' && manifest.entry?.runner === 'protocol';
  let rawInput = input ?? {};
  let action = defaultAction(manifest, options.action);
  if (protocol && describesRequest(manifest)) {
    const given = rawInput as Record<string, unknown>;
    // Accept either the full request or just the params with --action.
    if (options.action !== undefined || typeof given?.action !== 'string') rawInput = { action, params: given };
    else action = given.action as string;
  }
  // The action is checked before the input: a schema that enumerates actions would otherwise
  // report an unknown action as a mere INVALID_PARAM. A skill that declares no actions gets the
  // action as given: its script answers UNKNOWN_ACTION itself, as the script protocol has it.
  if (protocol && manifest.actions && manifest.actions.length > 0 && !manifest.actions.some((a) => a.name === action)) {
    return errorOutcome({ code: 'UNKNOWN_ACTION', message: `${manifest.name} has no action '${action}'; it supports ${manifest.actions.map((a) => a.name).join(', ')}`, details: { supported_actions: manifest.actions.map((a) => a.name) } }, { warnings });
  }
  // NaN, a fraction or a negative count made no try at all ("not run"), and a NaN deadline fired at once.
  if (options.timeoutMs !== undefined && !(Number.isInteger(options.timeoutMs) && options.timeoutMs >= 1)) {
    return errorOutcome({ code: 'INVALID_PARAM', message: `timeoutMs must be a whole number of milliseconds, at least 1, not ${String(options.timeoutMs)}` }, { warnings });
  }
  if (options.retry !== undefined && !(Number.isInteger(options.retry) && options.retry >= 0)) {
    return errorOutcome({ code: 'INVALID_PARAM', message: `retry must be a whole number of extra tries, 0 to ${MAX_RETRY}, not ${String(options.retry)}` }, { warnings });
  }
  // Each goes onto a shell command line as a number: anything else would fail every run with exit code 125.
  for (const [option, value, max] of [['defaultMemoryMb', options.defaultMemoryMb, MAX_MEMORY_MB], ['maxProcesses', options.maxProcesses, 65_536]] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 0 && value <= max)) {
      return errorOutcome({ code: 'INVALID_PARAM', message: `${option} must be a whole number from 0 (no limit) to ${max}, not ${String(value)}` }, { warnings });
    }
  }
  // The request the process reads is JSON text of these too, and JSON.stringify recurses per level.
  for (const [what, value] of [['context', options.context], ['config', options.config]] as const) {
    if (valueDepthExceeds(value, MAX_JSON_DEPTH)) return errorOutcome({ code: 'INVALID_PARAM', message: `the ${what} nests deeper than ${MAX_JSON_DEPTH} levels` }, { warnings });
  }
  const checked = checkInput(manifest.inputSchema, rawInput);
  if (!checked.ok) return errorOutcome(checked.error, { warnings });
  const validInput = checked.value;
  const cache = runCache(host.cacheDir, manifest, options, { input: validInput, action: protocol ? action : undefined });
  const cached = await cache?.lookup();
  if (cached) return warnings.length > 0 ? { ...cached, warnings: [...warnings, ...(cached.warnings ?? [])] } : cached;

  // Clamped again here: a registry built before the schema bounds (or a hostile one) may ask for more.
  const timeoutMs = Math.min(options.timeoutMs ?? manifest.timeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
  const retry = Math.max(0, Math.min(options.retry ?? manifest.retry, MAX_RETRY));
  // llm mode repairs its own replies (see runLlm), so the generic loop does not repeat it.
  const tries = manifest.mode === 'llm' ? 1 : 1 + retry;
  // Fetching and verifying the skill's files is the registry's time, not the skill's: its deadline
  // starts once they are on disk, so a slow download (or a busy machine) never kills a run before
  // its process has started. A pipeline's own deadline still covers its steps' downloads.
  let skillDir: string | undefined;
  if (manifest.mode === 'code' || (manifest.mode === 'composite' && !manifest.pipeline?.length && manifest.entry)) {
    try {
      skillDir = await host.runnableDir(manifest.name);
    } catch (error) {
      return errorOutcome(fromRegistryError(error), warnings.length > 0 ? { warnings } : {});
    }
  }
  // One deadline for the whole run: every try gets only what is left of it.
  let started = performance.now();
  let entryStarted = false;
  const remaining = (): number => Math.max(0, Math.round(timeoutMs - (performance.now() - started)));
  const deadline = new AbortController();
  const deadlineTimer = setTimeout(() => deadline.abort(new Error(`the deadline of ${timeoutMs} ms passed`)), timeoutMs);
  // Steps of a pipeline stop with the caller and with this run's deadline.
  const stepSignal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;

  const once = async (): Promise<Attempt> => {
    switch (manifest.mode) {
      case 'instructions':
        return { ok: true, output: (manifest.instructions ?? skillMdBody(await host.fileText(manifest.name, 'SKILL.md'))).replace(/^(\r?\n)+/, ''), extras: { format: 'markdown', message: `${manifest.name} is an instructions skill: there is nothing to execute; follow the instructions in the output` } };
      case 'llm': {
        const prompt = manifest.prompt ?? (await host.fileText(manifest.name, 'prompt.md'));
        return runLlm(manifest, prompt, validInput, options.llm ?? providerFromEnv(), remaining(), retry, options.signal);
      }
      case 'composite':
        if (manifest.pipeline && manifest.pipeline.length > 0) {
          return runPipelineWithin(remaining(), timeoutMs, manifest.name, stepSignal, options.signal, (signal) => runPipeline(manifest, validInput, (callee, stepInput) => runSkill(host, callee, stepInput, { ...options, action: undefined, script: undefined, timeoutMs: undefined, retry: undefined, signal }, [...stack, manifest.name])));
        }
        if (!manifest.entry) return failed('INTERNAL_ERROR', `${manifest.name} is composite but has neither a pipeline nor an entry`);
        return runEntry(validInput);
      case 'code':
        return runEntry(validInput);
    }
  };
  const runEntry = async (value: unknown): Promise<Attempt> => {
    if (skillDir === undefined) return failed('INTERNAL_ERROR', `${manifest.name} has no entry to run`);
    const entry = entryFile(manifest, skillDir);
    if (typeof entry !== 'string') return entry;
    let sandbox;
    try {
      sandbox = await createRunSandbox(skillDir, { debug: options.debug, env: options.env, policy: manifest.security, language: manifest.entry?.language, unsandboxed: options.unsandboxed, defaultMemoryMb: options.defaultMemoryMb, maxProcesses: options.maxProcesses });
    } catch (error) {
      if (error instanceof SandboxError) return failed(error.code, `${manifest.name}: ${error.message}`, { hint: error.hint });
      throw error;
    }
    // The same for the first sandbox: probing bubblewrap and the interpreter is the runtime's setup.
    if (!entryStarted) {
      entryStarted = true;
      started = performance.now();
      // Said once the entry is about to start, not before: a run refused earlier never ran at all.
      if (options.unsandboxed) warnings.push(`${manifest.name} ran unconfined (unsandboxed): it could read your files, use the network and see other processes`);
    }
    try {
      const run = { manifest, skillDir, sandbox, timeoutMs: remaining(), deadlineMs: timeoutMs, onStderr: options.onStderr, signal: options.signal, services: options };
      if (manifest.entry?.runner === 'protocol') {
        const request = describesRequest(manifest) ? (value as { action: string; params?: Record<string, unknown> }) : { action, params: value as Record<string, unknown> };
        return await runProtocolEntry(run, { action: request.action, params: request.params ?? {}, context: options.context ?? {} });
      }
      return await runModuleEntry(run, value, options.context ?? {}, options.config ?? {});
    } finally {
      await sandbox.dispose();
    }
  };

  let attempt: Attempt = failed('INTERNAL_ERROR', 'not run');
  for (let n = 1; n <= tries; n += 1) {
    if (options.signal?.aborted) {
      attempt = failed('CANCELLED', `${manifest.name} was stopped before try ${n}`);
      break;
    }
    if (n > 1 && remaining() === 0) {
      attempt = failed('TIMEOUT', `${manifest.name} did not finish within ${timeoutMs} ms (${n - 1} of ${tries} tries made; the timeout covers retries)`, attempt.ok ? undefined : { last: attempt.error });
      break;
    }
    try {
      attempt = await once();
    } catch (error) {
      attempt = { ok: false, error: fromRegistryError(error) };
    }
    if (attempt.ok) {
      const check = describesEnvelope(manifest) && attempt.envelope ? checkOutput(manifest.outputSchema, attempt.envelope) : manifest.mode === 'llm' ? { ok: true as const, value: attempt.output } : checkOutput(manifest.outputSchema, attempt.output);
      if (check.ok) break;
      attempt = { ok: false, error: check.error, extras: attempt.extras };
    }
    if (!RETRYABLE.has(attempt.error.code) || n === tries) break;
    warnings.push(`try ${n} of ${tries} failed with ${attempt.error.code}: ${attempt.error.message}`);
  }
  clearTimeout(deadlineTimer);

  const extras = attempt.extras ?? {};
  const allWarnings = [...warnings, ...(extras.warnings ?? [])];
  const common = { ...extras, ...(allWarnings.length > 0 ? { warnings: allWarnings } : {}) };
  if (!attempt.ok) return errorOutcome(attempt.error, common);
  const format = extras.format ?? (typeof attempt.output === 'string' ? 'text' : 'object');
  const outcome = await commitOutcomeMemory({ ...common, output: attempt.output, status: extras.status ?? 'success', format }, manifest, options);
  return cache ? cache.store(outcome) : outcome;
}

/**
 * Bounds a whole pipeline by what is left of the composite skill's own deadline. When it passes, the
 * running step is cancelled through its signal (its processes are killed, its run folder removed)
 * and awaited, so nothing of the pipeline outlives its TIMEOUT and the trace shows where it stopped.
 * A stop by the caller stays CANCELLED.
 */
async function runPipelineWithin(leftMs: number, timeoutMs: number, name: string, runSignal: AbortSignal, caller: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<Attempt>): Promise<Attempt> {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(new Error(`the deadline of ${name} (${timeoutMs} ms) passed`)), leftMs);
  try {
    const result = await work(AbortSignal.any([runSignal, stop.signal]));
    if ((stop.signal.aborted || runSignal.aborted) && !caller?.aborted) {
      return { ok: false, error: { code: 'TIMEOUT', message: `${name} did not finish its pipeline within ${timeoutMs} ms; the running step was stopped` }, extras: result.extras };
    }
    return result;
  } finally {
    clearTimeout(timer);
  }
}
