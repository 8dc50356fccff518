import { Transform, type TransformCallback } from 'node:stream';
import { JSONRPCMessageSchema, JSONRPCRequestSchema, RequestIdSchema } from '@modelcontextprotocol/sdk/types.js';

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
 * Why `message`, which carries an `id` and no `result` or `error` (so its sender waits for an
 * answer), is not a JSON-RPC request the SDK accepts — or undefined when it is one, or is not meant
 * as one. The SDK drops such a message with nothing but an `onerror`, and its client waits for ever.
 *
 * @example
 * invalidRequest({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: 'x' }); // 'params: Invalid input: expected object, received string'
 * invalidRequest({ jsonrpc: '2.0', id: 9, method: 'ping' });                   // undefined
 */
export function invalidRequest(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || !('id' in message) || 'result' in message || 'error' in message) return undefined;
  if (JSONRPCMessageSchema.safeParse(message).success) return undefined;
  if (!RequestIdSchema.safeParse((message as { id: unknown }).id).success) return 'id: must be a string or an integer';
  const issue = JSONRPCRequestSchema.safeParse(message).error?.issues[0];
  if (!issue) return undefined;
  const where = issue.path.map(String).join('.');
  return `${where ? `${where}: ` : ''}${issue.message}`.slice(0, 300);
}

/**
 * Sits between stdin and the SDK's stdio transport and passes only whole lines of at most
 * `maxLineBytes` that parse as JSON. The SDK closes the connection when its buffer overflows; here
 * an oversized message is dropped (memory stays bounded) and reported with the request id found at
 * its edges, so the client gets an error for that request and the server keeps serving. A line
 * that is not JSON, a JSON-RPC batch (MCP has none), or a request the SDK cannot read (see
 * {@link invalidRequest}) is reported the same way (the SDK drops it without a word, and JSON-RPC
 * wants an error); a blank line is skipped.
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

  constructor(maxLineBytes: number, onOversize: (id: string | number | undefined) => void, onMalformed?: (id: string | number | undefined, problem: LineProblem, detail?: string) => void) {
    super();
    this.#max = maxLineBytes;
    this.#onOversize = onOversize;
    this.#onMalformed = onMalformed;
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
      const id = RequestIdSchema.safeParse((message as { id: unknown }).id);
      return this.#onMalformed(id.success ? id.data : undefined, 'invalid-request', problem);
    }
    this.push(line);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let start = 0;
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
    }
    callback();
  }
}
