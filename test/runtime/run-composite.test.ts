import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openRegistry } from '../../src/runtime/node/index.ts';
import { buildExamples, buildInto, rewriteManifest, tempDir } from './_registries.ts';

let built: string;

beforeAll(async () => {
  built = await buildExamples();
});

/** A copy of the built registry with some manifests rewritten (pipelines are manifest data). */
async function registryWith(changes: Record<string, (manifest: Record<string, any>) => void>) {
  const copy = await tempDir('composite');
  await cp(built, copy, { recursive: true });
  for (const [name, change] of Object.entries(changes)) await rewriteManifest(copy, name, change);
  return openRegistry(copy, { cacheDir: await tempDir('cache') });
}

describe('composite pipelines', () => {
  it('runs steps through the runtime, records each with its duration, and maps the output', async () => {
    const registry = await openRegistry(built, { cacheDir: await tempDir('cache') });
    const text = 'Rust ownership makes memory safety checkable.\n\nRust memory is fun.';
    const outcome = await registry.run('text_report', { text, top: 2 });
    expect(outcome.status).toBe('success');
    const steps = outcome.intermediateSteps ?? [];
    expect(steps.map((s) => [s.stepId, s.stepName])).toEqual([
      ['stats', 'text_stats'],
      ['keywords', 'keyword_extract'],
    ]);
    expect(steps[0]?.input).toEqual({ text });
    // `{{input.top | default: 5}}` alone in a string keeps the number type.
    expect(steps[1]?.input).toEqual({ text, limit: 2 });
    for (const step of steps) expect(typeof step.duration).toBe('number');
    const output = outcome.output as Record<string, unknown>;
    expect(output.words).toBe((steps[0]?.output as { words: number }).words);
    expect(output.keywords).toEqual(((steps[1]?.output as { keywords: { term: string }[] }).keywords).map((k) => k.term));
    expect(output.keywordLine).toBe((output.keywords as string[]).join(', '));
    expect(output.summary).toMatch(/^\d+ words · 2 paragraphs/);
  });

  it("lists a nested composite's steps as outer/inner when it succeeds, as when it fails", async () => {
    const root = await tempDir('nested-root');
    const number = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    const skill = async (name: string, json: Record<string, unknown>, index?: string) => {
      const dir = join(root, 'skills', name);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'skill.json'), JSON.stringify({ name, category: 'test', input: number, output: number, version: '1.0.0', ...json }));
      if (index) await writeFile(join(dir, 'index.ts'), index);
    };
    await skill('double', { description: 'Doubles n, for nested pipeline tests.', mode: 'code' }, 'export async function execute(input: { n: number }) {\n  return { n: input.n * 2 };\n}\n');
    const pipeline = (first: string, second: string) => [
      { step: 'a', skill: first, input: { n: '{{input.n}}' } },
      { step: 'b', skill: second, input: { n: '{{steps.a.n}}' } },
    ];
    await skill('inner', { description: 'Doubles n twice, for nested pipeline tests.', mode: 'composite', calls: ['double'], pipeline: pipeline('double', 'double') });
    await skill('outer', { description: 'Runs inner, then doubles, for nested pipeline tests.', mode: 'composite', calls: ['inner', 'double'], pipeline: pipeline('inner', 'double') });
    const registry = await openRegistry(await buildInto(root, 'nested'), { cacheDir: await tempDir('cache') });
    const outcome = await registry.run('outer', { n: 1 });
    expect(outcome).toMatchObject({ status: 'success', output: { n: 8 } });
    expect(outcome.intermediateSteps?.map((s) => [s.stepId, s.stepName, s.input, s.output])).toEqual([
      ['a', 'inner', { n: 1 }, { n: 4 }],
      ['a/a', 'double', { n: 1 }, { n: 2 }],
      ['a/b', 'double', { n: 2 }, { n: 4 }],
      ['b', 'double', { n: 4 }, { n: 8 }],
    ]);
  });

  it('skips a step whose condition renders falsy', async () => {
    const registry = await openRegistry(built, { cacheDir: await tempDir('cache') });
    const outcome = await registry.run('text_report', { text: '' });
    expect(outcome.status).toBe('success');
    expect(outcome.intermediateSteps?.[1]).toMatchObject({ stepId: 'keywords', skipped: true, output: null });
    expect((outcome.output as Record<string, unknown>).keywordLine).toBe('(none)');
  });

  it('reports a cycle with the whole path', async () => {
    const registry = await registryWith({
      text_stats: (m) => {
        m.mode = 'composite';
        m.pipeline = [{ step: 'again', skill: 'text_report', input: { text: '{{input.text}}' } }];
      },
    });
    const outcome = await registry.run('text_report', { text: 'hello world' });
    expect(outcome.status).toBe('error');
    expect(outcome.error?.code).toBe('INTERNAL_ERROR');
    expect(outcome.error?.message).toContain('composite cycle: text_report → text_stats → text_report');
    expect(outcome.intermediateSteps?.[0]).toMatchObject({ stepId: 'stats', error: { code: 'INTERNAL_ERROR' } });
  });

  it('reports a step that calls a skill missing from the registry', async () => {
    const registry = await registryWith({ text_report: (m) => (m.pipeline[0].skill = 'word_counter') });
    const outcome = await registry.run('text_report', { text: 'hello' });
    expect(outcome.error?.code).toBe('SKILL_NOT_FOUND');
    expect(outcome.error?.message).toContain("step 'stats' (word_counter) failed: text_report calls 'word_counter', which is not in the registry");
  });

  it("stops at a failing step and keeps the steps before it", async () => {
    const registry = await registryWith({ text_report: (m) => (m.pipeline[1].input.limit = 'lots') });
    const outcome = await registry.run('text_report', { text: 'hello world' });
    expect(outcome.error?.code).toBe('INVALID_PARAM');
    expect(outcome.intermediateSteps?.map((s) => [s.stepId, Boolean(s.error)])).toEqual([
      ['stats', false],
      ['keywords', true],
    ]);
  });

  it('reports a template error with its offset', async () => {
    const registry = await registryWith({ text_report: (m) => (m.pipeline[0].input.text = '{{input.text | shout}}') });
    const outcome = await registry.run('text_report', { text: 'hello' });
    expect(outcome.error?.code).toBe('INVALID_PARAM');
    expect(outcome.error?.message).toMatch(/step 'stats': unknown filter "shout".*at offset 15/);
  });
});
