import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionsProvider, type NodeRegistry, openRegistry, parseModelJson } from '../../src/runtime/node/index.ts';
import { MAX_REPLY_BYTES } from '../../src/runtime/node/llm.ts';
import { type ChatServer, startChatServer } from './_chat-server.ts';
import { buildExamples, tempDir } from './_registries.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';

let server: StaticServer;
let chat: ChatServer;
let registry: NodeRegistry;
let llm: ReturnType<typeof chatCompletionsProvider>;

const summary = { summary: '- static registry', keyPoints: ['static'], language: 'en' };

beforeAll(async () => {
  server = await serveDirectory(await buildExamples());
  chat = await startChatServer();
  registry = await openRegistry(server.url, { cacheDir: await tempDir('cache') });
  llm = chatCompletionsProvider({ baseUrl: chat.baseUrl, model: 'local-model' });
});
beforeEach(() => {
  chat.replies.length = 0;
  chat.calls.length = 0;
  chat.delayMs = 0;
  chat.statuses.length = 0;
  chat.endless.on = false;
  chat.usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  chat.fallback = () => JSON.stringify(summary);
});
afterAll(async () => {
  await server.close();
  await chat.close();
});

describe('llm mode against a local chat-completions server', () => {
  it('sends prompt.md (plus the output schema) as system and the JSON input as user', async () => {
    const outcome = await registry.run('summarize', { text: '长文本' }, { llm });
    expect(outcome).toMatchObject({ status: 'success', output: summary, format: 'json', tokenUsage: 15 });
    const [call] = chat.calls;
    const manifest = await registry.manifest('summarize');
    expect(call?.body.model).toBe('local-model');
    expect(call?.body.messages[0]?.content.startsWith(manifest.prompt?.trimEnd() ?? '∅')).toBe(true);
    expect(call?.body.messages[0]?.content).toContain(JSON.stringify(manifest.outputSchema));
    // Defaults from the input schema are applied before the call.
    expect(JSON.parse(call?.body.messages[1]?.content ?? '')).toMatchObject({ text: '长文本', style: 'bullets' });
  });

  it('counts only the tokens a server reports as a count', async () => {
    for (const total of ['lots', { n: 1 }, -5, null]) {
      chat.usage = { total_tokens: total };
      const outcome = await registry.run('summarize', { text: 'x' }, { llm });
      expect(outcome.status).toBe('success');
      expect(outcome).not.toHaveProperty('tokenUsage');
    }
    chat.usage = { total_tokens: 7 };
    chat.replies.push('not JSON');
    const retried = await registry.run('summarize', { text: 'x' }, { llm, retry: 1 });
    expect(retried).toMatchObject({ status: 'success', tokenUsage: 14 });
  });

  it('retries after a reply that is not JSON, telling the model what was wrong', async () => {
    chat.replies.push('Sure! Here is your summary: it is a registry.', JSON.stringify(summary));
    const outcome = await registry.run('summarize', { text: 'x' }, { llm });
    expect(outcome.status).toBe('success');
    expect(outcome.output).toEqual(summary);
    expect(chat.calls).toHaveLength(2);
    const second = chat.calls[1]?.body.messages ?? [];
    expect(second.at(-2)).toEqual({ role: 'assistant', content: 'Sure! Here is your summary: it is a registry.' });
    expect(second.at(-1)?.content).toMatch(/not valid JSON/);
    expect(outcome.warnings?.[0]).toMatch(/^try 1: the reply is not valid JSON/);
    expect(outcome.tokenUsage).toBe(30);
  });

  it('accepts a ```json fence and retries a reply that breaks the output schema', async () => {
    chat.replies.push('```json\n{"summary": 1}\n```', '```json\n' + JSON.stringify(summary) + '\n```');
    const outcome = await registry.run('summarize', { text: 'x' }, { llm });
    expect(outcome.output).toEqual(summary);
    expect(chat.calls[1]?.body.messages.at(-1)?.content).toContain('output schema');
  });

  it('gives up with INVALID_OUTPUT after the allowed tries: retry 0 is one call, retry 2 three', async () => {
    chat.fallback = () => 'never JSON';
    // code_review declares retry 0.
    const outcome = await registry.run('code_review', { code: 'x' }, { llm });
    expect(outcome.error?.code).toBe('INVALID_OUTPUT');
    expect(chat.calls).toHaveLength(1);
    expect(outcome.warnings).toHaveLength(1);
    chat.calls.length = 0;
    const three = await registry.run('code_review', { code: 'x' }, { llm, retry: 2 });
    expect(three.error?.code).toBe('INVALID_OUTPUT');
    expect(chat.calls).toHaveLength(3);
  });

  it('does not retry an HTTP 500 or 401, and retries 503 and 429 only within retry', async () => {
    chat.statuses.push(500);
    const internal = await registry.run('summarize', { text: 'x' }, { llm, retry: 3 });
    expect(internal.error).toMatchObject({ code: 'EXTERNAL_SERVICE_ERROR', details: { status: 500 } });
    expect(chat.calls).toHaveLength(1);

    chat.calls.length = 0;
    chat.statuses.push(401);
    expect((await registry.run('summarize', { text: 'x' }, { llm, retry: 3 })).error?.code).toBe('EXTERNAL_SERVICE_ERROR');
    expect(chat.calls).toHaveLength(1);

    chat.calls.length = 0;
    chat.statuses.push(503, 429);
    const recovered = await registry.run('summarize', { text: 'x' }, { llm, retry: 2 });
    expect(recovered).toMatchObject({ status: 'success', output: summary });
    expect(chat.calls).toHaveLength(3);
    expect(recovered.warnings).toEqual([expect.stringContaining('answered 503'), expect.stringContaining('answered 429')]);

    chat.calls.length = 0;
    chat.statuses.push(503, 503);
    const none = await registry.run('summarize', { text: 'x' }, { llm, retry: 0 });
    expect(none.error).toMatchObject({ code: 'EXTERNAL_SERVICE_ERROR', details: { status: 503 } });
    expect(chat.calls).toHaveLength(1);
  });

  it('refuses a reply over 16 MB, and stops reading one that never ends at that size', async () => {
    chat.fallback = () => 'x'.repeat(20_000_000);
    const huge = await registry.run('summarize', { text: 'x' }, { llm, retry: 0 });
    expect(huge.error?.code).toBe('EXTERNAL_SERVICE_ERROR');
    expect(huge.error?.message).toContain(`answered with more than ${MAX_REPLY_BYTES} bytes`);

    chat.endless.on = true;
    chat.endless.sent = 0;
    const endless = await registry.run('summarize', { text: 'x' }, { llm, retry: 0, timeoutMs: 60_000 });
    expect(endless.error?.code).toBe('EXTERNAL_SERVICE_ERROR');
    expect(endless.error?.message).toContain('more than any chat reply');
    // The server's socket buffers hold some more than the client read; nothing near unbounded.
    expect(chat.endless.sent).toBeLessThan(4 * MAX_REPLY_BYTES);
  });

  it('says a reply nested 100,000 deep nests too deep, not that it is invalid JSON', async () => {
    chat.fallback = () => `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const deep = await registry.run('summarize', { text: 'x' }, { llm, retry: 0 });
    expect(deep.error?.code).toBe('INVALID_OUTPUT');
    expect(deep.error?.message).toContain('the reply nests deeper than 64 levels');
  });

  it('bounds retries and keeps each correction request to system, user, last reply and correction', async () => {
    let n = 0;
    chat.fallback = () => `not JSON, attempt ${++n}`;
    const outcome = await registry.run('summarize', { text: 'x' }, { llm, retry: 1_000_000 });
    expect(outcome.error?.code).toBe('INVALID_OUTPUT');
    // retry is capped at 5: one try plus five corrections.
    expect(chat.calls).toHaveLength(6);
    for (const call of chat.calls.slice(1)) {
      expect(call.body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    }
    expect(chat.calls[5]?.body.messages[2]).toEqual({ role: 'assistant', content: 'not JSON, attempt 5' });
  });

  it('reports a missing model configuration, an unreachable server and a slow one', async () => {
    const saved = process.env.SKILLDEX_LLM_BASE_URL;
    delete process.env.SKILLDEX_LLM_BASE_URL;
    try {
      const none = await registry.run('summarize', { text: 'x' });
      expect(none.error?.code).toBe('EXTERNAL_SERVICE_ERROR');
      expect((none.error?.details as { hint: string }).hint).toContain('SKILLDEX_LLM_BASE_URL');
    } finally {
      if (saved !== undefined) process.env.SKILLDEX_LLM_BASE_URL = saved;
    }
    const down = await registry.run('summarize', { text: 'x' }, { llm: chatCompletionsProvider({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }) });
    expect(down.error?.code).toBe('EXTERNAL_SERVICE_ERROR');
    chat.delayMs = 2_000;
    const slow = await registry.run('summarize', { text: 'x' }, { llm, timeoutMs: 300 });
    expect(slow.error?.code).toBe('TIMEOUT');
  });

  it('validates input before calling the model', async () => {
    const outcome = await registry.run('summarize', { text: 5 }, { llm });
    expect(outcome.error?.code).toBe('INVALID_PARAM');
    expect(chat.calls).toHaveLength(0);
  });
});

describe('parseModelJson', () => {
  it('reads bare JSON and fenced JSON, and rejects prose', () => {
    expect(parseModelJson(' {"a":1} ')).toEqual({ a: 1 });
    expect(parseModelJson('```json\n{"a":1}\n```')).toEqual({ a: 1 });
    expect(parseModelJson('```\n[1]\n```')).toEqual([1]);
    expect(() => parseModelJson('Here: {"a":1}')).toThrow();
  });
});
