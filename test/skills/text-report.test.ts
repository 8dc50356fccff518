import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isTruthy, parseTemplate, renderTemplate } from '../../src/core/template.ts';
import { execute as keywordExtract } from '../../skills/text/keyword-extract/index.ts';
import { execute as textStats } from '../../skills/text/text-stats/index.ts';
import { SKILLS_DIR } from './_protocol.ts';

interface Step {
  step: string;
  skill: string;
  input: Record<string, unknown>;
  condition?: string;
}

const def = JSON.parse(readFileSync(`${SKILLS_DIR}workflow/text-report/skill.json`, 'utf8')) as {
  calls: string[];
  pipeline: Step[];
  outputMapping: Record<string, unknown>;
};
const implementations: Record<string, (input: Record<string, unknown>, ctx: unknown) => Promise<unknown>> = {
  text_stats: textStats as never,
  keyword_extract: keywordExtract as never,
};
const ctx = { skill: { name: 'text_report', version: '1.0.0' }, log: () => {} };

/** Runs the declarative pipeline with the project's template engine and the two real code skills. */
async function runPipeline(input: Record<string, unknown>): Promise<{ output: Record<string, unknown>; ran: string[] }> {
  const scope: { input: Record<string, unknown>; steps: Record<string, unknown> } = { input, steps: {} };
  const ran: string[] = [];
  for (const step of def.pipeline) {
    if (step.condition !== undefined && !isTruthy(renderTemplate(step.condition, scope))) continue;
    const impl = implementations[step.skill];
    if (!impl) throw new Error(`no implementation for ${step.skill}`);
    scope.steps[step.step] = await impl(renderTemplate(step.input, scope) as Record<string, unknown>, ctx);
    ran.push(step.step);
  }
  return { output: renderTemplate(def.outputMapping, scope) as Record<string, unknown>, ran };
}

describe('text_report (skill.json mode composite)', () => {
  it('declares every step skill in calls, and refers only to input or earlier steps', () => {
    const seen = new Set<string>();
    for (const step of def.pipeline) {
      expect(def.calls).toContain(step.skill);
      for (const template of [JSON.stringify(step.input), step.condition ?? '']) {
        const parsed = parseTemplate(template);
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) continue;
        for (const ref of parsed.refs) {
          expect(['input', 'steps']).toContain(ref.root);
          if (ref.root === 'steps') expect(seen.has(ref.path[0] ?? '')).toBe(true);
        }
      }
      seen.add(step.step);
    }
    for (const value of Object.values(def.outputMapping)) expect(parseTemplate(String(value)).ok).toBe(true);
  });

  it('chains text_stats and keyword_extract with map/join filters', async () => {
    const text = 'Registries index skills. A registry validates each skill.\n\nSkills are folders.';
    const { output, ran } = await runPipeline({ text, top: 3 });
    expect(ran).toEqual(['stats', 'keywords']);
    expect(output).toEqual({
      words: 11,
      characters: 78,
      paragraphs: 2,
      sentences: 3,
      readingTimeMinutes: 0.1,
      keywords: ['skill', 'registry', 'index'],
      keywordLine: 'skill, registry, index',
      summary: '11 words · 2 paragraphs · ~0.1 min read · keywords: skill, registry, index',
    });
  });

  it('uses the default of 5 keywords when top is not given', async () => {
    const { output } = await runPipeline({ text: 'alpha beta gamma delta epsilon zeta eta theta' });
    expect(output.keywords).toEqual(['alpha', 'beta', 'gamma', 'delta', 'epsilon']);
  });

  it('skips the keyword step when the text has no words (condition renders 0)', async () => {
    const { output, ran } = await runPipeline({ text: '   \n  ' });
    expect(ran).toEqual(['stats']);
    expect(output.words).toBe(0);
    expect(output.keywords).toBeUndefined();
    expect(output.keywordLine).toBe('(none)');
    expect(output.summary).toBe('0 words · 0 paragraphs · ~0 min read · keywords: (none)');
  });
});
