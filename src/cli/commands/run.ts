import { readFile } from 'node:fs/promises';
import { defineCommand } from 'citty';
import { toProtocolEnvelope } from '../../runtime/protocol-envelope.ts';
import { defaultAction } from '../../runtime/node/run.ts';
import { MAX_TIMEOUT_MS } from '../../core/schemas/run-limits.ts';
import { runLimitArgs, runLimitsFromArgs } from '../_run-limits.ts';
import { CliError, EXIT, systemReason } from '../_errors.ts';
import { outJson, withLocalDocs } from '../_output.ts';
import { openRegistryFromArgs, registryArgs } from '../_registry.ts';

async function readInput(args: { input?: string; 'input-file'?: string }): Promise<unknown> {
  if (args.input !== undefined && args['input-file'] !== undefined) {
    throw new CliError('E_USAGE', '--input and --input-file cannot be combined', { exitCode: EXIT.usage, hint: 'give the input inline (--input) or from a file (--input-file), not both' });
  }
  let text = args.input;
  let source = '--input';
  if (args['input-file']) {
    source = args['input-file'];
    if (args['input-file'] === '-') {
      text = '';
      for await (const chunk of process.stdin) text += chunk;
    } else {
      text = await readFile(args['input-file'], 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new CliError('E_USAGE', `cannot read --input-file ${args['input-file']}: ${systemReason(error) ?? error.message}`, { exitCode: 2, hint: "give the path of a readable file holding the input as JSON, or '-' to read it from stdin" });
      });
    }
  }
  if (text === undefined || text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    // `--input @file` reads a file for --context and --config; for the input, that is --input-file.
    const hint = source === '--input' && text.startsWith('@') ? `to read the input from a file, pass --input-file ${text.slice(1)}` : `quote it for the shell: --input '{"key": "value"}', or put it in a file and pass --input-file`;
    throw new CliError('E_INVALID_JSON', `${source} is not JSON: ${(error as Error).message}`, { exitCode: 2, hint });
  }
}

/**
 * `--context` / `--config`: a JSON object given inline or, as `@path`, read from a file. Anything
 * else is a usage error (exit 2) naming the flag and where the text came from.
 */
