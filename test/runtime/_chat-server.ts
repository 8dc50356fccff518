import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from '../../scripts/preview.ts';

export interface ChatCall {
  authorization: string | undefined;
  body: { model: string; messages: { role: string; content: string }[] };
}

export interface ChatServer {
  /** Base URL ending in /v1, as SKILLDEX_LLM_BASE_URL expects. */
  baseUrl: string;
  calls: ChatCall[];
  /** Replies to hand out in order; when empty, `fallback` answers. */
  replies: string[];
  fallback: (call: ChatCall) => string;
  /** HTTP statuses to answer with, in order, before any reply (e.g. 503, 500); when empty, 200. */
  statuses: number[];
  /** Wait this long before answering (to test timeouts). */
  delayMs: number;
  /** The `usage` of every reply. */
  usage: unknown;
  /** Answer 200 and then send bytes without end, until the client goes away; counts what was sent. */
  endless: { on: boolean; sent: number };
  close(): Promise<void>;
}

/**
 * A real OpenAI-compatible chat-completions server on 127.0.0.1. It answers
 * `POST /v1/chat/completions` with the next scripted reply and records every request.
 */
export async function startChatServer(): Promise<ChatServer> {
  const state: ChatServer = {
    baseUrl: '',
    calls: [],
    replies: [],
    statuses: [],
    fallback: () => '{}',
    delayMs: 0,
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    endless: { on: false, sent: 0 },
    close: async () => {},
  };
  const server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    const call: ChatCall = { authorization: req.headers.authorization, body: JSON.parse(text) };
    state.calls.push(call);
    if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    if (state.endless.on) {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = () => {
        while (!res.destroyed) {
          state.endless.sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      res.write('{"choices":[{"message":{"content":"');
      pump();
      return;
    }
    const status = state.statuses.shift();
    if (status !== undefined && status !== 200) {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `scripted ${status}` } }));
      return;
    }
    const content = state.replies.length > 0 ? (state.replies.shift() as string) : state.fallback(call);
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${state.calls.length}`,
        object: 'chat.completion',
        model: call.body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: state.usage,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.baseUrl = `http://127.0.0.1:${port}/v1`;
  state.close = () => closeServer(server);
  return state;
}
