/**
 * Checks every skill under skills/ against Skilldex's contract: folder layout, names, frontmatter
 * and skill.json shapes (the project's zod schemas), resource paths, schemas that compile, links
 * that resolve, and nothing a security scanner would rightly flag.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { SkillJson } from '../../src/core/schemas/skill-json.ts';
import { PACKAGE_FIELDS, SkillMdFrontmatter } from '../../src/core/schemas/skill-md.ts';
import { SKILLS_DIR } from './_protocol.ts';

interface Found {
  dir: string;
  rel: string;
  kind: 'SKILL.md' | 'skill.json';
}

function findSkills(): Found[] {
  const found: Found[] = [];
  const visit = (dir: string, depth: number): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (!statSync(path).isDirectory()) continue;
      const kind = existsSync(join(path, 'SKILL.md')) ? 'SKILL.md' : existsSync(join(path, 'skill.json')) ? 'skill.json' : undefined;
      if (kind) found.push({ dir: path, rel: relative(SKILLS_DIR, path), kind });
      else if (depth === 0) visit(path, 1);
    }
  };
  visit(SKILLS_DIR, 0);
  return found;
}

function filesOf(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

function splitFrontmatter(text: string): { data: Record<string, unknown>; body: string } {
  const lines = text.split('\n');
  expect(lines[0]).toBe('---');
  const end = lines.indexOf('---', 1);
  expect(end).toBeGreaterThan(0);
  const data = YAML.parse(lines.slice(1, end).join('\n'), { schema: 'core', uniqueKeys: true }) as Record<string, unknown>;
  return { data, body: lines.slice(end + 1).join('\n') };
}

const skills = findSkills();
const ajv = new Ajv({ strict: false, allErrors: true });
const CODE = /\.(py|sh|bash|js|mjs|cjs|ts|mts|cts|rb|pl|php)$/;
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

describe('skills/ conventions', () => {
  it('holds at least 14 skills covering every format and mode', () => {
    expect(skills.length).toBeGreaterThanOrEqual(14);
    const modes = new Set<string>();
    let plain = 0;
    let packages = 0;
    let abp = 0;
    for (const s of skills) {
      if (s.kind === 'skill.json') modes.add((JSON.parse(readFileSync(join(s.dir, 'skill.json'), 'utf8')) as { mode: string }).mode);
      else {
        const { data } = splitFrontmatter(readFileSync(join(s.dir, 'SKILL.md'), 'utf8'));
        if (Object.keys(data).some((k) => (PACKAGE_FIELDS as readonly string[]).includes(k))) packages++;
        else plain++;
        if (data.protocol === 'abp') abp++;
      }
    }
    expect([...modes].sort()).toEqual(['code', 'composite', 'llm']);
    expect(plain).toBeGreaterThanOrEqual(3);
    expect(packages).toBeGreaterThanOrEqual(4);
    expect(abp).toBeGreaterThanOrEqual(1);
  });

  it('has unique names across formats', () => {
    const names = skills.map((s) =>
      s.kind === 'skill.json'
        ? (JSON.parse(readFileSync(join(s.dir, 'skill.json'), 'utf8')) as { name: string }).name
        : String(splitFrontmatter(readFileSync(join(s.dir, 'SKILL.md'), 'utf8')).data.name),
    );
    expect(new Set(names).size).toBe(names.length);
  });

  for (const skill of skills) {
    describe(skill.rel, () => {
      const files = filesOf(skill.dir);

      it('uses safe, ASCII file paths and contains no hidden characters or secret-like literals', () => {
        for (const f of files) {
          expect(f, f).toMatch(/^[\x21-\x7e]+$/);
          expect(f, f).not.toMatch(/[\\?#[\]]/);
          const text = readFileSync(join(skill.dir, f), 'utf8');
          expect(text, `${f}: zero-width/bidi/tag characters`).not.toMatch(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/u);
          expect(text, `${f}: secret-like literal`).not.toMatch(/\b(?:sk-[A-Za-z0-9]{16,}|ghp_[A-Za-z0-9]{20,}|xox[abprs]-|AKIA[0-9A-Z]{16})/);
          expect(text, `${f}: raw IP URL`).not.toMatch(/https?:\/\/\d+\.\d+\.\d+\.\d+/);
          expect(text, `${f}: download piped to a shell`).not.toMatch(/(?:curl|wget)[^\n|]*\|\s*(?:ba)?sh/);
        }
      });

      if (skill.kind === 'skill.json') {
        const def = JSON.parse(readFileSync(join(skill.dir, 'skill.json'), 'utf8')) as Record<string, any>;

        it('matches the seed 000 meta-schema and has its body', () => {
          const parsed = SkillJson.safeParse(def);
          expect(parsed.success, parsed.success ? '' : parsed.error.message).toBe(true);
          expect(def.version).toMatch(SEMVER);
          expect(def.author).toBe('skilldex');
          if (def.mode === 'code') expect(files).toContain('index.ts');
          if (def.mode === 'llm') expect(files).toContain('prompt.md');
          if (def.mode === 'composite') expect(def.pipeline?.length).toBeGreaterThan(0);
        });

        it('has input and output schemas that compile', () => {
          expect(() => ajv.compile(def.input)).not.toThrow();
          expect(() => ajv.compile(def.output)).not.toThrow();
        });

        it('calls only skills that exist in the registry', () => {
          const all = skills
            .filter((s) => s.kind === 'skill.json')
            .map((s) => (JSON.parse(readFileSync(join(s.dir, 'skill.json'), 'utf8')) as { name: string }).name);
          for (const call of def.calls ?? []) expect(all).toContain(call);
          for (const step of def.pipeline ?? []) expect(def.calls).toContain(step.skill);
        });
      } else {
        const text = readFileSync(join(skill.dir, 'SKILL.md'), 'utf8');
        const { data, body } = splitFrontmatter(text);
        const folder = skill.rel.split('/').at(-1);

        it('has Agent Skills frontmatter with a valid name equal to the folder', () => {
          const parsed = SkillMdFrontmatter.safeParse(data);
          expect(parsed.success, parsed.success ? '' : parsed.error.message).toBe(true);
          const name = String(data.name);
          expect(name).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
          expect(name.length).toBeLessThanOrEqual(64);
          expect(name).toBe(folder);
          const description = String(data.description);
          expect(description.length).toBeGreaterThan(40);
          expect(description.length).toBeLessThanOrEqual(1024);
          if (data.metadata) for (const v of Object.values(data.metadata as object)) expect(typeof v).toBe('string');
          if (data.compatibility) expect(String(data.compatibility).length).toBeLessThanOrEqual(500);
        });

        it('keeps the body under 500 lines with working relative links', () => {
          expect(body.split('\n').length).toBeLessThan(500);
          for (const m of body.matchAll(/\]\((\.\/[^)#\s]+)\)/g)) {
            expect(existsSync(join(skill.dir, m[1] ?? '')), `${m[1]} exists`).toBe(true);
          }
        });

        if (data.resources !== undefined) {
          const resources = data.resources as { entry?: string; helpers?: string[]; references?: string[]; assets?: string[] };

          it('declares resources that exist, keeps code under scripts/, and has a semver version', () => {
            for (const p of [resources.entry, ...(resources.helpers ?? []), ...(resources.references ?? []), ...(resources.assets ?? [])]) {
              if (p === undefined) continue;
              expect(p).toMatch(/^\.\//);
              expect(p).not.toContain('..');
              expect(existsSync(join(skill.dir, p)), `${p} exists`).toBe(true);
            }
            expect(resources.entry).toMatch(/^\.\/scripts\//);
            for (const f of files) if (CODE.test(f)) expect(f).toMatch(/^scripts\//);
            expect(String(data.version)).toMatch(SEMVER);
            expect(data.security).toMatchObject({ network: 'none' });
          });

          it('has input and output schemas that compile', () => {
            expect(() => ajv.compile(data.input_schema as object)).not.toThrow();
            expect(() => ajv.compile(data.output_schema as object)).not.toThrow();
          });
        }
      }
    });
  }
});
