import { isUtf8 } from 'node:buffer';
import { spawn, type ChildProcessWithoutNullStreams, type StdioOptions } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { Duplex, Writable } from 'node:stream';

/** The script protocol: a script's result (stdout) may not exceed 10 MB. */
export const MAX_OUTPUT_BYTES = 10 * 1024 * 1024;
/**
 * How much of stderr is kept (the tail, where a traceback ends up). Logs are not the result: they
 * stream to `onStderr` as they come and never count toward the stdout cap, so a chatty skill still
 * succeeds while memory stays bounded by this tail.
 */
const STDERR_TAIL_BYTES = 64 * 1024;

export interface BoundedProcessOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  /** The complete environment: nothing is inherited. */
  env: Record<string, string>;
  /** Written to stdin, which is then closed. */
  stdin: string;
  timeoutMs: number;
  maxOutputBytes?: number;
  /** Each stderr chunk as it arrives (progress lines, logs), decoded as UTF-8 without splitting a character. */
  onStderr?: (text: string) => void;
  /** Kills the process group when aborted (the caller was interrupted, or the run's deadline passed). */
  signal?: AbortSignal;
  /** Gives the process a socket on fd 3 and hands the runner's end to this (context services). */
  channel?: (socket: Duplex) => void;
  /**
   * Arguments written NUL-separated to a pipe on `fd` (after fd 3), then closed, for a command that
   * reads its options from there (`bwrap --args 4`): a process's command line is readable by others.
   */
  argsOnFd?: { fd: number; args: readonly string[] };
}

export interface BoundedProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /**
   * Where stdout stops being UTF-8: the offset of its first byte that is not part of a valid
   * sequence. Such bytes read as U+FFFD in `stdout`, which would change the result unseen.
   */
  stdoutNotUtf8At?: number;
  /** The last 64 KB of stderr. */
  stderr: string;
  /** Every byte the process wrote to stderr, including what the tail dropped. */
  stderrBytes: number;
  timedOut: boolean;
  /** The caller's signal aborted the run. */
  aborted: boolean;
  outputTooLarge: boolean;
  /** The spawn itself failed (e.g. interpreter not installed). */
  spawnError?: Error;
  durationMs: number;
  pid: number | undefined;
}

/** Chunks joined into one once this many small ones have come in a row (see {@link OutputBuffer}). */
const JOIN_EVERY = 1024;

/**
 * A process's stdout as it arrives. A script that writes a byte at a time reaches the runner as a
 * Buffer per write, each costing some 70 bytes of the runner's memory beyond its byte: under the
 * 10 MB cap that was up to ~700 MB. Every {@link JOIN_EVERY} chunks become one, so memory follows
 * the bytes, whatever the number of writes, and each byte is copied once.
 */
export class OutputBuffer {
  readonly #chunks: Buffer[] = [];
  /** Chunks before this index are joined runs; after it, chunks as they came. */
  #joined = 0;

  push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    if (this.#chunks.length - this.#joined >= JOIN_EVERY) {
      this.#chunks.push(Buffer.concat(this.#chunks.splice(this.#joined)));
      this.#joined = this.#chunks.length;
    }
  }

  /** How many Buffers are held. */
  get held(): number {
    return this.#chunks.length;
  }

  /** The text, and where it stops being UTF-8 (see {@link BoundedProcessResult.stdoutNotUtf8At}). */
  text(): { text: string; notUtf8At?: number } {
    const bytes = Buffer.concat(this.#chunks);
    const text = bytes.toString('utf8');
    return isUtf8(bytes) ? { text } : { text, notUtf8At: firstNotUtf8(bytes, text) };
  }
}

/**
 * The byte offset of the first U+FFFD in `text` (the decoding of `bytes`) that `bytes` did not
 * spell as U+FFFD itself (EF BF BD), that is, where decoding replaced an invalid sequence.
 */
function firstNotUtf8(bytes: Buffer, text: string): number {
  let offset = 0;
  let from = 0;
  for (let at = text.indexOf('\uFFFD'); at !== -1; at = text.indexOf('\uFFFD', at + 1)) {
    offset += Buffer.byteLength(text.slice(from, at));
    from = at;
    if (bytes[offset] !== 0xef || bytes[offset + 1] !== 0xbf || bytes[offset + 2] !== 0xbd) return offset;
  }
  return offset;
}

function stdoutOf(buffer: OutputBuffer): Pick<BoundedProcessResult, 'stdout' | 'stdoutNotUtf8At'> {
  const { text, notUtf8At } = buffer.text();
  return notUtf8At === undefined ? { stdout: text } : { stdout: text, stdoutNotUtf8At: notUtf8At };
}

