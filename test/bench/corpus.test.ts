import { readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from 'skills-ref';
import { afterAll, describe, expect, it } from 'vitest';
import { generateCorpus, type GeneratedCorpus } from '../../scripts/generate-corpus.ts';
import { validateRegistry } from '../../src/pipeline/index.ts';
import { RegistryConfig } from '../../src/core/schemas/config.ts';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

async function corpus(count: number, seed: number): Promise<GeneratedCorpus> {
  const out = await mkdtemp(join(tmpdir(), 'skilldex-corpus-'));
  roots.push(out);
  return generateCorpus({ count, seed, out });
}

describe('corpus generator (scripts/generate-corpus.ts)', () => {
  it('writes skills shaped like public collections, which both validators accept', async () => {
    const c = await corpus(120, 7);
    expect(c.skillDirs).toHaveLength(120);
    const texts = c.skillDirs.map((d) => readFileSync(join(c.root, d, 'SKILL.md'), 'utf8'));
    // Collection folders one level below skills/, flow-style YAML, folded descriptions.
    expect(c.skillDirs.every((d) => d.split('/').length === 3)).toBe(true);
    expect(texts.some((t) => /^metadata: \{author: [\w-]+, version: "\d+\.\d+\.\d+"\}$/m.test(t))).toBe(true);
    expect(texts.some((t) => /^allowed-tools: \[\w+(, \w+)*\]$/m.test(t))).toBe(true);
    expect(texts.some((t) => /^description: >-$/m.test(t))).toBe(true);
    // Long bodies and many files: more than five files a skill, some bodies over 800 lines.
    expect(c.fileCount / c.skillDirs.length).toBeGreaterThan(5);
    expect(texts.some((t) => t.split('\n').length > 800)).toBe(true);

    const result = await validateRegistry(c.root, { config: RegistryConfig.parse({}) });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.accepted).toHaveLength(120);
    expect(result.accepted.some((s) => s.source.files.some((f) => f.path.startsWith('references/guides/advanced/')))).toBe(true);
    expect(result.accepted.some((s) => s.source.files.some((f) => f.path.endsWith('.py')))).toBe(true);
    expect(result.accepted.some((s) => s.source.files.some((f) => f.path.endsWith('.sh')))).toBe(true);

    // The reference validator, through its library, as the benchmark runs it.
    const rejectedByRef: string[] = [];
    for (const d of c.skillDirs) if ((await validate(join(c.root, d))).length > 0) rejectedByRef.push(d);
    expect(rejectedByRef).toEqual([]);
  });

  it('is a pure function of count and seed', async () => {
    const [a, b, other] = [await corpus(15, 3), await corpus(15, 3), await corpus(15, 4)];
    const bytesOf = (c: GeneratedCorpus) => c.skillDirs.map((d) => readFileSync(join(c.root, d, 'SKILL.md'), 'utf8'));
    expect(a.skillDirs).toEqual(b.skillDirs);
    expect(bytesOf(a)).toEqual(bytesOf(b));
    expect([a.fileCount, a.bytes]).toEqual([b.fileCount, b.bytes]);
    expect(bytesOf(other)).not.toEqual(bytesOf(a));
  });
});
