import { Transform, type TransformCallback, type Writable } from 'node:stream';
import { invalidRequest, requestIdOf } from './request-checks.ts';

const EDGE = 256;

/**
 * The id of a JSON-RPC request from the first and last bytes of its line: clients put `id` either
 * first (`{"jsonrpc":"2.0","id":7,…`) or last (`…,"jsonrpc":"2.0","id":7}`), so the edges are
 * enough to answer a message too large to parse.
 *
 * @example
 * requestIdAtEdges('{"method":"tools/call"', ',"jsonrpc":"2.0","id":7}\n'); // 7
 */
export function requestIdAtEdges(head: string, tail: string): string | number | undefined {
  const match = /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,100}")/.exec(head) ?? /"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,100}")\s*\}\s*$/.exec(tail);
  return match ? (JSON.parse(match[1] as string) as string | number) : undefined;
}

/** What is wrong with a line, as {@link LineLimit} reports it. */
export type LineProblem = 'not-json' | 'batch' | 'invalid-request';

/**
 * Where a stdio server's answers go, and how far they may run ahead of the client's reading: past
 * `maxQueuedBytes` not yet written to `stream`, or `maxInFlight` requests not yet answered (their
 * answers all arrive at once), no further request is read.
 */
export interface StdioBackpressure {
  stream: Writable;
  maxQueuedBytes: number;
  maxInFlight: number;
}

/**
 * Sits between stdin and the SDK's stdio transport and passes only whole lines of at most
 * `maxLineBytes` that parse as JSON. The SDK closes the connection when its buffer overflows; here
 * an oversized message is dropped (memory stays bounded) and reported with the request id found at
 * its edges, so the client gets an error for that request and the server keeps serving. A line
 * that is not JSON, a JSON-RPC batch (MCP has none), or a request the SDK cannot read (see
 * {@link invalidRequest}) is reported the same way (the SDK drops it without a word, and JSON-RPC
 * wants an error); a blank line is skipped. Given the output ({@link StdioBackpressure}), it reads
 * no further while answers the client has not read pile up.
 */
export class LineLimit extends Transform {
  readonly #max: number;
  readonly #onOversize: (id: string | number | undefined) => void;
  readonly #onMalformed: ((id: string | number | undefined, problem: LineProblem, detail?: string) => void) | undefined;
  #pending: Buffer[] = [];
  #size = 0;
  #dropping = false;
  #head = '';
  #tail = '';
  readonly #output: StdioBackpressure | undefined;
  /**
   * The requests passed on and not yet answered or cancelled, by id: counted, since a client may
   * reuse an id (the SDK answers each request), and a set would let it keep any number open.
   */
  readonly #inFlight = new Map<string | number, number>();
  #inFlightCount = 0;
  /** Reading, stopped by {@link LineLimit.#mustWait}, goes on from here. */
  #resume: (() => void) | undefined;

  constructor(
    maxLineBytes: number,
    onOversize: (id: string | number | undefined) => void,
    onMalformed?: (id: string | number | undefined, problem: LineProblem, detail?: string) => void,
    output?: StdioBackpressure,
  ) {
    super();
    this.#max = maxLineBytes;
    this.#onOversize = onOversize;
    this.#onMalformed = onMalformed;
    this.#output = output;
    const wake = () => this.#wake();
    output?.stream.on('drain', wake).on('close', wake);
  }

  /** Tells the limit that the request `id` was answered (call it for every response sent). */
  answered(id: string | number): void {
    if (this.#end(id)) this.#wake();
  }

  /** Counts one request with this id out; false when none was open. */
  #end(id: string | number): boolean {
    const open = this.#inFlight.get(id);
    if (open === undefined) return false;
    if (open > 1) this.#inFlight.set(id, open - 1);
    else this.#inFlight.delete(id);
    this.#inFlightCount -= 1;
    return true;
  }

  /** Whether to read no further: the client has not read what it was sent, or has too many requests open. */
  #mustWait(): boolean {
    const output = this.#output;
    if (!output || output.stream.destroyed) return false;
    return output.stream.writableLength > output.maxQueuedBytes || this.#inFlightCount >= output.maxInFlight;
  }

  #wake(): void {
    if (!this.#resume || this.#mustWait()) return;
    const resume = this.#resume;
    this.#resume = undefined;
    resume();
  }

  /** Passes a whole line on, or reports it when it is not JSON. */
  #deliver(line: Buffer): void {
    if (!this.#onMalformed) return void this.push(line);
    const text = line.toString('utf8');
    if (text.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return this.#onMalformed(requestIdAtEdges(text.slice(0, EDGE), text.slice(-EDGE)), 'not-json');
    }
    // MCP has no batches: the SDK would drop the array without a word.
    if (Array.isArray(message)) return this.#onMalformed(undefined, 'batch');
    const problem = invalidRequest(message);
    if (problem) {
      // Answered with its id when that is one (a string or an integer), else with null.
      return this.#onMalformed(requestIdOf(message), 'invalid-request', problem);
    }
    this.#track(message as { id?: unknown; method?: unknown; params?: { requestId?: unknown } });
    this.push(line);
  }

  /** Counts a request in, and a cancelled one out (the SDK sends no answer to a cancelled request). */
  #track(message: { id?: unknown; method?: unknown; params?: { requestId?: unknown } }): void {
    // One with `result` or `error` as well is no request (the SDK drops it): counted in, it would never be counted out.
    if (!this.#output || typeof message.method !== 'string' || 'result' in message || 'error' in message) return;
    if (typeof message.id === 'string' || typeof message.id === 'number') {
      this.#inFlight.set(message.id, (this.#inFlight.get(message.id) ?? 0) + 1);
      this.#inFlightCount += 1;
    } else if (message.method === 'notifications/cancelled') {
      const id = message.params?.requestId;
      if (typeof id === 'string' || typeof id === 'number') this.#end(id);
    }
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#consume(chunk, 0, callback);
  }

  /** Splits `chunk` into lines from `from` on; stops after a line while {@link LineLimit.#mustWait}, until woken. */
  #consume(chunk: Buffer, from: number, callback: TransformCallback): void {
    let start = from;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline + 1;
      const piece = chunk.subarray(start, end);
      start = end;
      if (this.#dropping) this.#tail = (this.#tail + piece.toString('latin1')).slice(-EDGE);
      else if (this.#size + piece.length > this.#max) {
        this.#dropping = true;
        this.#head = Buffer.concat([...this.#pending, piece]).subarray(0, EDGE).toString('latin1');
        this.#tail = piece.toString('latin1').slice(-EDGE);
        this.#pending = [];
        this.#size = 0;
      } else {
        this.#pending.push(piece);
        this.#size += piece.length;
      }
      if (newline === -1) break;
      if (this.#dropping) {
        this.#dropping = false;
        this.#onOversize(requestIdAtEdges(this.#head, this.#tail));
      } else this.#deliver(Buffer.concat(this.#pending));
      this.#pending = [];
      this.#size = 0;
      // A client that sends requests and does not read the answers had them pile up in this
      // process without end (4 GB in 20 s of list_skills): past either limit, nothing more is read
      // until answers drain or requests end, and the client's own writes block, as on a full pipe.
      if (this.#mustWait()) {
        const rest = start;
        this.#resume = () => this.#consume(chunk, rest, callback);
        return;
      }
    }
    callback();
  }
}