async function readObjectArg(flag: string, value: string | undefined): Promise<Record<string, unknown> | undefined> {
  if (value === undefined) return undefined;
  let text = value;
  let source = `--${flag}`;
  if (value.startsWith('@')) {
    source = value.slice(1);
    text = await readFile(source, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new CliError('E_USAGE', `cannot read --${flag} ${value}: ${systemReason(error) ?? error.message}`, { exitCode: 2, hint: `give a JSON object inline (--${flag} '${flag === 'context' ? '{"user_id": "u1"}' : '{"key": "value"}'}') or a readable file as @path` });
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    const line = position === undefined ? undefined : text.slice(0, Number(position)).split('\n').length;
    const where = source === `--${flag}` ? '' : `${source}${line === undefined ? '' : `:${line}`}: `;
    throw new CliError('E_INVALID_JSON', `${where}--${flag} is not JSON: ${(error as Error).message}`, { exitCode: 2, hint: `quote it for the shell: --${flag} '{"key": "value"}', or put it in a file and pass @file.json` });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    const where = source === `--${flag}` ? '' : `${source}: `;
    throw new CliError('E_USAGE', `${where}--${flag} must be a JSON object, not ${Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : typeof parsed}`, { exitCode: 2, hint: `wrap the values in an object: --${flag} '{"key": "value"}'` });
  }
  return parsed as Record<string, unknown>;
}

export default defineCommand({
  meta: { name: 'run', description: 'Run a skill from a verified copy, confined by bubblewrap (docs/security.md), and print its SkillExecutionOutcome (or, with --protocol, an envelope of the script protocol: docs/script-protocol.md)' },
  args: {
    name: { type: 'positional', description: 'Skill name (case-insensitive) or tool id (skill:<name>:<script>)', required: true },
    input: { type: 'string', description: "Input as JSON, e.g. '{\"text\": \"…\"}'" },
    'input-file': { type: 'string', description: 'Read the input JSON from a file (- for stdin)' },
    action: { type: 'string', description: 'Script-protocol action (default: the first the skill declares)' },
    tool: { type: 'string', description: 'Call this ABP tool of the skill (abp.tools): --input holds its arguments; prints the ABP result {id, tool, result|error}' },
    'call-id': { type: 'string', description: 'With --tool: the call id echoed in the result (default: abp_<uuid>)' },
    context: { type: 'string', description: "Run context as a JSON object or @file (user_id, request_id…; docs/context.md)", valueHint: 'json|@file' },
    config: { type: 'string', description: "A package's config (third argument of execute) as a JSON object or @file", valueHint: 'json|@file' },
    session: { type: 'string', description: 'Session id: ctx.session keeps its values across runs with the same id (docs/context.md)' },
    cache: { type: 'boolean', description: 'Use the results cache for cacheable skills; --no-cache runs the skill again and stores nothing', default: true },
    protocol: { type: 'boolean', description: 'Print the script-protocol envelope {success, action, data|error, metadata}', default: false },
    timeout: { type: 'string', description: `Milliseconds for the whole run, retries included (at most ${MAX_TIMEOUT_MS}); overrides the skill's timeout` },
    unsandboxed: { type: 'boolean', description: 'Run without the bubblewrap sandbox: the skill can then read your files and use the network (see docs/security.md)', default: false },
    ...runLimitArgs,
    'allow-unsafe': { type: 'boolean', description: 'Run even if the registry scan failed the skill', default: false },
    debug: { type: 'boolean', description: 'Set SKILL_DEBUG=1 for the skill', default: false },
    quiet: { type: 'boolean', description: "Do not pass the skill's stderr (logs, progress) through", default: false },
    ...registryArgs,
  },
  async run({ args }) {
    const input = await readInput(args);
    const context = await readObjectArg('context', args.context);
    const config = await readObjectArg('config', args.config);
    if (args.session !== undefined && (args.session === '' || args.session.length > 256)) throw new CliError('E_USAGE', '--session must be 1 to 256 characters', { exitCode: 2 });
    const timeoutMs = args.timeout === undefined ? undefined : Number(args.timeout);
    if (timeoutMs !== undefined && (!Number.isInteger(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMEOUT_MS)) {
      throw new CliError('E_USAGE', `--timeout must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`, { exitCode: 2, hint: 'e.g. --timeout 60000 for one minute' });
    }
    const runLimits = runLimitsFromArgs(args);
    const registry = await openRegistryFromArgs(args);
    const started = performance.now();
    // Ctrl-C or SIGTERM stops the skill (its processes are killed, its run folder removed) and
    // still prints the CANCELLED outcome; a second signal exits at once.
    const controller = new AbortController();
    let received: NodeJS.Signals | undefined;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (received) process.exit(signal === 'SIGINT' ? 130 : 143);
      received = signal;
      controller.abort(new Error(`skilldex run received ${signal}`));
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    if (args.tool === undefined && args['call-id'] !== undefined) throw new CliError('E_USAGE', '--call-id needs --tool', { exitCode: 2 });
    if (args.tool !== undefined && (args.action !== undefined || args.protocol)) throw new CliError('E_USAGE', '--tool cannot be combined with --action or --protocol: the tool picks the action and the answer is an ABP result', { exitCode: 2 });
    // What a tool call and a run share: the caller's context and config, session, cache, limits.
    const runOptions = {
      ...(context ? { context } : {}),
      ...(config ? { config } : {}),
      ...(args.session === undefined ? {} : { sessionId: args.session }),
      cache: args.cache !== false,
      timeoutMs,
      allowUnsafe: args['allow-unsafe'],
      unsandboxed: args.unsandboxed,
      ...runLimits,
      debug: args.debug,
      signal: controller.signal,
      onStderr: args.quiet ? undefined : (text: string) => process.stderr.write(text),
    };
    let outcome;
    try {
      if (args.tool !== undefined) {
        const call = await registry.callTool(String(args.name), String(args.tool), input, { callId: args['call-id'], ...runOptions });
        outJson(call);
        if (received) return received === 'SIGINT' ? 130 : 143;
        return call.error ? EXIT.failure : EXIT.ok;
      }
      outcome = await registry.run(String(args.name), input, { action: args.action, ...runOptions });
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    const hint = (outcome.error?.details as { hint?: unknown } | undefined)?.hint;
    if (outcome.error?.code === 'SANDBOX_UNAVAILABLE' || outcome.error?.code === 'INTERPRETER_NOT_FOUND') {
      process.stderr.write(`skilldex run: ${outcome.error.message}\n${typeof hint === 'string' ? `  hint: ${withLocalDocs(hint)}\n` : ''}`);
    }
    const manifest = registry.find(String(args.name)) ? await registry.manifest(String(args.name)) : undefined;
    const action = manifest ? defaultAction(manifest, args.action ?? ((input as { action?: unknown })?.action as string | undefined)) : (args.action ?? 'run');
    outJson(args.protocol ? toProtocolEnvelope(outcome, action, Math.round(performance.now() - started)) : outcome);
    if (received) return received === 'SIGINT' ? 130 : 143;
    return outcome.status === 'error' ? EXIT.failure : EXIT.ok;
  },
});
