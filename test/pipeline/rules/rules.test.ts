/**
 * One valid and one invalid fixture per validation rule (the one rule list, src/pipeline/rules/all-rules.ts; the table is in ./_cases.ts). Each case is
 * a tiny registry root under test/fixtures/rules/<case>/; it is copied to a temp dir, odd files
 * are added there, and `validateRegistry(root, { scan: false })` runs on the copy.
 *
 * The full diagnostics are kept as snapshot files (test/pipeline/__snapshots__/rules/<case>.json);
 * the rule id, file and line of every diagnostic are also asserted here, so updating a snapshot
 * cannot silently change what a case means.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistry, validateRegistry } from '../../../src/pipeline/index.ts';
import { ALL_RULES } from '../../../src/pipeline/rules/all-rules.ts';
import { INVALID, VALID, type Ctx } from './_cases.ts';
import { brief, FIXTURES, materialise, removeRoot, snapshotOf } from './_harness.ts';

describe.each([...VALID.map((c) => ['valid', c.fixture, c] as const), ...INVALID.map((c) => ['invalid', c.fixture, c] as const)])('%s fixture %s', (_kind, _name, c) => {
  const ctx = {} as Ctx;
  beforeAll(async () => {
    ctx.root = await materialise(join(FIXTURES, 'rules', c.fixture));
    await c.setup?.(ctx.root);
    ctx.result = await validateRegistry(ctx.root, { scan: false });
  });
  afterAll(async () => {
    if (ctx.root) await removeRoot(ctx.root);
  });

  it(`${c.fixture}: diagnostics`, async () => {
    await expect(snapshotOf(ctx.result, ctx.root)).toMatchFileSnapshot(join('..', '__snapshots__', 'rules', `${c.fixture}.json`));
    expect(ctx.result.diagnostics.map(brief)).toEqual(c.expect);
  });

  it(`${c.fixture}: every diagnostic has a position, a message and a hint`, () => {
    for (const d of ctx.result.diagnostics) {
      expect(d.line).toBeGreaterThanOrEqual(1);
      expect(d.column).toBeGreaterThanOrEqual(1);
      expect(d.message).not.toBe('');
      expect(d.hint, `${brief(d)} '${d.message}' has a hint`).toBeTruthy();
    }
  });

  it(`${c.fixture}: accepted skills`, () => {
    expect(ctx.result.accepted.map((s) => s.draft.name)).toEqual(c.accepted);
  });

  for (const [title, check] of Object.entries(c.checks ?? {})) it(`${c.fixture}: ${title}`, () => check(ctx));
});

describe('rule list coverage', () => {
  // The security gate's rules depend on the scanner's verdicts: test/pipeline/scan-findings.test.ts covers them with the real CLI.
  // The versions rules depend on git history, not on a folder: test/pipeline/history/ covers them on real repositories.
  // internal/check-failed needs a skill that changes while it is read: test/pipeline/prepare-workers.test.ts and ./rule-modules.test.ts cover it.
  const ids = ALL_RULES.filter((r) => r.meta.engine === 'validator').map((r) => r.meta.id).filter((id) => id !== 'security/blocked' && id !== 'security/finding' && !id.startsWith('versions/') && id !== 'internal/check-failed');

  it.each(ids)('%s has a valid fixture and an invalid fixture that triggers it', (id) => {
    expect(VALID.filter((c) => c.covers.includes(id)).map((c) => c.fixture), 'valid fixtures').not.toEqual([]);
    const invalid = INVALID.filter((c) => c.covers.includes(id));
    expect(invalid.map((c) => c.fixture), 'invalid fixtures').not.toEqual([]);
    expect(invalid.some((c) => c.expect.some((e) => e.split(' ')[1] === id)), 'an invalid fixture expects the rule').toBe(true);
  });

  it('every fixture folder belongs to a case', async () => {
    const { readdir } = await import('node:fs/promises');
    const folders = (await readdir(join(FIXTURES, 'rules'))).filter((f) => !f.startsWith('.')).sort();
    const cases = [...VALID, ...INVALID].map((c) => c.fixture);
    expect(folders.filter((f) => !cases.includes(f) && !EXTRA_FIXTURES.includes(f))).toEqual([]);
  });
});

/** Fixtures used by other test files in this folder. */
const EXTRA_FIXTURES = ['cli-mistakes', 'cli-clean'];

describe('lenient build of a registry with a call cycle', () => {
  it('publishes no skill whose calls name a skill that is not published', async () => {
    const root = await materialise(join(FIXTURES, 'rules', 'registry-call-cycle'));
    const outDir = join(root, '..', `${root.split('/').pop()}-out`);
    try {
      const result = await buildRegistry({ root, outDir, lenient: true, scan: false });
      const published = new Set(result.manifests.map((m) => m.name));
      const dangling = result.manifests.flatMap((m) => m.calls.filter((c) => !published.has(c)).map((c) => `${m.name} → ${c}`));
      expect(dangling).toEqual([]);
    } finally {
      await removeRoot(root);
      await removeRoot(outDir);
    }
  });
});

describe('lenient build of a registry where two skills share a discovery name', () => {
  it('publishes neither in index.json or the discovery indexes, and mirrors no file under that name', async () => {
    const root = await materialise(join(FIXTURES, 'rules', 'registry-cross-format-collision'));
    const outDir = join(root, '..', `${root.split('/').pop()}-out`);
    try {
      const result = await buildRegistry({ root, outDir, lenient: true, scan: false });
      expect(result.manifests.map((m) => m.name)).toEqual([]);
      const { readFile, readdir } = await import('node:fs/promises');
      const discovery = JSON.parse(await readFile(join(outDir, '.well-known/agent-skills/index.json'), 'utf8')) as { skills: { name: string }[] };
      expect(discovery.skills).toEqual([]);
      expect(await readdir(join(outDir, '.well-known/skills'))).toEqual(['index.json']);
    } finally {
      await removeRoot(root);
      await removeRoot(outDir);
    }
  });
});
