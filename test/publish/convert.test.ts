import { access, cp, mkdir, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateRegistry } from '../../src/pipeline/index.ts';
import { skillJsonToSkillMd, skillMdToSkillJson } from '../../src/publish/convert.ts';
import { runSkilldex } from '../helpers/cli.ts';
import { fixtureCopier } from '../helpers/fixture-copies.ts';

const REPO = join(import.meta.dirname, '..', '..');
const FIXTURE = join(REPO, 'test/fixtures/publish/convert');

const copyFixture = fixtureCopier(FIXTURE, 'skilldex-convert-');

const skilldex = (cwd: string, ...args: string[]) => runSkilldex(cwd, args);

const exists = (p: string) => access(p).then(() => true, () => false);

/** What both formats can express, read back through the validator's own normaliser. */
async function expressible(root: string) {
  const v = await validateRegistry(root, { scan: false });
  expect(v.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return v.accepted.map(({ draft: d }) => ({
    kebab: d.name.replace(/_/g, '-'), description: d.description, version: d.version, author: d.author, category: d.category, tags: d.tags,
    prompt: (d.prompt ?? d.instructions ?? '').trim(),
    // Each format has its own defaults (no schema = any object; 30 s for functions, 300 s for scripts).
    input: d.inputSchema ?? { type: 'object' }, timeoutMs: [30_000, 300_000].includes(d.timeoutMs) ? 'default' : d.timeoutMs,
  }));
}

describe('skilldex convert', () => {
  it('names the converted folder in its next step, so validate checks that skill wherever --out put it', async () => {
    const root = await copyFixture();
    const elsewhere = await copyFixture();
    const out = await skilldex(root, 'convert', 'skills/code/code-review', '--out', join(elsewhere, 'converted', 'code-review'));
    expect(out.status).toBe(0);
    const next = out.stdout.split('\n').find((line) => line.startsWith('next:'));
    expect(next).toBe(`next: npx skilldex validate ${relative(root, join(elsewhere, 'converted', 'code-review'))}`);
    const check = await skilldex(root, 'validate', relative(root, join(elsewhere, 'converted', 'code-review')));
    expect(check.stdout + check.stderr).toContain('0 errors');

    const inPlace = await skilldex(root, 'convert', 'skills/text/summarize-text');
    expect(inPlace.status).toBe(0);
    expect(inPlace.stdout).toContain('next: npx skilldex validate skills/text/summarize-text\n');
  });

  it('skill.json + prompt.md → SKILL.md → skill.json + prompt.md gives back the same bytes', async () => {
    const root = await copyFixture();
    const dir = join(root, 'skills/text/summarize-text');
    const originalJson = await readFile(join(dir, 'skill.json'), 'utf8');
    const originalPrompt = await readFile(join(dir, 'prompt.md'), 'utf8');
    const before = await expressible(root);

    const toMd = await skilldex(root, 'convert', 'skills/text/summarize-text');
    expect(toMd.status).toBe(0);
    expect(toMd.stdout).toContain('summarize-text: skill.json → SKILL.md');
    expect(toMd.stdout).toContain('removed skills/text/summarize-text/skill.json');
    expect(toMd.stdout).not.toContain('not carried over');
    expect(await exists(join(dir, 'skill.json'))).toBe(false);
    await expect(await readFile(join(dir, 'SKILL.md'), 'utf8')).toMatchFileSnapshot('__snapshots__/convert/summarize-text.SKILL.md');
    expect(await expressible(root)).toEqual(before);

    const back = await skilldex(root, 'convert', 'skills/text/summarize-text', '--to', 'skill-json');
    expect(back.status).toBe(0);
    expect(await readFile(join(dir, 'skill.json'), 'utf8')).toBe(originalJson);
    expect(await readFile(join(dir, 'prompt.md'), 'utf8')).toBe(originalPrompt);
    expect(await exists(join(dir, 'SKILL.md'))).toBe(false);
  });

  it('SKILL.md → skill.json → SKILL.md keeps what both express and names what skill.json cannot hold', async () => {
    const root = await copyFixture();
    const before = await expressible(root);
    const out = join(root, 'skills/code/code-review-fn');

    const dry = await skilldex(root, 'convert', 'skills/code/code-review', '--out', 'skills/code/code-review-fn', '--dry-run');
    expect(dry.status).toBe(0);
    expect(await exists(out)).toBe(false);
    expect(dry.stdout).toBe([
      'code_review: SKILL.md → skill.json + prompt.md (dry run)',
      '  write  skills/code/code-review-fn/skill.json',
      '  write  skills/code/code-review-fn/prompt.md',
      '  copy   skills/code/code-review-fn/references/checklist.md',
      "  note name: 'code-review' → 'code_review' (skill.json names are snake_case; the folder may stay kebab-case)",
      'not carried over (3):',
      '  - license: skill.json has no license field',
      '  - allowed-tools: skill.json has no tool permissions',
      '  - metadata.audience: skill.json has no metadata map',
      '',
    ].join('\n'));

    // Convert for real into a new folder, drop the original, and come back.
    expect((await skilldex(root, 'convert', 'skills/code/code-review', '--out', 'skills/code/code-review-fn')).status).toBe(0);
    await rm(join(root, 'skills/code/code-review'), { recursive: true });
    expect(JSON.parse(await readFile(join(out, 'skill.json'), 'utf8'))).toEqual({
      name: 'code_review', description: before[0]?.description, category: 'code', input: { type: 'object' }, output: { type: 'object' }, mode: 'llm', calls: [],
      version: '1.2.0', tags: ['security', 'quality', 'review'], author: 'skilldex',
    });
    expect(await expressible(root)).toEqual(before);

    expect((await skilldex(root, 'convert', 'skills/code/code-review-fn', '--out', 'skills/code/code-review')).status).toBe(0);
    await rm(out, { recursive: true });
    expect(await expressible(root)).toEqual(before);
    expect(await readFile(join(root, 'skills/code/code-review/references/checklist.md'), 'utf8')).toBe(await readFile(join(FIXTURE, 'skills/code/code-review/references/checklist.md'), 'utf8'));
  });

  it('refuses folders that are not skills and conversions to the same format', async () => {
    const root = await copyFixture();
    const same = await skilldex(root, 'convert', 'skills/code/code-review', '--to', 'skill-md');
    expect(same.status).toBe(2);
    expect(same.stderr).toContain('is already a SKILL.md skill');
    const none = await skilldex(root, 'convert', 'skills/code');
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('holds neither SKILL.md nor skill.json');
    const missing = await skilldex(root, 'convert', 'skills/code/no-such-skill');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('error skills/code/no-such-skill does not exist');
  });

  it('takes a category from skills/<category>/<name> only, not from whatever folder the skill sits in', async () => {
    const root = await copyFixture();
    const category = async (from: string, out: string) => {
      const result = await skilldex(root, 'convert', from, '--out', out);
      expect(result.status, result.stderr).toBe(0);
      return JSON.parse(await readFile(join(root, out, 'skill.json'), 'utf8')).category;
    };
    await mkdir(join(root, 'Downloads'), { recursive: true });
    await cp(join(root, 'skills/code/code-review'), join(root, 'Downloads/code-review'), { recursive: true });
    expect(await category('Downloads/code-review', 'out-downloads')).not.toBe('Downloads');
    expect(await category('skills/code/code-review', 'out-registry')).toBe('code');
  });
});

describe('conversion functions', () => {
  it('lists every skill.json feature a SKILL.md cannot hold', () => {
    const json = JSON.stringify({
      name: 'text_report', description: 'Chains two skills.', category: 'workflow', input: { type: 'object' }, output: { type: 'object' }, mode: 'composite',
      calls: ['text_stats'], pipeline: [{ step: 's', skill: 'text_stats', input: {} }], outputMapping: { a: '{{steps.s}}' }, retry: 2,
    });
    const result = skillJsonToSkillMd(json, undefined, { folderName: 'text_report' });
    expect(result.lost.map((l) => l.field)).toEqual(['mode: composite', 'calls', 'pipeline', 'outputMapping', 'retry']);
    expect(result.notes).toEqual(["name: 'text_report' → 'text-report' (Agent Skills names are kebab-case)", "the folder must be named 'text-report' (a SKILL.md name equals its folder); pass --out .../text-report"]);
    expect(result.files[0]?.content).toBe('---\nname: text-report\ndescription: Chains two skills.\ncategory: workflow\n---\n\n# text-report\n\nChains two skills.\n');
  });

  it('lists every extended-package field skill.json cannot hold, and keeps the sandbox timeout', () => {
    const md = [
      '---', 'name: weather-query', 'displayName: 天气查询', 'description: 查询天气', 'version: 1.0.0', 'type: service', 'triggers: { intents: [weather] }',
      'security: { timeout_ms: 5000, network: none }', 'resources: { entry: ./scripts/main.ts }', 'cacheable: true', '---', '', 'Body.', '',
    ].join('\n');
    const result = skillMdToSkillJson(md, { category: 'utils' });
    expect(JSON.parse(result.files[0]?.content ?? '')).toMatchObject({ name: 'weather_query', category: 'utils', timeout: 5000, version: '1.0.0', mode: 'llm' });
    expect(result.files[1]).toEqual({ path: 'prompt.md', content: 'Body.\n' });
    expect(result.lost.map((l) => l.field)).toEqual(['displayName', 'type', 'triggers', 'resources', 'cacheable', 'security.network']);
    expect(result.notes[0]).toContain('the entry ./scripts/main.ts is no longer run');
  });
});
