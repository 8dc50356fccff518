import { resolve, sep } from 'node:path';
import type { SkillManifest } from '../../core/schemas/manifest.ts';
import { ProtocolEnvelope, type ProtocolRequest, SkillErrorCode, SkillExecutionOutcome } from '../../core/schemas/outcome.ts';
import type { ContextServices } from '../context-services.ts';
import { type Attempt, failed } from './attempt.ts';
import { runBoundedProcess } from './bounded-process.ts';
import { visibleControls } from '../../core/control-chars.ts';
import { bracketDepthExceeds, MAX_JSON_DEPTH } from '../../core/json-depth.ts';
import { type RunSandbox, type SpawnPlan, skillPath } from './run-sandbox.ts';
import { serveContextChannel } from './service-channel.ts';

const tail = (text: string, n = 400): string => (text.length > n ? `…${text.slice(-n)}` : text).trim();

export interface EntryRun {
  manifest: SkillManifest;
  /** Verified installed copy. */
  skillDir: string;
  sandbox: RunSandbox;
  /** What is left of the run's deadline for this try: the process is killed when it passes. */
  timeoutMs: number;
  /** The run's whole timeout, which a timeout message names (what is left of it is a millisecond or more less). */
  deadlineMs: number;
  /** The script's stderr as it arrives, with its control characters made visible ({@link terminalSafe}). */
  onStderr?: (text: string) => void;
  /** Aborts the process (interrupted caller, or the run's deadline). */
  signal?: AbortSignal;
  /** Served to the process over its service channel (docs/context.md). */
  services?: ContextServices;
}

/**
 * The manifest's entry as a path in `skillDir`, or why it cannot run: there is none, its path
 * escapes the skill folder, or it is not one of the verified files. Checked before a sandbox is
 * made, so a refused run neither starts anything nor says it ran.
 */
