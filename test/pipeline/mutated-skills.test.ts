/**
 * Skills as a careless or hostile pull request leaves them: the example skills' declarations and
 * text files broken in thousands of seeded ways (bytes flipped, spans cut or repeated, YAML and
 * JSON syntax, control characters, invalid UTF-8, deep nesting dropped in). Whatever the bytes,
 * the per-skill checks (every rule, the draft manifest, the links and tool ids "Used by" reads)
 * and the security scan must answer with diagnostics, never an exception: a throw here would reach
 * publishers as internal/check-failed instead of a line that says what to fix. Each diagnostic
 * must name a rule of the registry and a real place in a file of the skill, and the same bytes
 * must give the same answer.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RegistryConfig } from '../../src/core/schemas/config.ts';
import type { SkillSource } from '../../src/pipeline/model.ts';
import { sha256HexSync } from '../../src/pipeline/hash.ts';
import { parseSkill } from '../../src/pipeline/phases/parse.ts';
import { markdownReferences } from '../../src/pipeline/references.ts';
import { ALL_RULES } from '../../src/pipeline/rules/all-rules.ts';
import { scanSkill } from '../../src/scanner/scan.ts';
import { REPO } from '../helpers/cli.ts';

const config = RegistryConfig.parse({});
const RULE_IDS = new Set<string>(ALL_RULES.map((r) => r.meta.id));
const encoder = new TextEncoder();

/** Every skill folder below the example registry's skills/, with its files in memory. */
function exampleSkills(): SkillSource[] {
  const skills: SkillSource[] = [];
  const visit = (abs: string) => {
    const entries = readdirSync(abs, { withFileTypes: true });
    const declaration = entries.find((e) => e.isFile() && (e.name === 'SKILL.md' || e.name === 'skill.json'))?.name as SkillSource['declaration'] | undefined;
    if (!declaration) {
      for (const e of entries) if (e.isDirectory()) visit(join(abs, e.name));
      return;
    }
    const files = (readdirSync(abs, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
      .filter((e) => e.isFile())
      .map((e) => relative(abs, join(e.parentPath, e.name)).split('\\').join('/'))
      .sort()
      .map((path) => fileOf(path, readFileSync(join(abs, path))));
    const dir = relative(REPO, abs).split('\\').join('/');
    skills.push({ dir, absDir: abs, folderName: dir.slice(dir.lastIndexOf('/') + 1), declaration, files });
  };
  visit(join(REPO, 'skills'));
  return skills;
}

const fileOf = (path: string, bytes: Uint8Array) => ({ path, bytes, size: bytes.length, hex: sha256HexSync(bytes) });

/** A small seeded generator (mulberry32): the same seed breaks the same skills the same way on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What a broken edit, a bad merge or a hostile author drops into a declaration. */
const INSERTS: (string | Uint8Array)[] = [
  '\u0000', '\u202E', '\uFEFF', '\u200B', '\r', '\t', '\n---\n', '---', ': ', ':', '- ', '&a ', '*a', '<<: *a', '!!binary ', '!!js/function ', '%YAML 1.1\n',
  '[', ']', '{', '}', '"', "'", '\\', '`', '```', '\n```\n', '#', '|', '>', '?', ',', '__proto__', '"__proto__": {"x": 1}, ', 'constructor',
  '[](../../../etc/passwd)', '[x](javascript:alert(1))', 'skill:other:tool', '{{input.x}}', '$ref', '"$ref": "http://127.0.0.1/x", ',
  '['.repeat(3000), '{"a":'.repeat(3000), '- '.repeat(500), '  '.repeat(2000), 'x'.repeat(70_000), '\u00e9', '\u{1F600}', '\uD800',
  Uint8Array.of(0xff), Uint8Array.of(0xed, 0xa0, 0x80), Uint8Array.of(0xc3), Uint8Array.of(0xef, 0xbb, 0xbf),
];

function mutate(bytes: Uint8Array, next: () => number): Uint8Array {
  const at = Math.floor(next() * (bytes.length + 1));
  const span = Math.min(bytes.length - at, 1 + Math.floor(next() * 64));
  switch (Math.floor(next() * 5)) {
    case 0: {
      const out = Uint8Array.from(bytes);
      if (at < out.length) out[at] = Math.floor(next() * 256);
      return out;
    }
    case 1:
      return concat(bytes.subarray(0, at), bytes.subarray(at + span));
    case 2:
      return concat(bytes.subarray(0, at + span), bytes.subarray(at));
    case 3:
      return bytes.subarray(0, at);
    default: {
      const insert = INSERTS[Math.floor(next() * INSERTS.length)] as string | Uint8Array;
      return concat(bytes.subarray(0, at), typeof insert === 'string' ? encoder.encode(insert) : insert, bytes.subarray(at));
    }
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The skill with one to three edits to its declaration, and sometimes to another text file. */
function broken(skill: SkillSource, next: () => number): SkillSource {
  const text = skill.files.filter((f) => /\.(md|json|ya?ml|py|sh|ts|js)$/.test(f.path) && f.path !== skill.declaration);
  const targets = [skill.declaration, ...(next() < 0.3 && text.length > 0 ? [(text[Math.floor(next() * text.length)] as { path: string }).path] : [])];
  const files = skill.files.map((f) => {
    if (!targets.includes(f.path)) return f;
    let bytes = f.bytes;
    for (let edits = 1 + Math.floor(next() * 3); edits > 0; edits--) bytes = mutate(bytes, next);
    return fileOf(f.path, bytes);
  });
  return { ...skill, files };
}

const skills = exampleSkills();
// A longer or different search, run by hand: SKILLDEX_MUTATIONS=5000 SKILLDEX_MUTATION_SEED=7 npx vitest run test/pipeline/mutated-skills.test.ts
const CASES_PER_SKILL = Number(process.env.SKILLDEX_MUTATIONS ?? 150);
const SEED = Number(process.env.SKILLDEX_MUTATION_SEED ?? 0);

describe('the per-skill checks and the scan on broken skills', () => {
  it('found the example skills to break', () => {
    expect(skills.length).toBeGreaterThanOrEqual(15);
    expect(new Set(skills.map((s) => s.declaration))).toEqual(new Set(['SKILL.md', 'skill.json']));
  });

  it.each(skills.map((s) => [s.dir, s] as const))('%s: every broken variant gets diagnostics at real places, the same each time', (_, skill) => {
    const next = random(SEED + sha256HexSync(encoder.encode(skill.dir)).slice(0, 8).split('').reduce((n, c) => n * 16 + parseInt(c, 16), 0));
    let withErrors = 0;
    for (let i = 0; i < CASES_PER_SKILL; i++) {
      const source = broken(skill, next);
      const lines = new Map(source.files.map((f) => [`${skill.dir}/${f.path}`, new TextDecoder().decode(f.bytes).split('\n').length]));
      let parsed;
      let scanned;
      try {
        parsed = parseSkill(source, config);
        if (parsed.draft) markdownReferences(source, parsed.draft.name, 'skills');
        scanned = scanSkill({ name: parsed.draft?.name ?? skill.folderName, files: source.files });
      } catch (error) {
        const declaration = source.files.find((f) => f.path === skill.declaration) as { bytes: Uint8Array };
        throw new Error(`case ${i} of ${skill.dir} threw ${(error as Error).stack}\n--- ${skill.declaration} ---\n${JSON.stringify(new TextDecoder().decode(declaration.bytes).slice(0, 2000))}`);
      }
      for (const d of parsed.diagnostics) {
        const where = `case ${i}: ${d.rule} at ${d.file}:${d.line}:${d.column} (${d.message})`;
        expect(RULE_IDS.has(d.rule), where).toBe(true);
        expect(d.rule, where).not.toMatch(/^internal\//);
        expect(lines.has(d.file) || d.file === skill.dir, where).toBe(true);
        expect(d.line >= 1 && d.column >= 1, where).toBe(true);
        if (lines.has(d.file)) expect(d.line, where).toBeLessThanOrEqual(lines.get(d.file) as number);
      }
      for (const f of scanned.findings) expect(source.files.some((s) => s.path === f.file), `case ${i}: finding ${f.rule} in ${f.file}`).toBe(true);
      if (parsed.diagnostics.some((d) => d.severity === 'error')) withErrors++;
      else expect(parsed.draft, `case ${i}: no error and no draft`).toBeDefined();
      // Pure: the same bytes, the same answer.
      expect(parseSkill(source, config).diagnostics).toEqual(parsed.diagnostics);
    }
    // The edits break what they touch: most variants are refused, some survive as warnings.
    expect(withErrors).toBeGreaterThan(CASES_PER_SKILL / 4);
  });
});
