/**
 * The one rule list: validator and scanner rules together, ids unique across both, every
 * documentation link pointing at an anchor that exists, and every scanner rule that the build
 * leaves to the validator naming a validator rule.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_RULES, type RuleId } from '../../../src/pipeline/rules/all-rules.ts';
import { REPO } from './_harness.ts';

describe('ALL_RULES', () => {
  it('holds the validator, publish and scanner rules, each id once', () => {
    const ids = ALL_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const some: RuleId[] = ['files/zero-width', 'unicode/zero-width', 'exec/download-pipe-shell', 'registry/duplicate-name', 'publish/version-not-bumped'];
    for (const id of some) expect(ids).toContain(id);
    expect(ALL_RULES.filter((r) => r.engine === 'scanner').every((r) => ['info', 'warn', 'high', 'critical'].includes(r.severity))).toBe(true);
    expect(ALL_RULES.filter((r) => r.engine !== 'scanner').every((r) => ['error', 'warning'].includes(r.severity))).toBe(true);
    expect(ALL_RULES.filter((r) => r.engine === 'publish').map((r) => r.id)).toEqual(['publish/version-not-bumped', 'publish/version-lowered', 'publish/mixed-change']);
  });

  it('links every rule to an anchor its page really has', async () => {
    const pages = new Map<string, string>();
    for (const r of ALL_RULES) {
      const [page, anchor] = r.docs.url.split('#') as [string, string];
      if (!pages.has(page)) pages.set(page, await readFile(join(REPO, page), 'utf8'));
      const text = pages.get(page)!;
      expect(text.includes(`id="${anchor}"`) || text.includes(`{#${anchor}}`) || new RegExp(`^#+ .*\`${r.id}\``, 'm').test(text), `${r.id} → ${r.docs.url}`).toBe(true);
    }
  });

  it('maps the scanner rules the build leaves to the validator onto validator rules', () => {
    const validator = new Set(ALL_RULES.filter((r) => r.engine === 'validator').map((r) => r.id));
    const mapped = ALL_RULES.filter((r) => r.reportedAs);
    expect(mapped.map((r) => `${r.id}→${r.reportedAs}`)).toEqual([
      'unicode/tag-characters→files/unicode-tag',
      'unicode/bidi-control→files/bidi',
      'unicode/zero-width→files/zero-width',
      'file/disguised-executable→files/executable-binary',
      'file/executable-binary→files/executable-binary',
      'file/symlink→files/symlink',
    ]);
    for (const r of mapped) expect(validator.has(r.reportedAs!)).toBe(true);
  });
});

describe('docs/rules.md from the one list', () => {
  it('has a row for every validator and scanner rule, with its default severity', async () => {
    const text = await readFile(join(REPO, 'docs', 'rules.md'), 'utf8');
    const missing = ALL_RULES.filter((r) => !text.includes(`| <a id="${r.docs.url.split('#')[1]}"></a>\`${r.id}\` | ${r.severity} |`));
    expect(missing.map((r) => r.id)).toEqual([]);
    expect(text).toContain('`unicode/zero-width` | warn | Zero-width characters ([details](security.md#unicode-zero-width)); in a build reported as [`files/zero-width`](#files-zero-width). |');
  });
});
