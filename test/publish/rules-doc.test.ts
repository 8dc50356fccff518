import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { anchorOf } from '../../src/core/rule.ts';
import { ALL_RULES } from '../../src/pipeline/rules/all-rules.ts';
import { formatHuman } from '../../src/core/reporters/human.ts';
import { CONTRIBUTING_FILE, RULES_FILE, renderContributing, renderRulesDoc } from '../../src/publish/rules-doc.ts';

describe('docs/rules.md', () => {
  it('is up to date with the rule list (regenerate with `npm run schemas`)', async () => {
    expect(await readFile(RULES_FILE, 'utf8')).toBe(await renderRulesDoc());
  });

  it('gives every rule a row with its default severity and the anchor the validator links to', async () => {
    const text = await readFile(RULES_FILE, 'utf8');
    const missing = ALL_RULES.filter(({ meta }) => !text.includes(`| <a id="${anchorOf(meta.id)}"></a>\`${meta.id}\` | ${meta.severity} |`));
    expect(missing.map((r) => r.meta.id)).toEqual([]);
    const anchors = [...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]);
    expect(new Set(anchors).size).toBe(anchors.length);
  });

  it('is where every hint of the human output links', () => {
    const out = formatHuman({ diagnostics: [
      { rule: 'publish/version-not-bumped', severity: 'error', file: 'skills/x/SKILL.md', line: 1, column: 1, message: 'm', hint: 'h' },
      { rule: 'skill-json/meta-schema', severity: 'error', file: 'skills/y/skill.json', line: 2, column: 3, message: 'm', hint: 'h' },
    ] });
    expect(out).toContain('    hint: h (docs/rules.md#publish-version-not-bumped)');
    expect(out).toContain('    hint: h (docs/rules.md#skill-json-meta-schema)');
  });
});

describe("CONTRIBUTING.md's rule table", () => {
  it('is up to date with the rule list (regenerate with `npm run schemas`)', async () => {
    expect(await readFile(CONTRIBUTING_FILE, 'utf8')).toBe(await renderContributing());
  });

  it('links every rule id to its row in docs/rules.md or its section in docs/security.md', async () => {
    const text = await readFile(CONTRIBUTING_FILE, 'utf8');
    const table = text.slice(text.indexOf('<!-- rules-table:start -->'), text.indexOf('<!-- rules-table:end -->'));
    for (const { meta } of ALL_RULES) {
      expect(table, meta.id).toContain(`[\`${meta.id}\`](docs/${meta.engine === 'scanner' ? 'security' : 'rules'}.md#${anchorOf(meta.id)})`);
    }
  });
});
