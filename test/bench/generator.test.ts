import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateRegistry, type GeneratedRegistry } from '../../scripts/generate-registry.ts';
import { validateRegistry } from '../../src/pipeline/index.ts';

const roots: string[] = [];
afterAll(async () => {
  for (const r of roots) await rm(r, { recursive: true, force: true });
});

async function generate(count: number, seed: number): Promise<GeneratedRegistry> {
  const root = await mkdtemp(join(tmpdir(), 'skilldex-gen-'));
  roots.push(root);
  return generateRegistry({ count, seed, out: root });
}

describe('synthetic registry generator', () => {
  it('writes 200 skills that validate and scan with no error', async () => {
    const reg = await generate(200, 1);
    expect(reg.skills).toHaveLength(200);
    const result = await validateRegistry(reg.root);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.accepted).toHaveLength(200);
    expect(result.rejected).toEqual([]);
    // Not one finding: the names are far enough apart for the typosquatting rule.
    expect(result.accepted.filter((s) => s.scan.verdict !== 'pass').map((s) => [s.draft.name, s.scan.findings[0]?.rule])).toEqual([]);

    // The realistic mix the benchmark relies on.
    const formats = new Set(result.accepted.map((s) => `${s.draft.format}/${s.draft.mode}`));
    for (const f of ['skill-md/instructions', 'package/code', 'skill-json/code', 'skill-json/llm', 'skill-json/composite']) expect(formats).toContain(f);
    expect(result.accepted.some((s) => s.draft.entry?.runner === 'protocol')).toBe(true);
    expect(result.accepted.some((s) => s.draft.entry?.runner === 'module')).toBe(true);
    expect(result.accepted.some((s) => s.source.dir.split('/').length === 3)).toBe(true); // category folders
    expect(result.accepted.some((s) => s.source.files.some((f) => f.path.startsWith('references/')))).toBe(true);
    expect(result.accepted.some((s) => s.source.files.some((f) => f.path.startsWith('assets/')))).toBe(true);
    const cjk = reg.skills.filter((s) => s.lang !== 'en').length;
    expect(cjk).toBeGreaterThan(8);
    expect(cjk).toBeLessThan(40);
    const lengths = result.accepted.map((s) => s.draft.description.length);
    expect(Math.min(...lengths)).toBeLessThan(130);
    expect(Math.max(...lengths)).toBeGreaterThan(400);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(1024);
    const twenty = result.accepted.find((s) => s.draft.name === reg.twentyFileSkill);
    expect(twenty?.source.files).toHaveLength(20);
    expect(reg.rareTerms.length).toBeGreaterThan(10);
    expect(reg.commonTerms.length).toBeGreaterThan(0);
    expect(reg.cjkTerms.length).toBeGreaterThan(0);
  }, 120_000);

  it('is a pure function of count and seed', async () => {
    const [a, b, c] = await Promise.all([generate(40, 7), generate(40, 7), generate(40, 8)]);
    const read = (r: GeneratedRegistry) => Promise.all(r.skills.map(async (s) => [s.dir, await readFile(join(r.root, s.dir, s.kind.startsWith('json-') ? 'skill.json' : 'SKILL.md'), 'utf8')]));
    expect(await read(a)).toEqual(await read(b));
    expect(a.bytes).toBe(b.bytes);
    expect(await read(c)).not.toEqual(await read(a));
  });
});
