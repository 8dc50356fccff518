/**
 * Child-process harness for module entries (skill.json `index.ts`, a package's `scripts/execute.ts`).
 * The runtime starts it with `node` and writes one JSON request to stdin:
 *
 *   { entry, convention: 'function' | 'outcome', input, context, config, skill: { name, version }, codes }
 *
 * `codes` is the script protocol's error-code enum (ProtocolErrorCode in src/core/schemas/outcome.ts):
 * the harness is mounted alone in the sandbox and cannot import it, so the runtime sends it.
 *
 * It imports the entry, calls `execute`, and writes one script-protocol envelope to stdout, so module
 * skills cross the same process boundary, limits and protocol as script skills. Anything the
 * module prints with console.* goes to stderr, keeping stdout for the envelope alone.
 *
 * - `function` (skill.json): `execute(input, ctx)` returns the output object.
 * - `outcome` (extended package): `execute(parameters, context, config)` returns a SkillExecutionOutcome.
 *
 * `ctx.memory`, `ctx.session` and `ctx.scratch` (on `context` for packages) are proxies: each call
 * is a request over the service channel on fd SKILLDEX_SERVICES_FD to the runner, which owns the
 * stores (docs/context.md). The harness has no other way to reach them.
 */
import { Socket } from 'node:net';
import { pathToFileURL } from 'node:url';

interface HarnessRequest {
  entry: string;
  convention: 'function' | 'outcome';
  input: Record<string, unknown>;
  context: Record<string, unknown>;
  config: Record<string, unknown>;
  skill: { name: string; version: string };
  /** Error codes a thrown error may carry through; any other becomes INTERNAL_ERROR. */
  codes: string[];
}

/**
 * An Error has no enumerable own properties, so JSON.stringify turns it into `{}` (a StepTrace's
 * `error`, a thrown value in `output`…). Keep what a reader needs: the code and the message.
 */
const plainError = (error: Error): Record<string, unknown> => {
  const code = (error as { code?: unknown }).code;
  return { ...(typeof code === 'string' ? { code } : {}), message: error.message, ...(error.name !== 'Error' ? { name: error.name } : {}) };
};

let written = false;
const write = (envelope: unknown): void => {
  written = true;
  process.stdout.write(`${JSON.stringify(envelope, (_key, value: unknown) => (value === undefined ? null : value instanceof Error ? plainError(value) : value))}\n`);
};

// An execute() whose promise never settles leaves nothing for the event loop to do: Node would end
// the process with exit code 13 and a warning about this file's own top-level await. Said plainly
// instead, for the skill's author.
process.once('beforeExit', () => {
  if (written) return;
  write({ success: false, action: 'execute', error: { code: 'INTERNAL_ERROR', message: 'execute() returned a promise that never settles: it waits on something that will never happen (a promise nothing resolves, a callback nothing calls)' } });
  process.exit(0);
});

/**
 * An error from Node's permission model, which confines a module entry (ERR_ACCESS_DENIED): the
 * sandbox's refusal, in the script protocol's words. Node's own advice ("Use --allow-fs-read to
 * manage permissions") is for whoever starts Node, not for a skill.
 */
function sandboxRefusal(error: unknown): { code: 'PERMISSION_DENIED'; message: string } | undefined {
  if ((error as { code?: unknown }).code !== 'ERR_ACCESS_DENIED') return undefined;
  const { permission, resource } = error as { permission?: unknown; resource?: unknown };
  const what = typeof permission === 'string' ? permission : 'this';
  return { code: 'PERMISSION_DENIED', message: `the sandbox does not allow ${what}${typeof resource === 'string' ? ` (${resource})` : ''}: a skill's Node code reads only its own folder and its run folder, writes only the run folder, and starts no child processes or workers` };
}

const toStderr = (...args: unknown[]): void => {
  process.stderr.write(`${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}\n`);
};
for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) console[method] = toStderr;