/** stdin, stdout, stderr; the context-service socket on fd 3; a pipe of arguments on a later one. */
function stdioFor(options: BoundedProcessOptions): StdioOptions {
  const stdio: ('pipe' | 'ignore')[] = ['pipe', 'pipe', 'pipe'];
  if (options.channel) stdio[3] = 'pipe';
  if (options.argsOnFd) {
    for (let fd = stdio.length; fd < options.argsOnFd.fd; fd++) stdio[fd] = 'ignore';
    stdio[options.argsOnFd.fd] = 'pipe';
  }
  return stdio;
}

/** Kills a whole process group; a group that is already gone is fine. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: every process in the group has exited.
  }
}

/**
 * Runs a child process inside hard limits (docs/script-protocol.md). The child is spawned
 * `detached`, which makes it the leader of a new process group (and session, so it has no
 * controlling terminal), so on timeout, on abort, on the output cap, and after it exits the whole
 * group is SIGKILLed. A grandchild that calls `setsid` leaves the group; only the sandbox's PID
 * namespace (see run-sandbox.ts) catches that one: when its first process dies, the kernel kills
 * every process in the namespace. `spawn` has no
 * `maxBuffer`, so stdout bytes are counted here and the group is killed at the cap.
 *
 * @example
 * const result = await runBoundedProcess({ command: 'python3', args: ['run.py'], cwd, env, stdin: '{}', timeoutMs: 5000 });
 */
export function runBoundedProcess(options: BoundedProcessOptions): Promise<BoundedProcessResult> {
  const cap = options.maxOutputBytes ?? MAX_OUTPUT_BYTES;
  const started = performance.now();
  return new Promise((resolvePromise) => {
    const stdout = new OutputBuffer();
    let stderrTail = Buffer.alloc(0);
    let total = 0;
    let stderrBytes = 0;
    let timedOut = false;
    let aborted = false;
    let outputTooLarge = false;
    let spawnError: Error | undefined;
    let settled = false;

    const child = spawn(options.command, [...options.args], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: stdioFor(options),
      // stdin, stdout and stderr are always pipes.
    }) as ChildProcessWithoutNullStreams;
    if (options.argsOnFd) {
      const pipe = child.stdio[options.argsOnFd.fd] as Writable | null;
      // A process that dies before reading them closes the pipe: its exit says what went wrong.
      pipe?.on('error', () => {});
      pipe?.end(options.argsOnFd.args.map((arg) => `${arg}\0`).join(''));
    }
    const channel = options.channel ? (child.stdio[3] as Duplex | null) : null;
    if (channel) options.channel?.(channel);
    const pid = child.pid;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(pid);
    }, options.timeoutMs);
    const abort = (): void => {
      aborted = true;
      killGroup(pid);
    };
    if (options.signal?.aborted) abort();
    else options.signal?.addEventListener('abort', abort, { once: true });

    const count = (chunk: Buffer): boolean => {
      total += chunk.length;
      if (total > cap && !outputTooLarge) {
        outputTooLarge = true;
        killGroup(pid);
      }
      return !outputTooLarge;
    };
    child.stdout.on('data', (chunk: Buffer) => {
      if (count(chunk)) stdout.push(chunk);
    });
    // A pipe read can end inside a multi-byte character; the decoder holds its first bytes back.
    const stderrText = new StringDecoder('utf8');
    child.stderr.on('data', (chunk: Buffer) => {
      stderrBytes += chunk.length;
      if (outputTooLarge) return;
      const text = stderrText.write(chunk);
      if (text !== '') options.onStderr?.(text);
      stderrTail = Buffer.concat([stderrTail, chunk]);
      if (stderrTail.length > STDERR_TAIL_BYTES) stderrTail = stderrTail.subarray(stderrTail.length - STDERR_TAIL_BYTES);
    });
    // A script that never reads stdin closes the pipe early; that is its business, not an error.
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin);

    child.on('error', (error) => {
      spawnError = error;
    });
    // 'exit' fires when the child itself ends; a grandchild may still hold the pipes open, so the
    // group is killed here, which lets 'close' follow.
    child.on('exit', () => {
      killGroup(pid);
      channel?.destroy();
    });
    child.on('close', (exitCode, signal) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // A truncated character at the very end comes out as U+FFFD rather than not at all.
      const rest = stderrText.end();
      if (rest !== '' && !outputTooLarge) options.onStderr?.(rest);
      options.signal?.removeEventListener('abort', abort);
      killGroup(pid);
      resolvePromise({
        exitCode,
        signal,
        ...stdoutOf(stdout),
        stderr: stderrTail.toString('utf8'),
        stderrBytes,
        timedOut,
        aborted,
        outputTooLarge,
        spawnError,
        durationMs: Math.round(performance.now() - started),
        pid,
      });
    });
  });
}
