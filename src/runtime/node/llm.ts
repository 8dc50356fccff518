import type { SkillManifest } from '../../core/schemas/manifest.ts';
import { type Attempt, failed } from './attempt.ts';
import { checkOutput } from './schema-check.ts';
import { ModelCallError } from './model-call-error.ts';
import { readBoundedBody } from '../transport.ts';
import { bracketDepthExceeds, MAX_JSON_DEPTH } from '../../core/json-depth.ts';

class ReplyTooDeep extends Error {}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** Aborts the request when the skill's timeout passes. */
  signal: AbortSignal;
}

export interface ChatReply {
  content: string;
  /** Total tokens, when the provider reports usage. */
  tokens?: number;
}

/**
 * Anything that answers a chat: pass one to `run()` to use a model without HTTP. A provider that
 * throws is not asked again unless the error says `retryable: true` (see ModelCallError).
 */
export type ChatProvider = (request: ChatRequest) => Promise<ChatReply>;

/**
 * HTTP statuses worth another request: the server said "not now" (408, 429) or a proxy in front of it
 * could not reach it (502, 503, 504). 500 is a bug on the server and every other 4xx a problem with
 * the request or the key; sending the same request again would fail the same way and cost money.
 */
const RETRYABLE_STATUS = new Set([408, 429, 502, 503, 504]);

/**
 * The most bytes read of one reply. A chat reply is some kilobytes; read whole with
 * `response.text()`, a server streaming without end took 2 GB of memory and ran 26 s past an
 * 8 s timeout before the run gave up.
 */
export const MAX_REPLY_BYTES = 16 * 1024 * 1024;

/** The reply's text, refused once it passes {@link MAX_REPLY_BYTES} (declared or received). */
async function replyText(response: Response, url: string): Promise<string> {
  const tooLarge = () => new ModelCallError(`POST ${url} answered with more than ${MAX_REPLY_BYTES} bytes, more than any chat reply`, response.status, false);
  return new TextDecoder().decode(await readBoundedBody(response, { maxBytes: MAX_REPLY_BYTES, tooLarge }));
}

export interface ChatCompletionsConfig {
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  fetch?: typeof fetch;
}

/**
 * An OpenAI-compatible chat-completions client (OpenAI, Ollama, vLLM, LM Studio, llama.cpp all
 * speak it).
 *
 * @example
 * const provider = chatCompletionsProvider({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5' });
 */
export function chatCompletionsProvider(config: ChatCompletionsConfig): ChatProvider {
  const fetchImpl = config.fetch ?? globalThis.fetch.bind(globalThis);
  const url = `${config.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return async ({ messages, signal }) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(url, { method: 'POST', headers, body: JSON.stringify({ model: config.model, messages, temperature: 0 }), signal });
      text = await replyText(response, url);
    } catch (error) {
      if (signal.aborted || error instanceof ModelCallError) throw error;
      // Refused, reset or dropped connections: the server may be restarting.
      const cause = (error as { cause?: { code?: unknown } }).cause?.code;
      throw new ModelCallError(`POST ${url} failed: ${(error as Error).message}${typeof cause === 'string' ? ` (${cause})` : ''}`, undefined, true);
    }
    if (!response.ok) throw new ModelCallError(`POST ${url} answered ${response.status}: ${text.slice(0, 300)}`, response.status, RETRYABLE_STATUS.has(response.status));
    let body: { choices?: { message?: { content?: unknown } }[]; usage?: { total_tokens?: number } };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new ModelCallError(`POST ${url} answered ${response.status} with a body that is not JSON: ${JSON.stringify(text.slice(0, 200))}`, response.status, false);
    }
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new ModelCallError(`POST ${url}: the reply has no choices[0].message.content`, response.status, false);
    return { content, tokens: body.usage?.total_tokens };
  };
}

/**
 * The provider configured by environment: `SKILLDEX_LLM_BASE_URL`, `SKILLDEX_LLM_MODEL` and
 * optionally `SKILLDEX_LLM_API_KEY`. Undefined when no base URL is set.
 */
export function providerFromEnv(env: NodeJS.ProcessEnv = process.env): ChatProvider | undefined {
  if (!env.SKILLDEX_LLM_BASE_URL) return undefined;
  return chatCompletionsProvider({ baseUrl: env.SKILLDEX_LLM_BASE_URL, apiKey: env.SKILLDEX_LLM_API_KEY, model: env.SKILLDEX_LLM_MODEL ?? 'default' });
}

/** Models wrap JSON in a Markdown fence more often than not; accept ```json … ``` around the value. */
export function parseModelJson(content: string): unknown {
  const trimmed = content.trim();
  const fenced = /^```(?:json|JSON)?[ \t]*\r?\n([\s\S]*?)\r?\n?```$/.exec(trimmed);
  return JSON.parse(fenced ? (fenced[1] as string) : trimmed);
}

/**
 * The system message: prompt.md as written, then the output schema, because the reply is only
 * accepted if it satisfies that schema and the model cannot guess it.
 */
function systemMessage(manifest: SkillManifest, prompt: string): string {
  if (!manifest.outputSchema) return prompt;
  return `${prompt.trimEnd()}\n\n---\nReply with one JSON value and nothing else. It must satisfy this JSON Schema:\n${JSON.stringify(manifest.outputSchema)}`;
}

/** Waits before asking a struggling server again (200 ms, 400 ms, … at most 2 s), or until the run stops. */
const backoff = (attempt: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, Math.min(2000, 200 * 2 ** (attempt - 1)));
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });

/**
 * Runs an llm-mode skill: prompt.md is the system message, the validated input (as JSON) the user
 * message. The reply must parse as JSON (a ```json fence is tolerated) and satisfy the output
 * schema. Exactly `1 + retry` model calls at most. A later call is made only after
 * - a reply that is not JSON or breaks the output schema: the model is told the problem and asked
 *   again (a model that slipped once usually corrects itself); or
 * - a call that failed for a reason that may pass (a dropped connection, HTTP 408, 429, 502, 503,
 *   504; see ModelCallError), after a short backoff.
 * Anything else (HTTP 500, 401, 400…, a reply without content) ends the run at once. Each correction
 * replaces the previous one, so a request never carries more than system, user, the last reply and
 * its correction: the conversation cannot grow with the number of tries. `timeoutMs` bounds all
 * tries together.
 */
