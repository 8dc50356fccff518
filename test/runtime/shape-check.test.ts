/**
 * The browser runtime's shape check (generated JSON Schemas, no zod) and the Node runtime's (zod)
 * accept and refuse the same documents: a real built index and manifest, each mutated field by
 * field in the ways a broken or hostile registry would.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fillName } from '../../src/core/url-template.ts';
import { structuralShapeCheck } from '../../src/runtime/shape-check.ts';
import { zodShapeCheck } from '../../src/runtime/node/zod-shape-check.ts';
import { buildExamples } from './_registries.ts';

let index: Record<string, any>;
let manifests: Record<string, any>[];

beforeAll(async () => {
  const dir = await buildExamples();
  index = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8'));
  manifests = await Promise.all(index.skills.map(async (s: { name: string }) => JSON.parse(await readFile(join(dir, fillName(index.urls.manifest, s.name)), 'utf8'))));
});

/** Every way to break one field: drop it, or replace it with a value of another kind. */
const REPLACEMENTS: unknown[] = [undefined, null, 7, -1, 1.5, 'x', '', true, [], {}, ['x'], [{}], 'sha256:00', '../etc/passwd', 'a\\b', { path: '../x', size: 1, digest: 'sha256:' + '0'.repeat(64) }];

/** Every (path, replacement) variant of `doc`, descending into objects and the first array element. */
function* variants(doc: unknown, path: (string | number)[] = []): Generator<{ path: (string | number)[]; value: unknown }> {
  if (typeof doc !== 'object' || doc === null) return;
  const keys = Array.isArray(doc) ? (doc.length > 0 ? [0] : []) : Object.keys(doc);
  for (const key of keys) {
    for (const replacement of REPLACEMENTS) {
      if (replacement === undefined && Array.isArray(doc)) continue; // JSON has no holes in arrays
      const copy = structuredClone(doc) as Record<string | number, unknown>;
      if (replacement === undefined) delete copy[key];
      else copy[key] = structuredClone(replacement);
      yield { path: [...path, key], value: copy };
    }
    yield* variants((doc as Record<string | number, unknown>)[key], [...path, key]);
  }
}

/** Puts a mutated sub-document back into a copy of the whole. */
function replaceAt(root: unknown, path: (string | number)[], parent: unknown): unknown {
  const keys = path.slice(0, -1);
  if (keys.length === 0) return parent;
  const copy = structuredClone(root) as Record<string, any>;
  let at = copy;
  for (const key of keys.slice(0, -1)) at = at[key];
  at[keys.at(-1) as string | number] = parent;
  return copy;
}

describe('structuralShapeCheck', () => {
  it('refuses a manifest listing 200,000 climbing paths in both checks, with an issue for each', () => {
    const [manifest] = manifests;
    const forged = { ...manifest, files: Array.from({ length: 200_000 }, (_, i) => ({ path: `../x${i}`, size: 1, digest: `sha256:${'0'.repeat(64)}` })) };
    for (const check of [structuralShapeCheck, zodShapeCheck]) {
      const result = check.manifest(forged);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.issues.filter((issue) => issue.includes("'../x"))).toHaveLength(200_000);
    }
  });

  it('refuses, in both checks, a manifest whose entry is not one of its listed files', () => {
    const withEntry = manifests.find((m) => m.entry);
    expect(withEntry).toBeDefined();
    for (const path of ['../../run.py', 'scripts/not-listed.py']) {
      const forged = { ...withEntry, entry: { ...withEntry!.entry, path } };
      for (const check of [structuralShapeCheck, zodShapeCheck]) {
        const result = check.manifest(forged);
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.issues).toContain(`entry.path: '${path}' must be one of the listed files`);
      }
    }
  });

  it('accepts what the build publishes', () => {
    expect(structuralShapeCheck.index(index)).toMatchObject({ ok: true });
    for (const manifest of manifests) expect(structuralShapeCheck.manifest(manifest)).toMatchObject({ ok: true });
  });

  it('agrees with the zod schemas on every one-field change of an index and of each kind of manifest', () => {
    const disagreements: string[] = [];
    let checked = 0;
    const compare = (kind: 'index' | 'manifest', root: unknown) => {
      for (const { path, value } of variants(root)) {
        const whole = replaceAt(root, path, value);
        const browser = structuralShapeCheck[kind](whole).ok;
        const node = zodShapeCheck[kind](whole).ok;
        checked++;
        if (browser !== node) disagreements.push(`${kind} ${path.join('.')} = ${JSON.stringify(value && (value as Record<string, unknown>)[path.at(-1) as string])}: browser ${browser ? 'accepts' : 'refuses'}, zod ${node ? 'accepts' : 'refuses'}`);
      }
    };
    compare('index', { ...index, skills: index.skills.slice(0, 1) });
    const kinds = new Map(manifests.map((m) => [`${m.format}/${m.mode}`, m]));
    for (const manifest of kinds.values()) compare('manifest', manifest);
    expect(checked).toBeGreaterThan(2000);
    expect(disagreements).toEqual([]);
  });

  it('names the field, keeps hostile keys short and visible, and stops at 20 problems', () => {
    const result = structuralShapeCheck.index({ ...index, version: 2, skills: Array.from({ length: 50 }, () => ({ ['\u001b[31m' + 'k'.repeat(500)]: 1 })) });
    expect(result.ok).toBe(false);
    const issues = (result as { issues: string[] }).issues;
    expect(issues[0]).toBe('version: expected string');
    expect(issues).toHaveLength(20);
    expect(issues.join('\n')).not.toContain('\u001b');
    expect(Math.max(...issues.map((i) => i.length))).toBeLessThan(300);
  });
});
