import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describeFailure } from '../core/errors/skilldex-error.ts';

/**
 * A JSON-RPC error for the client, its message as it is. The SDK's McpError puts "MCP error
 * <code>: " before its message and sends that, and the client's SDK puts it there again
 * ("MCP error -32002: MCP error -32002: no skill named …"); the SDK sends any error's `code`,
 * `message` and `data`.
 */
export class ProtocolError extends Error {
  override name = 'ProtocolError';
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** What an error says to an agent: message, code and hint, never a stack. */
export const describeError = (error: unknown): string => {
  const { text, hint, known } = describeFailure(error);
  if (known) return `${text}${hint ? `\nhint: ${hint}` : ''}`;
  if (error instanceof McpError || error instanceof ProtocolError) return error.message;
  return `internal error: ${text}`;
};

/** A failed tool call: `isError` with a text the agent can act on. */
export const toolError = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/** A successful tool call: structured content, plus a text rendering for clients that ignore it. */
export const structured = (value: Record<string, unknown>, text = JSON.stringify(value, null, 2)): CallToolResult => ({ structuredContent: value, content: [{ type: 'text', text }] });

export const RUN_OFF = 'running skills is off on this server; start it with --allow-run to allow it';
