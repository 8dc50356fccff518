/**
 * The one rule list: validator, pull-request and scanner rules together, ids unique across all,
 * every documentation link pointing at an anchor that exists, and every scanner rule that the
 * build leaves to the validator named by the validator rule that covers it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorOf } from '../../../src/core/rule.ts';
import { ALL_RULES, COVERED_SCANNER_RULES, ruleById, rulesOfScope, type RuleId } from '../../../src/pipeline/rules/all-rules.ts';
import { LEFT_TO_THE_VALIDATOR } from '../../../src/pipeline/phases/scan.ts';
import { REGISTRY_RULES } from '../../../src/pipeline/rules/cross-skill.ts';
import { SCANNER_RULES } from '../../../src/scanner/catalog.ts';
import { REPO } from './_harness.ts';

describe('ALL_RULES', () => {
  it('holds the validator, publish and scanner rules, each id once', () => {
    const ids = ALL_RULES.map((r) => r.meta.id);
    expect(new Set(ids).size).toBe(ids.length);
    const some: RuleId[] = ['files/zero-width', 'unicode/zero-width', 'exec/download-pipe-shell', 'registry/duplicate-name', 'publish/version-not-bumped'];
    for (const id of some) expect(ids).toContain(id);
    const engine = (e: string) => ALL_RULES.filter((r) => r.meta.engine === e).map((r) => r.meta);
    expect(engine('scanner').every((m) => ['info', 'warn', 'high', 'critical'].includes(m.severity))).toBe(true);
    expect([...engine('validator'), ...engine('publish')].every((m) => ['error', 'warning'].includes(m.severity))).toBe(true);
    expect(engine('publish').map((m) => m.id)).toEqual(['publish/version-not-bumped', 'publish/version-lowered', 'publish/mixed-change']);
    expect(engine('scanner').map((m) => m.id)).toEqual(SCANNER_RULES.map((r) => r.meta.id));
  });

  it('finds a rule by its typed id, and the rules of a scope in the order they run', () => {
    expect(ruleById('name/folder-mismatch').meta.severity).toBe('error');
    expect(rulesOfScope('registry').map((r) => r.meta.id)).toEqual(['registry/duplicate-name', 'registry/cross-format-collision', 'registry/call-cycle', 'registry/unknown-call']);
    // The registry engine runs its family's list: the same rules, in the same order.
    expect(rulesOfScope('registry')).toEqual([...REGISTRY_RULES]);
    expect(rulesOfScope('files').map((r) => r.meta.id)).toEqual(['files/case-collision', 'files/executable-binary', 'files/encoding', 'files/typescript-syntax', 'files/bidi', 'files/unicode-tag', 'files/zero-width']);
  });

  it('links every rule to an anchor its page really has', async () => {
    const pages = new Map<string, string>();
    for (const { meta } of ALL_RULES) {
      const [page, anchor] = meta.docs.url.split('#') as [string, string];
      expect(anchor, meta.id).toBe(anchorOf(meta.id));
      if (!pages.has(page)) pages.set(page, await readFile(join(REPO, page), 'utf8'));
      const text = pages.get(page)!;
      expect(text.includes(`id="${anchor}"`), `${meta.id} → ${meta.docs.url}`).toBe(true);
    }
  });

  it('maps the scanner rules the build leaves to the validator onto the validator rules that cover them', () => {
    expect([...COVERED_SCANNER_RULES].map(([scanner, rule]) => `${scanner}→${rule.meta.id}`)).toEqual([
      'file/symlink→files/symlink',
      'file/executable-binary→files/executable-binary',
      'file/disguised-executable→files/executable-binary',
      'unicode/bidi-control→files/bidi',
      'unicode/tag-characters→files/unicode-tag',
      'unicode/zero-width→files/zero-width',
    ]);
    const scannerIds = new Set<string>(SCANNER_RULES.map((r) => r.meta.id));
    for (const scanner of COVERED_SCANNER_RULES.keys()) expect(scannerIds.has(scanner), scanner).toBe(true);
    // The build's scan turns off exactly these (taken from the file rules, which a cached rebuild loads anyway).
    expect([...LEFT_TO_THE_VALIDATOR].sort()).toEqual([...COVERED_SCANNER_RULES.keys()].sort());
  });
});

describe('docs/rules.md from the one list', () => {
  it('has a row for every validator and scanner rule, with its default severity', async () => {
    const text = await readFile(join(REPO, 'docs', 'rules.md'), 'utf8');
    const missing = ALL_RULES.filter(({ meta }) => !text.includes(`| <a id="${anchorOf(meta.id)}"></a>\`${meta.id}\` | ${meta.severity} |`));
    expect(missing.map((r) => r.meta.id)).toEqual([]);
    expect(text).toContain('`unicode/zero-width` | warn | Zero-width characters ([details](security.md#unicode-zero-width)); in a build reported as [`files/zero-width`](#files-zero-width). |');
  });
});