/** Requests to the runner over the service channel, one JSON line each way, answered in order. */
function serviceClient(): (service: string, method: string, args: unknown[]) => Promise<unknown> {
  let socket: Socket | undefined;
  let next = 1;
  let buffer = '';
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const fail = (message: string): void => {
    for (const { reject } of pending.values()) reject(Object.assign(new Error(message), { code: 'EXTERNAL_SERVICE_ERROR' }));
    pending.clear();
  };
  const open = (): Socket => {
    const fd = Number(process.env.SKILLDEX_SERVICES_FD);
    if (!Number.isInteger(fd) || fd < 3) throw Object.assign(new Error('no context-service channel: this runtime did not open one'), { code: 'EXTERNAL_SERVICE_ERROR' });
    const opened = new Socket({ fd, readable: true, writable: true });
    opened.setEncoding('utf8');
    opened.on('data', (chunk: string) => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const reply = JSON.parse(buffer.slice(0, newline)) as { id: number; ok: boolean; value?: unknown; error?: { code: string; message: string } };
        buffer = buffer.slice(newline + 1);
        const waiter = pending.get(reply.id);
        pending.delete(reply.id);
        if (reply.ok) waiter?.resolve(reply.value);
        else if (waiter) waiter.reject(Object.assign(new Error(reply.error?.message ?? 'service call failed'), { code: reply.error?.code ?? 'EXTERNAL_SERVICE_ERROR' }));
        else fail(reply.error?.message ?? 'the service channel was closed');
      }
      // An idle channel must not keep the process alive once execute() has returned.
      if (pending.size === 0) opened.unref();
    });
    opened.on('error', (error) => fail(`the service channel failed: ${error.message}`));
    opened.on('close', () => fail('the service channel was closed'));
    return opened;
  };
  return (service, method, args) =>
    new Promise((resolve, reject) => {
      try {
        socket ??= open();
      } catch (error) {
        reject(error);
        return;
      }
      const id = next++;
      pending.set(id, { resolve, reject });
      socket.ref();
      socket.write(`${JSON.stringify({ id, service, method, args })}\n`);
    });
}

const call = serviceClient();
const keyValue = (service: 'session' | 'scratch') => ({
  get: (key: string) => call(service, 'get', [key]),
  set: (key: string, value: unknown) => call(service, 'set', [key, value ?? null]),
  delete: (key: string) => call(service, 'delete', [key]),
  keys: () => call(service, 'keys', []),
});
const services = {
  memory: {
    search: (query: string, limit?: number) => call('memory', 'search', limit === undefined ? [query] : [query, limit]),
    write: (entry: Record<string, unknown>) => call('memory', 'write', [entry]),
  },
  session: keyValue('session'),
  scratch: keyValue('scratch'),
};


async function main(): Promise<void> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  let request: HarnessRequest;
  try {
    request = JSON.parse(text) as HarnessRequest;
  } catch (error) {
    write({ success: false, error: { code: 'INVALID_JSON', message: `harness request is not JSON: ${(error as Error).message}` } });
    return;
  }
  const action = 'execute';
  try {
    const mod = (await import(pathToFileURL(request.entry).href)) as Record<string, unknown>;
    const fallback = mod.default as Record<string, unknown> | ((...args: unknown[]) => unknown) | undefined;
    const execute = (mod.execute ?? (typeof fallback === 'function' ? fallback : fallback?.execute)) as ((...args: unknown[]) => unknown) | undefined;
    if (typeof execute !== 'function') {
      write({ success: false, action, error: { code: 'INTERNAL_ERROR', message: `${request.entry} does not export an execute function` } });
      return;
    }
    const log = (message: unknown): void => toStderr(`[${request.skill.name}]`, message);
    if (request.convention === 'outcome') {
      const outcome = await execute(request.input, { ...request.context, skill: request.skill, log, ...services }, request.config);
      write({ success: true, action, data: outcome, metadata: { convention: 'outcome' } });
    } else {
      const output = await execute(request.input, { skill: request.skill, log, context: request.context, config: request.config, ...services });
      write({ success: true, action, data: output });
    }
  } catch (error) {
    const refused = sandboxRefusal(error);
    if (refused) {
      write({ success: false, action, error: refused });
      return;
    }
    const code = (error as { code?: unknown }).code;
    write({
      success: false,
      action,
      error: {
        code: typeof code === 'string' && request.codes.includes(code) ? code : 'INTERNAL_ERROR',
        message: error instanceof Error ? error.message : String(error),
        details: error instanceof Error && process.env.SKILL_DEBUG === '1' ? { stack: error.stack } : undefined,
      },
    });
  }
}

await main();
