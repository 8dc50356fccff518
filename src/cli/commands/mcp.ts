import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { defineCommand } from 'citty';
import { MAX_CONNECTIONS, MAX_SESSIONS, MAX_SESSIONS_PER_CLIENT, serveMcpHttp } from '../../mcp/http.ts';
import { LiveRegistry } from '../../mcp/live-registry.ts';
import { createMcpServer, type McpServerOptions } from '../../mcp/server.ts';
import { LineLimit } from '../../mcp/stdio-line-limit.ts';
import { RunLimit } from '../../mcp/run-limit.ts';
import { invalidRequestMessage } from '../../mcp/request-checks.ts';
import { describeFailure } from '../../core/errors/skilldex-error.ts';
import { CliError } from '../_errors.ts';
import { runLimitArgs, runLimitsFromArgs, wholeNumber } from '../_run-limits.ts';
import { err, printable } from '../_output.ts';
import { openRegistryFromArgs, registryArgs } from '../_registry.ts';
import { VERSION } from '../../core-node/package-version.ts';
import { isPermissionDenied } from '../../core-node/permission-denied.ts';

/** Largest single MCP message accepted, on stdio and over HTTP. */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** Answers a stdio client has not read yet, past which the server reads no more of its requests. */
const MAX_QUEUED_ANSWER_BYTES = 16 * 1024 * 1024;
/** Requests of a stdio client being handled at once, past which the server reads no more of them. */
const MAX_REQUESTS_IN_FLIGHT = 256;

const { json: _json, ...registryOnly } = registryArgs;

const USAGE_HINT = "see 'skilldex mcp --help'";
const usage = (message: string): never => {
  throw new CliError('E_USAGE', message, { exitCode: 2, hint: USAGE_HINT });
};

const positiveInt = (value: string | undefined, flag: string, max: number, min = 0): number | undefined => wholeNumber(value, flag, max, { min, hint: USAGE_HINT });

/** A count of runs, sessions or connections: a limit of 0 would turn the feature off, which its own flag does. */
const atLeastOne = (value: string | undefined, flag: string, max = 1024): number | undefined => positiveInt(value, flag, max, 1);

/**
 * Logs go to stderr: on stdio, stdout carries only protocol messages. One line per failure: a
 * message quotes what a registry sent (a refused signature's key id), and a line feed in it would
 * start a log line of the registry's own.
 */
const logError = (error: unknown): void => {
  const { text, hint } = describeFailure(error);
  err(`skilldex mcp: ${printable(text)}${hint ? ` (hint: ${printable(hint)})` : ''}`);
};

