import { fileURLToPath } from 'node:url';
import { resolve, sep } from 'node:path';
import { siblingModule } from '../../core/module-file.ts';
import type { SkillManifest } from '../../core/schemas/manifest.ts';
import { ProtocolEnvelope, type ProtocolRequest, SkillExecutionOutcome } from '../../core/schemas/outcome.ts';
import { type Attempt, failed } from './attempt.ts';
import { runBoundedProcess } from './bounded-process.ts';
import type { RunSandbox } from './run-sandbox.ts';

const HARNESS = fileURLToPath(siblingModule(import.meta.url, './module-harness'));

/**
 * Node's permission model for Node-run entries: read the skill and the run folder, write only the
 * run folder, no child processes or workers. (It cannot restrict Python or sh; those rely on the
 * process-group, output, environment and cwd limits alone; see docs/script-protocol.md.)
 */
const nodePermissionArgs = (skillDir: string, sandbox: RunSandbox, extraRead: string[] = []): string[] => [
  '--permission',
  `--allow-fs-read=${skillDir}`,
  `--allow-fs-read=${sandbox.cwd}`,
  ...extraRead.map((path) => `--allow-fs-read=${path}`),
  `--allow-fs-write=${sandbox.cwd}`,
  '--disable-warning=ExperimentalWarning',
];

/** The interpreter for a script, by the language the build detected. */
function interpreter(language: string, script: string, skillDir: string, sandbox: RunSandbox): { command: string; args: string[] } {
  switch (language) {
    case 'python':
      return { command: 'python3', args: [script] };
    case 'shell':
      return { command: 'sh', args: [script] };
    default:
      return { command: process.execPath, args: [...nodePermissionArgs(skillDir, sandbox), script] };
  }
}

const tail = (text: string, n = 400): string => (text.length > n ? `…${text.slice(-n)}` : text).trim();

export interface EntryRun {
  manifest: SkillManifest;
  /** Verified installed copy. */
  skillDir: string;
  sandbox: RunSandbox;
  timeoutMs: number;
  onStderr?: (text: string) => void;
}

/** Resolves the entry inside the skill folder; a manifest path that escapes it is refused. */
function entryPath(run: EntryRun): string | Attempt {
  const entry = run.manifest.entry;
  if (!entry) return failed('INTERNAL_ERROR', `${run.manifest.name} has mode '${run.manifest.mode}' but no entry to run`);
  const abs = resolve(run.skillDir, entry.path.replace(/^\.\//, ''));
  if (!abs.startsWith(run.skillDir + sep)) return failed('PERMISSION_DENIED', `${run.manifest.name}: entry '${entry.path}' is outside the skill folder`);
  return abs;
}

/** Turns a finished process into an attempt: limits first, then the one JSON envelope on stdout. */
async function execute(run: EntryRun, command: string, args: string[], stdin: string): Promise<Attempt> {
  const result = await runBoundedProcess({ command, args, cwd: run.sandbox.cwd, env: run.sandbox.env, stdin, timeoutMs: run.timeoutMs, onStderr: run.onStderr });
  const name = run.manifest.name;
  if (result.spawnError) return failed('INTERNAL_ERROR', `${name}: cannot start ${command}: ${result.spawnError.message}`, { hint: `install ${command} or put it on PATH` });
  if (result.timedOut) return failed('TIMEOUT', `${name} did not finish within ${run.timeoutMs} ms; its process group was killed`, { stderr: tail(result.stderr) });
  if (result.outputTooLarge) return failed('OUTPUT_TOO_LARGE', `${name} wrote more than 10 MB to stdout and stderr; its process group was killed`);
  const text = result.stdout.trim();
  const status = result.signal ? `signal ${result.signal}` : `exit code ${result.exitCode}`;
  if (text === '') return failed('INVALID_OUTPUT', `${name} printed nothing on stdout (${status})`, { stderr: tail(result.stderr) });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return failed('INVALID_OUTPUT', `${name} printed something other than one JSON envelope on stdout (${status}): ${JSON.stringify(text.slice(0, 200))}`, {
      stderr: tail(result.stderr),
      hint: 'stdout carries exactly one JSON envelope; logs and progress go to stderr (docs/script-protocol.md)',
    });
  }
  const envelope = ProtocolEnvelope.safeParse(json);
  if (!envelope.success) {
    return failed('INVALID_OUTPUT', `${name} printed JSON that is not a script-protocol envelope ({success, data} or {success: false, error: {code, message}})`, { stdout: text.slice(0, 400) });
  }
  const value = envelope.data;
  if (value.success === false) return { ok: false, error: value.error };
  const extras = value.message === undefined ? undefined : { message: value.message };
  return { ok: true, output: value.data, envelope: json as Record<string, unknown>, extras };
}

/**
 * Runs a script-protocol entry: `{action, params, context}` on stdin, one envelope on stdout.
 *
 * @example
 * await runProtocolEntry(run, { action: 'parse', params: { version: '1.2.3' } });
 */
export async function runProtocolEntry(run: EntryRun, request: ProtocolRequest): Promise<Attempt> {
  const script = entryPath(run);
  if (typeof script !== 'string') return script;
  const { command, args } = interpreter(run.manifest.entry?.language ?? 'shell', script, run.skillDir, run.sandbox);
  return execute(run, command, args, JSON.stringify(request));
}

/**
 * Runs a module entry (`execute` export) through the harness in a child Node process.
 * `skill-json` modules return the output; extended `package` modules return a SkillExecutionOutcome.
 */
export async function runModuleEntry(run: EntryRun, input: unknown, context: Record<string, unknown>, config: Record<string, unknown>): Promise<Attempt> {
  const entry = entryPath(run);
  if (typeof entry !== 'string') return entry;
  const convention = run.manifest.format === 'package' ? 'outcome' : 'function';
  const request = { entry, convention, input, context, config, skill: { name: run.manifest.name, version: run.manifest.version } };
  const args = [...nodePermissionArgs(run.skillDir, run.sandbox, [HARNESS]), HARNESS];
  const attempt = await execute(run, process.execPath, args, JSON.stringify(request));
  if (!attempt.ok || convention === 'function') return attempt;
  const outcome = SkillExecutionOutcome.safeParse(attempt.output);
  if (!outcome.success) return failed('INVALID_OUTPUT', `${run.manifest.name}: execute() did not return a SkillExecutionOutcome ({output, status?, …})`);
  const { output, ...extras } = outcome.data;
  if (extras.status === 'error') return { ok: false, error: extras.error ?? { code: 'INTERNAL_ERROR', message: extras.message ?? 'execute() reported an error' }, extras };
  return { ok: true, output, extras };
}
