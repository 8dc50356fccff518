import type { Duplex } from 'node:stream';
import { z } from 'zod';
import { MemoryInput } from '../../core/schemas/memory.ts';
import type { ContextServices } from '../context-services.ts';

/**
 * The runner's end of the context-service channel (docs/context.md#the-channel): the skill's process
 * gets one extra file descriptor (3, named by SKILLDEX_SERVICES_FD), a socket to the runner. The
 * skill writes one JSON request per line, `{"id": 1, "service": "memory", "method": "search",
 * "args": ["oat milk", 3]}`, and reads one JSON reply per line, `{"id": 1, "ok": true, "value": …}`
 * or `{"id": 1, "ok": false, "error": {"code": "INVALID_PARAM", "message": …}}`.
 *
 * The sandbox never gets write access to the stores: only this end touches them, and only through
 * the methods below with arguments checked here. Everything from the skill is hostile: a line
 * longer than MAX_LINE_BYTES closes the channel, and so does the request count past MAX_REQUESTS.
 * What a run asks the stores to keep is bounded too ({@link MAX_STORED_BYTES}): the runner, which
 * holds the scratch, runs outside the sandbox's memory limit, and the memory and session files
 * outlive the run. For the same reason the runner holds only so much for a skill that does not
 * read its replies ({@link MAX_HELD_BYTES}): past that it stops reading the skill's requests until
 * the replies have gone out.
 */
export const MAX_LINE_BYTES = 1024 * 1024;
export const MAX_REQUESTS = 10_000;
/**
 * Bytes one run may send in requests that store something (`memory.write`, `session.set`,
 * `scratch.set`): past it such a request is refused, and the others are still served. Without it
 * 10,000 requests of 1 MB each grew the runner by gigabytes and the memory file by 650 MB a run.
 */
export const MAX_STORED_BYTES = 16 * 1024 * 1024;
const STORING = new Set(['memory.write', 'session.set', 'scratch.set']);
/**
 * Requests read and not yet answered, in bytes, past which the runner stops reading the socket.
 * Without it a skill that asked for a 1 MB scratch value thousands of times and never read the
 * answers grew the runner by 150 MB a second (every reply waited in the socket's buffer), and the
 * replies, answered one after another without a pause, kept the runner's event loop from anything
 * else, its timers included.
 */
export const MAX_HELD_BYTES = 4 * 1024 * 1024;

const Key = z.string().min(1).max(256);
const Request = z.discriminatedUnion('call', [
  z.object({ call: z.literal('memory.search'), args: z.tuple([z.string().max(4096)]).or(z.tuple([z.string().max(4096), z.number().int().min(1).max(100)])) }),
  z.object({ call: z.literal('memory.write'), args: z.tuple([MemoryInput.extend({ content: z.string().min(1).max(64 * 1024) })]) }),
  ...(['session', 'scratch'] as const).flatMap((service) => [
    z.object({ call: z.literal(`${service}.get`), args: z.tuple([Key]) }),
    z.object({ call: z.literal(`${service}.set`), args: z.tuple([Key, z.unknown()]) }),
    z.object({ call: z.literal(`${service}.delete`), args: z.tuple([Key]) }),
    z.object({ call: z.literal(`${service}.keys`), args: z.tuple([]) }),
  ]),
]);

/** Serves one run's requests on `socket` until it closes. */
export function serveContextChannel(socket: Duplex, services: ContextServices): void {
  let buffer = '';
  let count = 0;
  const budget = { stored: 0 };
  // Replies go out in request order even when a later call finishes first.
  let queue: Promise<void> = Promise.resolve();
  // What has been read and not answered yet; reading pauses while it is over MAX_HELD_BYTES.
  let held = 0;
  // Resolves once the reply has left the runner's buffer (or the socket is gone), so the next
  // request waits for a skill that does not read its replies instead of piling them up.
  const reply = (message: Record<string, unknown>): Promise<void> =>
    new Promise((resolve) => {
      if (socket.destroyed || socket.write(`${JSON.stringify(message)}\n`)) return resolve();
      const done = (): void => {
        socket.off('drain', done);
        socket.off('close', done);
        resolve();
      };
      socket.on('drain', done);
      socket.on('close', done);
    });
  const answer = (line: string): Promise<void> =>
    (queue = queue.then(async () => {
      await reply(await handle(line, services, budget));
      held -= line.length;
      if (held <= MAX_HELD_BYTES && socket.isPaused() && !closing) socket.resume();
    }));
  // After a fatal error: the replies already queued still go out, then the channel ends.
  let closing = false;
  const closeWith = (message: Record<string, unknown>): void => {
    closing = true;
    buffer = '';
    queue = queue.then(async () => {
      await reply(message);
      socket.end();
    });
  };
  socket.setEncoding('utf8');
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: string) => {
    if (closing) return;
    buffer += chunk;
    let newline: number;
    let tooLong = false;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.trim() === '') continue;
      count += 1;
      if ((tooLong = line.length > MAX_LINE_BYTES)) break;
      if (count > MAX_REQUESTS) {
        closeWith({ id: null, ok: false, error: { code: 'PERMISSION_DENIED', message: `more than ${MAX_REQUESTS} service requests in one run; the channel is closed` } });
        return;
      }
      held += line.length;
      void answer(line);
    }
    if (tooLong || buffer.length > MAX_LINE_BYTES) {
      closeWith({ id: null, ok: false, error: { code: 'INVALID_PARAM', message: `a request line is longer than ${MAX_LINE_BYTES} bytes; the channel is closed` } });
      return;
    }
    if (held > MAX_HELD_BYTES) socket.pause();
  });
}

/** Serves one request line; `budget` counts what this run's storing requests have sent (replies go one at a time, so no two count at once). */
async function handle(line: string, services: ContextServices, budget: { stored: number }): Promise<Record<string, unknown>> {
  let raw: { id?: unknown; service?: unknown; method?: unknown; args?: unknown };
  try {
    raw = JSON.parse(line);
  } catch (error) {
    return { id: null, ok: false, error: { code: 'INVALID_JSON', message: `a service request is not JSON: ${(error as Error).message}` } };
  }
  const id = typeof raw?.id === 'number' || typeof raw?.id === 'string' ? raw.id : null;
  const parsed = Request.safeParse({ call: `${String(raw?.service)}.${String(raw?.method)}`, args: raw?.args ?? [] });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { id, ok: false, error: { code: 'INVALID_PARAM', message: `${String(raw?.service)}.${String(raw?.method)}: ${issue ? `${issue.path.join('.') || 'request'}: ${issue.message}` : 'not a service call'}`, details: { hint: 'see docs/context.md#the-channel for the services and their arguments' } } };
  }
  const request = parsed.data;
  if (STORING.has(request.call)) {
    if (budget.stored + line.length > MAX_STORED_BYTES) {
      return { id, ok: false, error: { code: 'PERMISSION_DENIED', message: `${request.call}: this run has sent more than ${MAX_STORED_BYTES / 1024 / 1024} MB to store; nothing more is stored in this run`, details: { hint: 'the services keep small values; large data belongs in the result, or in the run folder where the sandbox allows writes' } } };
    }
    budget.stored += line.length;
  }
  try {
    const [service, method] = request.call.split('.') as [keyof ContextServices, string];
    const target = services[service] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const value = await target[method]!(...request.args);
    return { id, ok: true, value: value ?? null };
  } catch (error) {
    return { id, ok: false, error: { code: 'EXTERNAL_SERVICE_ERROR', message: `${String(raw.service)}.${String(raw.method)} failed: ${error instanceof Error ? error.message : String(error)}` } };
  }
}