export default defineCommand({
  meta: { name: 'mcp', description: 'Serve a registry to AI agents over the Model Context Protocol (stdio, or Streamable HTTP with --http); see docs/mcp.md' },
  args: {
    http: { type: 'string', description: 'Serve Streamable HTTP on this port (0: any free port) at /mcp instead of stdio', valueHint: 'port' },
    host: { type: 'string', description: 'With --http: the address to bind (default 127.0.0.1, local clients only)', default: '127.0.0.1' },
    'allow-run': { type: 'boolean', description: 'Let clients run skills (run_skill and, with --expose-skills, the skill tools)', default: false },
    'expose-skills': { type: 'boolean', description: 'Offer every typed skill (functions, protocol actions, ABP tools) as an MCP tool of its own', default: false },
    'install-root': { type: 'string', description: 'The only folder install_skill may write into (without it, installs are refused)', valueHint: 'dir' },
    'max-runs': { type: 'string', description: 'With --allow-run: skill runs in flight at once, all clients together; a call past it is answered at once with an error saying so (default 8)', valueHint: 'n' },
    'max-runs-per-session': { type: 'string', description: 'With --http and --allow-run: skill runs in flight at once for one session (default half of --max-runs, rounded up)', valueHint: 'n' },
    'max-connections': { type: 'string', description: `With --http: connections open at once, one client address other than loopback a quarter of them; a request on one past it is answered 503 (default ${MAX_CONNECTIONS})`, valueHint: 'n' },
    'max-sessions-per-client': { type: 'string', description: `With --http: sessions one client address other than loopback keeps, of the ${MAX_SESSIONS} the server keeps; past it, that client's session used longest ago is closed (default ${MAX_SESSIONS_PER_CLIENT})`, valueHint: 'n' },
    ...runLimitArgs,
    poll: { type: 'string', description: 'Revalidate the registry index every N seconds and notify clients of changes (0: only when a client lists)', default: '60' },
    ...registryOnly,
  },
  async run({ args }) {
    const port = positiveInt(args.http, '--http', 65535);
    const poll = positiveInt(args.poll, '--poll', 86_400) ?? 60;
    if (args.http === undefined && args.host !== '127.0.0.1') usage('--host only applies with --http <port>');
    const maxRuns = atLeastOne(args['max-runs'], '--max-runs');
    const maxRunsPerSession = atLeastOne(args['max-runs-per-session'], '--max-runs-per-session');
    if (args.http === undefined && maxRunsPerSession !== undefined) usage('--max-runs-per-session only applies with --http <port> (over stdio the one session may use all of --max-runs)');
    const maxConnections = atLeastOne(args['max-connections'], '--max-connections', 65_536);
    const maxSessionsPerClient = atLeastOne(args['max-sessions-per-client'], '--max-sessions-per-client', MAX_SESSIONS);
    if (args.http === undefined && (maxConnections !== undefined || maxSessionsPerClient !== undefined)) usage('--max-connections and --max-sessions-per-client only apply with --http <port>');
    // Every index the server switches to is opened like this one: same keys, same checks.
    const live = await LiveRegistry.open(() => openRegistryFromArgs(args), { onError: logError });
    live.poll(poll);
    const options: McpServerOptions = {
      allowRun: args['allow-run'],
      exposeSkills: args['expose-skills'],
      installRoot: args['install-root'],
      // One limit for the whole process: over HTTP every session's server draws from it.
      runLimit: new RunLimit({ ...(maxRuns === undefined ? {} : { maxRuns }), ...(maxRunsPerSession === undefined ? {} : { maxRunsPerSession }) }),
      runLimitPerSession: port !== undefined,
      perRunLimits: runLimitsFromArgs(args),
      version: VERSION,
      onError: logError,
    };
    const count = live.current.list().length;
    const what = `${count} ${count === 1 ? 'skill' : 'skills'} from ${live.current.root}${options.allowRun ? ', running allowed' : ''}${options.installRoot ? `, installs into ${options.installRoot}` : ''}`;

    if (port !== undefined) {
      const listener = await serveMcpHttp({ host: args.host, port, newServer: () => createMcpServer(live, options), maxBodyBytes: MAX_MESSAGE_BYTES, maxConnections, maxSessionsPerClient }).catch((error: NodeJS.ErrnoException) => {
        throw new CliError('E_LISTEN', `cannot listen on ${args.host}:${port}: ${error.code ?? error.message}`, { hint: listenHint(error.code) });
      });
      // The warning comes first: whoever waits for the "server on" line (a person, a supervisor, a
      // test) has it by then, where a line written after could arrive in a later read.
      if (!listener.localOnly) {
        const power = [options.allowRun ? 'run skills' : '', options.installRoot ? `install into ${options.installRoot}` : ''].filter(Boolean).join(' and ');
        err(`warning: ${args.host} is not loopback: any machine that reaches this port is served, with no authentication and no Host or Origin check${power ? `, and may ${power}` : ''}`);
      }
      err(`skilldex MCP server on ${listener.url} (${what})`);
      await new Promise<void>((resolve) => {
        const stop = () => void listener.close().finally(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      live.close();
      return 0;
    }

    const server = createMcpServer(live, options);
    const input = new LineLimit(MAX_MESSAGE_BYTES, (id) => {
      // Without an id there is no request to answer; the client's own timeout applies.
      if (id === undefined) return err(`skilldex mcp: dropped a message larger than ${MAX_MESSAGE_BYTES} bytes`);
      void transport.send({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidRequest, message: `message larger than ${MAX_MESSAGE_BYTES / 1024 / 1024} MB; send smaller arguments` } });
    }, (id, problem, detail) => {
      const message =
        problem === 'batch' ? 'a JSON-RPC batch (an array) is not an MCP message; send one message per line'
        : problem === 'invalid-request' ? invalidRequestMessage(detail ?? '')
        : 'the message is not valid JSON; send one JSON-RPC message per line';
      err(`skilldex mcp: ${message}`);
      // JSON-RPC answers with a null id where the request's id cannot be read.
      void transport.send({ jsonrpc: '2.0', id: (id ?? null) as string | number, error: { code: problem === 'not-json' ? ErrorCode.ParseError : ErrorCode.InvalidRequest, message } });
    }, { stream: process.stdout, maxQueuedBytes: MAX_QUEUED_ANSWER_BYTES, maxInFlight: MAX_REQUESTS_IN_FLIGHT });
    const transport = new StdioServerTransport(input, process.stdout);
    // The SDK waits for 'drain' once per answer stdout cannot take yet; the input limit bounds how
    // many those are, so Node's "possible EventEmitter memory leak" warning would only be noise.
    process.stdout.setMaxListeners(0);
    // Every answer ends a request in flight, and may let the input read on.
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage) => {
      if ('id' in message && ('result' in message || 'error' in message) && message.id !== null && message.id !== undefined) input.answered(message.id);
      return send(message);
    };
    const closed = new Promise<void>((resolve) => {
      server.onclose = ((previous) => () => {
        previous?.();
        resolve();
      })(server.onclose);
    });
    process.stdin.pipe(input);
    // The client closing stdin is the end of the session (MCP's stdio shutdown).
    process.stdin.once('end', () => void server.close());
    // So is SIGTERM, which a client sends when the server has not exited after that, and Ctrl-C:
    // closing stops the runs in flight and removes their run folders. Node's default ended the
    // process at once and left each run folder, with what the skill wrote, behind. A second
    // signal still ends it at once.
    const stop = () => void server.close();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    // JSON that is not a JSON-RPC message: the SDK drops it and tells only this hook.
    server.onerror = (error) => err(`skilldex mcp: ${error.name === 'ZodError' ? 'ignored a message that is JSON but not a JSON-RPC message' : (error.message.split('\n')[0] ?? '').slice(0, 200)}`);
    await server.connect(transport);
    err(`skilldex MCP server on stdio (${what})`);
    await closed;
    // Closed by a signal, stdin is still open and would keep the process alive.
    process.stdin.unpipe(input);
    process.stdin.destroy();
    live.close();
    return 0;
  },
});

/** What to change when the HTTP server cannot listen: the port, the host or the privileges. */
function listenHint(code: string | undefined): string {
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return "the host is not an address of this machine: pass --host 127.0.0.1 (or another of this machine's addresses)";
  if (isPermissionDenied(code)) return 'ports below 1024 need privileges: pick a port above 1024 with --http, or 0 for any free one';
  return 'pick another port with --http, or 0 for any free one';
}