export async function runLlm(manifest: SkillManifest, prompt: string, input: unknown, provider: ChatProvider | undefined, timeoutMs: number, retry: number, cancel?: AbortSignal): Promise<Attempt> {
  if (!provider) {
    return failed('EXTERNAL_SERVICE_ERROR', `${manifest.name} is an llm-mode skill and no model is configured`, {
      hint: 'set SKILLDEX_LLM_BASE_URL (an OpenAI-compatible /v1 URL), SKILLDEX_LLM_MODEL and SKILLDEX_LLM_API_KEY, or pass { llm } to run()',
    });
  }
  const opening: ChatMessage[] = [
    { role: 'system', content: systemMessage(manifest, prompt) },
    { role: 'user', content: JSON.stringify(input) },
  ];
  let correction: ChatMessage[] = [];
  const tries = 1 + retry;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = cancel ? AbortSignal.any([cancel, deadline]) : deadline;
  let tokens = 0;
  let sawTokens = false;
  const warnings: string[] = [];
  let last: Attempt = failed('INTERNAL_ERROR', 'no attempt made');
  for (let attempt = 1; attempt <= tries; attempt += 1) {
    let reply: ChatReply;
    try {
      reply = await provider({ messages: [...opening, ...correction], signal });
    } catch (error) {
      if (cancel?.aborted) return failed('CANCELLED', `${manifest.name}: the run was stopped while waiting for the model`);
      if (signal.aborted) return failed('TIMEOUT', `${manifest.name}: the model did not answer within ${timeoutMs} ms`);
      const message = `${manifest.name}: the model call failed: ${(error as Error).message}`;
      const status = (error as { status?: unknown }).status;
      last = failed('EXTERNAL_SERVICE_ERROR', message, typeof status === 'number' ? { status } : undefined);
      if ((error as { retryable?: unknown }).retryable !== true) return { ...last, extras: { ...(sawTokens ? { tokenUsage: tokens } : {}), ...(warnings.length > 0 ? { warnings } : {}) } };
      warnings.push(`try ${attempt}: ${message}`);
      if (attempt < tries) await backoff(attempt, signal);
      continue;
    }
    // The server's own count: anything but a count (a string, an object) made tokenUsage text
    // such as "0lots", which breaks the outcome's schema for every client that checks it.
    if (typeof reply.tokens === 'number' && Number.isFinite(reply.tokens) && reply.tokens >= 0) {
      tokens += reply.tokens;
      sawTokens = true;
    }
    let problem: string;
    try {
      // Counted first: a reply nested some thousands deep overflowed the stack of the schema check,
      // and the model was told its valid JSON was invalid.
      if (bracketDepthExceeds(reply.content, MAX_JSON_DEPTH) !== undefined) throw new ReplyTooDeep();
      const output = parseModelJson(reply.content);
      const check = checkOutput(manifest.outputSchema, output);
      if (check.ok) {
        return { ok: true, output, extras: { format: 'json', ...(sawTokens ? { tokenUsage: tokens } : {}), ...(warnings.length > 0 ? { warnings } : {}) } };
      }
      problem = check.error.message;
      last = { ok: false, error: check.error };
    } catch (error) {
      problem = error instanceof ReplyTooDeep ? `the reply nests deeper than ${MAX_JSON_DEPTH} levels` : `the reply is not valid JSON (${(error as Error).message})`;
      last = failed('INVALID_OUTPUT', `${manifest.name}: ${problem}`, { reply: reply.content.slice(0, 400) });
    }
    warnings.push(`try ${attempt}: ${problem}`);
    correction = [
      { role: 'assistant', content: reply.content },
      { role: 'user', content: `${problem}. Reply again with only the corrected JSON value.` },
    ];
  }
  return { ...last, extras: { ...(sawTokens ? { tokenUsage: tokens } : {}), warnings } };
}