export function entryFile(manifest: SkillManifest, skillDir: string): string | Attempt {
  const entry = manifest.entry;
  if (!entry) return failed('INTERNAL_ERROR', `${manifest.name} has mode '${manifest.mode}' but no entry to run`);
  const abs = resolve(skillDir, entry.path.replace(/^\.\//, ''));
  if (!abs.startsWith(skillDir + sep)) return failed('PERMISSION_DENIED', `${manifest.name}: entry '${entry.path}' is outside the skill folder`);
  // Only a verified file runs: an entry the manifest does not list would start an interpreter on nothing.
  const relativePath = abs.slice(skillDir.length + 1).split(sep).join('/');
  if (!manifest.files.some((file) => file.path === relativePath)) {
    return failed('VERIFICATION_FAILED', `${manifest.name}: entry '${entry.path}' is not one of the skill's files`, { hint: 'the registry published an inconsistent manifest; rebuild it, or report it to its maintainers' });
  }
  return abs;
}

/** The entry as the process sees it ({@link entryFile}, then mapped into the sandbox). */
function entryPath(run: EntryRun): string | Attempt {
  const abs = entryFile(run.manifest, run.skillDir);
  return typeof abs === 'string' ? skillPath(run.sandbox, run.skillDir, abs) : abs;
}

/**
 * A relay for a script's stderr that makes its control characters visible before they reach the
 * caller, who usually writes them straight to a terminal: the skill comes from a registry, and
 * the terminal is the user's, so an escape sequence must not set its title, clear it or (OSC 52)
 * write the clipboard. A CR that ends one chunk is held back, so a CRLF split across two reads
 * still prints as a line break.
 */
function terminalSafe(onText: (text: string) => void): { write(text: string): void; end(): void } {
  let heldCr = '';
  return {
    write(text) {
      const joined = heldCr + text;
      heldCr = joined.endsWith('\r') ? '\r' : '';
      const ready = heldCr ? joined.slice(0, -1) : joined;
      if (ready !== '') onText(visibleControls(ready));
    },
    end() {
      if (heldCr) onText(visibleControls(heldCr));
      heldCr = '';
    },
  };
}

/** What to change when a run may have run out of memory: the skill's own limit, or the runner's default for a skill that declares none. */
const memoryHint = (sandbox: RunSandbox): string =>
  sandbox.memoryLimitFrom === 'default'
    ? `the skill declares no security.memory_mb, so the runner's default of ${sandbox.memoryLimitMb} MB applied to the whole process; declare memory_mb in the skill, or raise the default (skilldex run and skilldex mcp: --default-memory-mb)`
    : 'security.memory_mb limits the whole process, its interpreter included (Python needs about 16 MB to start); raise it if the skill needs more';

/** The Python traceback in a stderr tail, when there is one: the part a reader needs first. */
const traceback = (stderr: string): string | undefined => {
  const at = stderr.lastIndexOf('Traceback (most recent call last):');
  return at === -1 ? undefined : stderr.slice(at).trim();
};

/**
 * Turns a finished process into an attempt: limits first, then the exit status, then the one JSON
 * envelope on stdout. A process that exits non-zero crashed, whatever it printed: without an
 * envelope that is INTERNAL_ERROR with its stderr (the traceback) in details, and a success
 * envelope followed by a failing exit is not trusted either (the script may have died half-way
 * through its side effects). A failure envelope keeps the script's own error.
 */
async function execute(run: EntryRun, plan: SpawnPlan, stdin: string): Promise<Attempt> {
  const stderr = run.onStderr ? terminalSafe(run.onStderr) : undefined;
  const result = await runBoundedProcess({ ...plan, stdin, timeoutMs: run.timeoutMs, onStderr: stderr?.write, signal: run.signal, channel: run.services ? (socket) => serveContextChannel(socket, run.services!) : undefined });
  stderr?.end();
  const name = run.manifest.name;
  if (result.spawnError) return failed('INTERNAL_ERROR', `${name}: cannot start ${plan.command}: ${result.spawnError.message}`, { hint: `install ${plan.command} or put it on PATH` });
  if (result.aborted) return failed('CANCELLED', `${name} was stopped: ${abortReason(run.signal)}`, { stderr: tail(result.stderr) });
  if (result.timedOut) return failed('TIMEOUT', `${name} did not finish within ${run.deadlineMs} ms; its processes were killed`, { stderr: tail(result.stderr) });
  if (result.outputTooLarge) return failed('OUTPUT_TOO_LARGE', `${name} wrote more than 10 MB to stdout; its process group was killed`, { hint: 'return a reference (a file in the run folder, a URL) instead of the data itself' });
  const text = result.stdout.trim();
  const status = result.signal ? `signal ${result.signal}` : `exit code ${result.exitCode}`;
  const crashed = result.signal !== null || result.exitCode !== 0;
  // The limit covers the whole process, its interpreter included: below about 16 MB Python cannot
  // even load its libraries, and the run only said it crashed with exit code 127.
  const limit = run.sandbox.memoryLimitMb;
  const outOfMemory = limit === undefined ? '' : `; it may have run out of its ${limit} MB of memory`;
  const crash = (summary: string, extra: Record<string, unknown> = {}): Attempt => {
    const trace = traceback(result.stderr);
    return failed('INTERNAL_ERROR', `${name} ${summary} (${status})${trace ? `: ${trace.split('\n').at(-1)}` : outOfMemory}`, {
      exitCode: result.exitCode,
      signal: result.signal,
      ...(trace ? { traceback: trace } : {}),
      stderr: tail(result.stderr, 4000),
      ...(outOfMemory && !trace ? { hint: memoryHint(run.sandbox) } : {}),
      ...extra,
    });
  };
  // Counted before parsing: the envelope's checks, its output schema and every caller that prints
  // the result (JSON.stringify) recurse per level, and 200,000 nested brackets overflowed the
  // stack of `skilldex run` after the run had returned.
  if (bracketDepthExceeds(text, MAX_JSON_DEPTH) !== undefined) {
    if (crashed) return crash('crashed', { stdout: text.slice(0, 400) });
    return failed('INVALID_OUTPUT', `${name} printed JSON nested deeper than ${MAX_JSON_DEPTH} levels on stdout`, { stdout: text.slice(0, 400), hint: 'return a flatter result' });
  }
  // JSON travels as UTF-8; a Latin-1 byte would otherwise reach the result as U+FFFD, unseen.
  if (!crashed && result.stdoutNotUtf8At !== undefined) {
    return failed('INVALID_OUTPUT', `${name} printed bytes that are not UTF-8 on stdout (the first at offset ${result.stdoutNotUtf8At})`, {
      hint: 'write the envelope as UTF-8 text; send binary data base64-encoded (docs/script-protocol.md)',
    });
  }
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    if (crashed) return crash('crashed before writing its envelope', { stdout: text.slice(0, 400) });
    return failed('INVALID_OUTPUT', `${name} printed something other than one JSON envelope on stdout (${status}): ${JSON.stringify(text.slice(0, 200))}`, {
      stderr: tail(result.stderr),
      hint: 'stdout carries exactly one JSON envelope; logs and progress go to stderr (docs/script-protocol.md)',
    });
  }
  if (json === undefined) return crashed ? crash('crashed without writing an envelope') : failed('INVALID_OUTPUT', `${name} printed nothing on stdout (${status})`, { stderr: tail(result.stderr) });
  const envelope = ProtocolEnvelope.safeParse(json);
  if (!envelope.success) {
    if (crashed) return crash('crashed', { stdout: text.slice(0, 400) });
    return failed('INVALID_OUTPUT', `${name} printed JSON that is not a script-protocol envelope ({success, data} or {success: false, error: {code, message}})`, { stdout: text.slice(0, 400) });
  }
  const value = envelope.data;
  if (value.success === false) {
    // A script that reports an error with no words (Python's str(MemoryError()) is '') still tells the user something.
    if (value.error.message.trim() !== '') return { ok: false, error: value.error };
    return { ok: false, error: { ...value.error, message: `${name} reported ${value.error.code} without a message${outOfMemory}`, details: value.error.details ?? { stderr: tail(result.stderr) } } };
  }
  if (crashed) return crash('wrote a success envelope but then exited with a failure status, so its result is not trusted', { hint: 'exit with status 0 after a success envelope; report failures as {"success": false, "error": {...}}' });
  // A protocol script suggests memory writes beside `data` (checked one by one when committed).
  const memoryWrites = Array.isArray(value.memoryWrites) ? { memoryWrites: value.memoryWrites as never[] } : {};
  const extras = { ...(value.message === undefined ? {} : { message: value.message }), ...(value.metadata === undefined ? {} : { metadata: value.metadata }), ...memoryWrites };
  return { ok: true, output: value.data, envelope: json as Record<string, unknown>, extras: Object.keys(extras).length > 0 ? extras : undefined };
}

const abortReason = (signal: AbortSignal | undefined): string => {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'the run was interrupted';
};

/**
 * Runs a script-protocol entry: `{action, params, context}` on stdin, one envelope on stdout.
 *
 * @example
 * await runProtocolEntry(run, { action: 'parse', params: { version: '1.2.3' } });
 */
export async function runProtocolEntry(run: EntryRun, request: ProtocolRequest): Promise<Attempt> {
  const script = entryPath(run);
  if (typeof script !== 'string') return script;
  return execute(run, run.sandbox.plan(run.manifest.entry?.language ?? 'shell', script), JSON.stringify(request));
}

/**
 * The ABP form of a result, `{id, tool, result: {output, memoryWrites?}}`, is the `result` inside;
 * anything else is taken as a SkillExecutionOutcome as it is.
 */
const abpResult = (value: unknown): unknown => {
  const record = value as { output?: unknown; result?: { output?: unknown } } | null;
  return record && typeof record === 'object' && !('output' in record) && record.result && typeof record.result === 'object' && 'output' in record.result ? record.result : value;
};

/**
 * Runs a module entry (`execute` export) through the harness in a child Node process.
 * `skill-json` modules return the output; extended `package` modules return a SkillExecutionOutcome.
 */
export async function runModuleEntry(run: EntryRun, input: unknown, context: Record<string, unknown>, config: Record<string, unknown>): Promise<Attempt> {
  const entry = entryPath(run);
  if (typeof entry !== 'string') return entry;
  const convention = run.manifest.format === 'package' ? 'outcome' : 'function';
  const request = { entry, convention, input, context, config, skill: { name: run.manifest.name, version: run.manifest.version }, codes: SkillErrorCode.options };
  const attempt = await execute(run, run.sandbox.plan('javascript', run.sandbox.harness), JSON.stringify(request));
  if (!attempt.ok || convention === 'function') return attempt;
  const outcome = SkillExecutionOutcome.safeParse(abpResult(attempt.output));
  if (!outcome.success) return failed('INVALID_OUTPUT', `${run.manifest.name}: execute() did not return a SkillExecutionOutcome ({output, status?, …})`);
  const { output, ...extras } = outcome.data;
  if (extras.status === 'error') return { ok: false, error: extras.error ?? { code: 'INTERNAL_ERROR', message: extras.message ?? 'execute() reported an error' }, extras };
  return { ok: true, output, extras };
}
