import { readFile } from 'node:fs/promises';
import { defineCommand } from 'citty';
import { toProtocolEnvelope } from '../../runtime/protocol-envelope.ts';
import { defaultAction } from '../../runtime/node/run.ts';
import { CliError, EXIT } from '../_errors.ts';
import { outJson } from '../_output.ts';
import { openRegistryFromArgs, registryArgs } from '../_registry.ts';

async function readInput(args: { input?: string; 'input-file'?: string }): Promise<unknown> {
  let text = args.input;
  let source = '--input';
  if (args['input-file']) {
    source = args['input-file'];
    if (args['input-file'] === '-') {
      text = '';
      for await (const chunk of process.stdin) text += chunk;
    } else {
      text = await readFile(args['input-file'], 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new CliError('E_USAGE', `cannot read --input-file ${args['input-file']}: ${error.code ?? error.message}`, { exitCode: 2 });
      });
    }
  }
  if (text === undefined || text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError('E_INVALID_JSON', `${source} is not JSON: ${(error as Error).message}`, { exitCode: 2, hint: `quote it for the shell: --input '{"key": "value"}'` });
  }
}

export default defineCommand({
  meta: { name: 'run', description: 'Run a skill from a verified copy and print its SkillExecutionOutcome (or, with --protocol, an envelope of the script protocol: docs/script-protocol.md)' },
  args: {
    name: { type: 'positional', description: 'Skill name (case-insensitive)', required: true },
    input: { type: 'string', description: "Input as JSON, e.g. '{\"text\": \"…\"}'" },
    'input-file': { type: 'string', description: 'Read the input JSON from a file (- for stdin)' },
    action: { type: 'string', description: 'Script-protocol action (default: the first the skill declares)' },
    protocol: { type: 'boolean', description: 'Print the script-protocol envelope {success, action, data|error, metadata}', default: false },
    timeout: { type: 'string', description: "Milliseconds; overrides the skill's timeout" },
    'allow-unsafe': { type: 'boolean', description: 'Run even if the registry scan failed the skill', default: false },
    debug: { type: 'boolean', description: 'Set SKILL_DEBUG=1 for the skill', default: false },
    quiet: { type: 'boolean', description: "Do not pass the skill's stderr (logs, progress) through", default: false },
    ...registryArgs,
  },
  async run({ args }) {
    const input = await readInput(args);
    const timeoutMs = args.timeout === undefined ? undefined : Number(args.timeout);
    if (timeoutMs !== undefined && (!Number.isInteger(timeoutMs) || timeoutMs <= 0)) throw new CliError('E_USAGE', `--timeout must be a positive number of milliseconds`, { exitCode: 2 });
    const registry = await openRegistryFromArgs(args);
    const started = performance.now();
    const outcome = await registry.run(String(args.name), input, {
      action: args.action,
      timeoutMs,
      allowUnsafe: args['allow-unsafe'],
      debug: args.debug,
      onStderr: args.quiet ? undefined : (text) => process.stderr.write(text),
    });
    const manifest = registry.find(String(args.name)) ? await registry.manifest(String(args.name)) : undefined;
    const action = manifest ? defaultAction(manifest, args.action ?? ((input as { action?: unknown })?.action as string | undefined)) : (args.action ?? 'run');
    outJson(args.protocol ? toProtocolEnvelope(outcome, action, Math.round(performance.now() - started)) : outcome);
    return outcome.status === 'error' ? EXIT.failure : EXIT.ok;
  },
});
