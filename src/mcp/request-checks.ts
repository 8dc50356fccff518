import { ErrorCode, JSONRPCMessageSchema, JSONRPCRequestSchema, RequestIdSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ProtocolError } from './tool-results.ts';

/** The problems of a failed parse, one `- path: message` line each (at most 5, each cut short). */
export const issueLines = (issues: readonly z.core.$ZodIssue[], whole: string): string => {
  const lines = issues.slice(0, 5).map((issue) => `- ${issue.path.map(String).join('.') || whole}: ${issue.message.slice(0, 200)}`);
  return [...lines, ...(issues.length > 5 ? [`- and ${issues.length - 5} more`] : [])].join('\n');
};

/** A request schema of the SDK's: an object whose `method` is a literal. */
type RequestSchema = z.ZodObject<{ method: z.ZodLiteral<string> }>;

/**
 * `schema` as the SDK's `setRequestHandler` takes it, except that a request whose params do not
 * fit is answered -32602 with each problem and where it is. Given the schema itself, the SDK
 * answers such a request -32603 "Internal error" with zod's issues as a JSON dump, for tools/call
 * too (it parses with the handler's schema before its own tools/call check).
 *
 * The schema handed to the SDK passes every request of the method (a loose object with only the
 * method literal, which is what the SDK reads the method from); its check parses with the real
 * schema and throws the ProtocolError, which zod lets through its parse and the SDK sends as it
 * is. The handler receives the request as sent, which the real schema accepted: the SDK's request
 * schemas have no defaults or transforms, so that is what parsing would give.
 *
 * @example
 * server.setRequestHandler(paramsChecked(ReadResourceRequestSchema), (request) => read(request.params.uri));
 */
export function paramsChecked<S extends RequestSchema>(schema: S): S {
  return z.looseObject({ method: schema.shape.method }).check((ctx) => {
    parseRequest(schema, ctx.value);
  }) as unknown as S;
}

/**
 * Throws the ProtocolError -32602 naming what in `request` does not fit `schema`, e.g.
 * "resources/read: invalid params [INVALID_PARAM]\n- params.uri: Invalid input: expected string, received number".
 */
function parseRequest(schema: RequestSchema, request: unknown): void {
  const parsed = schema.safeParse(request);
  if (parsed.success) return;
  throw new ProtocolError(ErrorCode.InvalidParams, `${schema.shape.method.value}: invalid params [INVALID_PARAM]\n${issueLines(parsed.error.issues, 'params')}`);
}

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

/** What a client is told about a request {@link invalidRequest} refuses, on stdio and over HTTP. */
export const invalidRequestMessage = (problem: string): string =>
  `not a valid JSON-RPC request (${problem}); send {"jsonrpc":"2.0","id":<string or integer>,"method":…,"params":{…}}`;

/** The id of a request {@link invalidRequest} refuses, when that id is one (a string or an integer). */
export const requestIdOf = (message: unknown): string | number | undefined => {
  const id = RequestIdSchema.safeParse((message as { id?: unknown } | null)?.id);
  return id.success ? id.data : undefined;
};
