import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/pipeline/index.ts';
import { anchor, formatHuman } from '../../src/pipeline/reporters.ts';
import { PUBLISH_RULES } from '../../src/publish/rules.ts';
import { RULES_FILE, renderRulesDoc } from '../../src/publish/rules-doc.ts';

describe('docs/rules.md', () => {
  it('is up to date with the rule catalog (regenerate with `npm run schemas`)', async () => {
    expect(await readFile(RULES_FILE, 'utf8')).toBe(await renderRulesDoc());
  });

  it('gives every rule a row with its default severity and the anchor the validator links to', async () => {
    const text = await readFile(RULES_FILE, 'utf8');
    const missing = [...RULES, ...PUBLISH_RULES].filter((r) => !text.includes(`| <a id="${anchor(r.id)}"></a>\`${r.id}\` | ${r.severity} |`));
    expect(missing.map((r) => r.id)).toEqual([]);
    const anchors = [...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]);
    expect(new Set(anchors).size).toBe(anchors.length);
  });

  it('is where every hint of the human output links', () => {
    const out = formatHuman([
      { rule: 'publish/version-not-bumped', severity: 'error', file: 'skills/x/SKILL.md', line: 1, column: 1, message: 'm', hint: 'h' },
      { rule: 'skill-json/meta-schema', severity: 'error', file: 'skills/y/skill.json', line: 2, column: 3, message: 'm', hint: 'h' },
    ]);
    expect(out).toContain('    hint: h (docs/rules.md#publish-version-not-bumped)');
    expect(out).toContain('    hint: h (docs/rules.md#skill-json-meta-schema)');
  });
});
