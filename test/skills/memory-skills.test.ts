import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeRegistry, openRegistry } from '../../src/runtime/node/index.ts';
import { type ChatServer, startChatServer } from '../runtime/_chat-server.ts';
import { buildExamples, tempDir } from '../runtime/_registries.ts';
import { runSkilldex } from '../helpers/cli.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';

/**
 * The memory and caching example skills, from the built examples served on 127.0.0.1, in the
 * sandbox: memory_store and memory_search (TypeScript modules using ctx.memory),
 * research_and_summarize (the composite over both and the summarize llm skill, against a real
 * chat-completions server), and checksum (a cacheable Python script).
 */
let server: StaticServer;
let chat: ChatServer;
let registry: NodeRegistry;
let cacheDir: string;

beforeAll(async () => {
  server = await serveDirectory(await buildExamples());
  chat = await startChatServer();
  cacheDir = await tempDir('memory-skills');
  registry = await openRegistry(server.url, { cacheDir });
});
afterAll(async () => {
  await server.close();
  await chat.close();
});

describe('memory_store and memory_search', () => {
  it('stores memories owned by the context user and finds them again, in English and Chinese', async () => {
    const stored = await registry.run('memory_store', { content: 'Prefers oat-milk lattes, no sugar.', type: 'preference', importance: 4 }, { context: { user_id: 'u-1' } });
    expect(stored.output).toMatchObject({ stored: true });
    await registry.run('memory_store', { content: '项目使用 pnpm 管理依赖。', type: 'fact' });
    await registry.run('memory_store', { content: 'The quarterly review is on Friday.', type: 'event' });

    const coffee = await registry.run('memory_search', { query: 'lattes', limit: 2 });
    expect(coffee.output).toEqual({ results: [{ snippet: 'Prefers oat-milk lattes, no sugar.', score: expect.any(Number), path: (stored.output as { path: string }).path, type: 'preference' }] });
    const pnpm = await registry.run('memory_search', { query: '依赖' });
    expect((pnpm.output as { results: { snippet: string }[] }).results[0]?.snippet).toBe('项目使用 pnpm 管理依赖。');
  });

  it('rejects an empty query with INVALID_PARAM before running', async () => {
    expect((await registry.run('memory_search', { query: '' })).error?.code).toBe('INVALID_PARAM');
  });

  it('research_and_summarize summarises what memory_search found, with its sources', async () => {
    await registry.run('memory_store', { content: 'The registry build must stay byte-identical across machines.', type: 'fact' });
    await registry.run('memory_store', { content: 'Registry signing uses Ed25519 keys.', type: 'fact' });
    chat.fallback = () => '```json\n{"summary": "- builds are reproducible\\n- signed with Ed25519", "keyPoints": ["reproducible", "Ed25519"], "language": "en"}\n```';
    const calls = chat.calls.length;
    const llm = (await import('../../src/runtime/node/index.ts')).chatCompletionsProvider({ baseUrl: chat.baseUrl, model: 'test-model', apiKey: 'k' });
    const outcome = await registry.run('research_and_summarize', { topic: 'registry' }, { llm });
    expect(outcome.error).toBeUndefined();
    expect(outcome.output).toMatchObject({ summary: '- builds are reproducible\n- signed with Ed25519', sources: [expect.objectContaining({ snippet: expect.stringContaining('egistry') }), expect.objectContaining({ snippet: expect.stringContaining('egistry') })] });
    expect(chat.calls.length).toBe(calls + 1);
    // The model was given the memories themselves.
    expect(JSON.parse(chat.calls.at(-1)?.body.messages[1]?.content ?? '{}').text).toContain('Ed25519');
  });
});

describe('checksum (cacheable)', () => {
  it('computes checksums and checks an expected value', async () => {
    const outcome = await registry.run('checksum', { text: 'abc', algorithms: ['md5', 'crc32'], expected: 'SHA256:BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD' });
    expect(outcome.output).toEqual({ checksums: { md5: '900150983cd24fb0d6963f7d28e17f72', crc32: '352441c2', sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' }, bytes: 3, matches: true, matchedAlgorithm: 'sha256' });
    expect((await registry.run('checksum', { text: 'abc', expected: '00000000' })).output).toMatchObject({ matches: false });
  });

  it('answers a repeated request from the results cache, through the CLI, and --no-cache runs it again', async () => {
    const cli = (extra: string[]) => runSkilldex(cacheDir, ['run', 'checksum', '--input', '{"text": "cache me", "algorithms": ["sha1"]}', '--registry', server.url, '--cache-dir', cacheDir, '--quiet', ...extra]);
    const first = JSON.parse((await cli([])).stdout);
    const second = JSON.parse((await cli([])).stdout);
    const fresh = JSON.parse((await cli(['--no-cache'])).stdout);
    expect(first.cache.hit).toBe(false);
    expect(Date.parse(first.cache.expiresAt) - Date.parse(first.cache.storedAt)).toBe(86_400_000);
    expect(second).toMatchObject({ output: first.output, cache: { hit: true, storedAt: first.cache.storedAt } });
    expect(fresh.output).toEqual(first.output);
    expect(fresh.cache).toBeUndefined();
  });
});
