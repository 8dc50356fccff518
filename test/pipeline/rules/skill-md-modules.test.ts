/**
 * SKILL.md rules are modules: each carries its catalog metadata and its hint, is registered once
 * in SKILL_MD_RULES, and can run on its own over a SKILL.md held in memory.
 */
import { describe, expect, it } from 'vitest';
import { RegistryConfig } from '../../../src/core/schemas/config.ts';
import { parseFrontmatter } from '../../../src/core/parse/frontmatter.ts';
import { sourceFromString } from '../../../src/core/parse/source-text.ts';
import { DiagnosticSink } from '../../../src/pipeline/diagnostics.ts';
import { RULES_BY_ID } from '../../../src/pipeline/rules/catalog.ts';
import { SKILL_MD_RULES, type SkillMdContext } from '../../../src/pipeline/rules/skill-md/index.ts';
import { resourceMissing } from '../../../src/pipeline/rules/skill-md/package.ts';

const config = RegistryConfig.parse({});

describe('SKILL_MD_RULES', () => {
  it('registers each rule once, with the catalog entry of its id and a hint', () => {
    const ids = SKILL_MD_RULES.map((r) => r.meta.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(13);
    for (const r of SKILL_MD_RULES) {
      expect(r.meta).toMatchObject(RULES_BY_ID.get(r.meta.id)!);
      expect(r.meta.hint.length).toBeGreaterThan(10);
    }
  });

  it('runs one rule on its own over a SKILL.md in memory', () => {
    const text = '---\nname: pkg\ndescription: A package.\nresources:\n  scripts: [./scripts/run.py, ./scripts/gone.py]\n---\n\nRun it.\n';
    const source = sourceFromString(text);
    const fm = parseFrontmatter(source, config.limits);
    const sink = new DiagnosticSink();
    const bytes = new Uint8Array();
    const ctx: SkillMdContext = {
      src: { dir: 'skills/pkg', absDir: '/nowhere', folderName: 'pkg', declaration: 'SKILL.md', files: [{ path: 'SKILL.md', bytes, size: 0, hex: '' }, { path: 'scripts/run.py', bytes, size: 0, hex: '' }] },
      file: 'skills/pkg/SKILL.md', source, fm, data: fm.data!, config, isPackage: true, skill: 'pkg', sink,
    };
    const found: string[] = [];
    resourceMissing.check(ctx, (path, message) => found.push(`${path.join('.')} ${message}`));
    expect(found).toEqual(["resources.scripts.1 resources.scripts './scripts/gone.py' does not exist in the skill"]);
  });
});
