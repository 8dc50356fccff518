import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeRegistry, openRegistry, providerFromEnv } from '../../src/runtime/node/index.ts';
import { type ChatServer, startChatServer } from './_chat-server.ts';
import { buildExamples, tempDir } from './_registries.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';
import { runExampleOf } from '../../src/site/catalog/run-example.ts';

/**
 * Every example skill in skills/, run through the runtime from a registry served over HTTP: code
 * skills with real python3, sh and node; llm skills against a real chat-completions server;
 * composite pipelines; instructions skills. A new example skill without an entry here fails the
 * suite, so nothing published goes unrun.
 */
const SAMPLES: Record<string, { input: unknown; action?: string; expect?: (output: unknown) => void }> = {
  'chinese-proofreading': { input: {}, expect: (o) => expect(o).toMatch(/^# /) },
  'conventional-commits': { input: {}, expect: (o) => expect(typeof o).toBe('string') },
  'japanese-business-email': { input: {}, expect: (o) => expect(typeof o).toBe('string') },
  'json-toolkit': { input: { text: '{"b":1,"a":[1,2]}', sort_keys: true, indent: 0, compact: true }, action: 'format', expect: (o) => expect(JSON.stringify(o)).toContain('{\\"a\\":[1,2],\\"b\\":1}') },
  'semver-tool': { input: { action: 'bump', params: { version: '1.4.0-rc.2', part: 'minor' } }, expect: (o) => expect(o).toMatchObject({ version: '1.4.0' }) },
  'csv-profile': { input: { csv: 'city,temp\nOslo,3\nRome,14\n' }, expect: (o) => expect(JSON.stringify(o)).toContain('temp') },
  'unit-converter': { input: { value: 5, from: 'km', to: 'm' }, expect: (o) => expect(JSON.stringify(o)).toContain('5000') },
  'date-calc': { input: { date: '2024-02-28', days: 2 }, action: 'addDays', expect: (o) => expect(o).toMatchObject({ result: '2024-03-01', weekday: 'Friday' }) },
  'action-items': { input: { notes: '## Action items\n- [ ] Alice: send the report by Friday\n- TODO: book the room', meetingDate: '2026-01-05' }, expect: (o) => expect(JSON.stringify(o)).toContain('report') },
  keyword_extract: { input: { text: 'Rust ownership makes memory safety checkable. Rust borrow checker, Rust memory.' }, expect: (o) => expect(JSON.stringify(o)).toContain('rust') },
  markdown_toc: { input: { markdown: '# Title\n\n## Install\n\n### From npm\n\n## Usage\n' }, expect: (o) => expect(o).toMatchObject({ toc: expect.stringContaining('[Install](#install)') }) },
  text_stats: { input: { text: '你好，世界。Hello world.' }, expect: (o) => expect(o).toMatchObject({ cjkCharacters: 4 }) },
  text_report: { input: { text: 'Rust ownership makes memory safety checkable.\n\nRust memory is fun.', top: 3 }, expect: (o) => expect(o).toMatchObject({ keywords: expect.arrayContaining(['rust']) }) },
  code_review: { input: { code: 'eval(input())', language: 'python' }, expect: (o) => expect(o).toHaveProperty('verdict') },
  summarize: { input: { text: 'Skilldex publishes skills as a static registry.' }, expect: (o) => expect(o).toHaveProperty('summary') },
  memory_search: { input: { query: 'coffee' }, expect: (o) => expect(o).toEqual({ results: [] }) },
  memory_store: { input: { content: 'The user drinks oat-milk lattes.', type: 'preference' }, expect: (o) => expect(o).toMatchObject({ stored: true, path: expect.stringMatching(/^memory\/m-/) }) },
  // No memory mentions the topic, so the summarize step is skipped and no model is needed.
  research_and_summarize: { input: { topic: 'quantum gardening' }, expect: (o) => expect(o).toEqual({ summary: '(nothing remembered about this topic)', sources: [] }) },
  checksum: { input: { text: 'abc' }, expect: (o) => expect(o).toMatchObject({ checksums: { sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' }, bytes: 3 }) },
  systematic_debugging: { input: { error: 'TypeError: undefined is not a function' }, expect: (o) => expect(o).toHaveProperty('rootCause') },
};

/** A value satisfying a JSON Schema, the way a well-behaved model would answer. */
function sample(schema: Record<string, unknown> | undefined): unknown {
  if (!schema) return {};
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case 'string':
      return 'text';
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [sample(schema.items as Record<string, unknown>)];
    default: {
      const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, sample(v)]));
    }
  }
}

let server: StaticServer;
let chat: ChatServer;
let registry: NodeRegistry;

beforeAll(async () => {
  server = await serveDirectory(await buildExamples());
  chat = await startChatServer();
  registry = await openRegistry(server.url, { cacheDir: await tempDir('cache') });
});
afterAll(async () => {
  await server.close();
  await chat.close();
});

describe('every example skill runs', () => {
  it('has a sample input for every published example', () => {
    expect(registry.list().map((s) => s.name).filter((name) => !(name in SAMPLES))).toEqual([]);
  });

  it('covers every mode and every format', () => {
    expect(new Set(registry.list().map((s) => s.mode))).toEqual(new Set(['instructions', 'code', 'llm', 'composite']));
    expect(new Set(registry.list().map((s) => s.format))).toEqual(new Set(['skill-md', 'package', 'skill-json']));
  });

  const names = Object.keys(SAMPLES);
  it.each(names)('%s', async (name) => {
    if (!registry.find(name)) throw new Error(`${name} is in SAMPLES but not in the built registry`);
    const manifest = await registry.manifest(name);
    const sampleCase = SAMPLES[name] as (typeof SAMPLES)[string];
    let llm: ReturnType<typeof providerFromEnv>;
    if (manifest.mode === 'llm') {
      chat.fallback = () => `\`\`\`json\n${JSON.stringify(sample(manifest.outputSchema))}\n\`\`\``;
      process.env.SKILLDEX_LLM_BASE_URL = chat.baseUrl;
      process.env.SKILLDEX_LLM_MODEL = 'test-model';
      process.env.SKILLDEX_LLM_API_KEY = 'key-123';
      llm = providerFromEnv();
    }
    const calls = chat.calls.length;
    const outcome = await registry.run(name, sampleCase.input, { action: sampleCase.action, llm });
    expect(outcome.error).toBeUndefined();
    expect(outcome.status).toBe('success');
    sampleCase.expect?.(outcome.output);
    // A protocol script that names its version in the envelope names the one it is published as.
    const reported = (outcome as { metadata?: { version?: unknown } }).metadata?.version;
    if (reported !== undefined) expect(reported).toBe(manifest.version);
    if (manifest.mode === 'llm') {
      const call = chat.calls.at(-1);
      expect(chat.calls.length).toBe(calls + 1);
      expect(call?.authorization).toBe('Bearer key-123');
      expect(call?.body.model).toBe('test-model');
      expect(call?.body.messages[0]?.role).toBe('system');
      expect(call?.body.messages[0]?.content.startsWith((manifest.prompt ?? '').trimEnd())).toBe(true);
      expect(JSON.parse(call?.body.messages[1]?.content ?? 'null')).toMatchObject(sampleCase.input as object);
      expect(outcome.tokenUsage).toBe(15);
    }
    if (manifest.mode === 'composite') {
      expect(outcome.intermediateSteps?.map((s) => s.stepId)).toEqual(manifest.pipeline?.map((s) => s.step));
      for (const step of outcome.intermediateSteps ?? []) expect(step.duration).toBeGreaterThanOrEqual(0);
    }
  });

  // The command a skill's page shows ("skilldex run <name> --input '…'") works as pasted: its input
  // is the author's example, not a placeholder the skill refuses. Each with a fresh cache, as a
  // reader pasting one command has: no memory stored by another run is found.
  it('runs every code and composite skill with the input its catalog page shows', async () => {
    const failed: string[] = [];
    let ran = 0;
    for (const { name } of registry.list()) {
      const fresh = await openRegistry(server.url, { cacheDir: await tempDir(`page-input-${name}`) });
      const manifest = await fresh.manifest(name);
      if (!manifest.inputSchema || (manifest.mode !== 'code' && manifest.mode !== 'composite')) continue;
      const input = runExampleOf(manifest.inputSchema, manifest.instructions ?? manifest.prompt).input;
      const outcome = await fresh.run(name, input);
      ran++;
      if (outcome.status !== 'success') failed.push(`${name} ${JSON.stringify(input)}: ${outcome.error?.code} ${outcome.error?.message}`);
    }
    expect(failed).toEqual([]);
    expect(ran).toBeGreaterThanOrEqual(12);
  }, 120_000);
});
