import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorOf } from '../../src/core/rule.ts';
import { SCANNER_RULES } from '../../src/scanner/index.ts';

const docs = readFileSync(join(import.meta.dirname, '../../docs/security.md'), 'utf8');

describe('docs/security.md', () => {
  it.each(SCANNER_RULES.map(({ meta }) => [meta.id, meta] as const))('documents %s with its anchor, severity, explanation and fix', (id, rule) => {
    expect(docs).toContain(`<a id="${anchorOf(id)}"></a>\n\n## ${id}\n\n**Severity:** \`${rule.severity}\``);
    expect(docs).toContain(rule.docs.explanation);
    expect(docs).toContain(rule.hint);
  });
});

describe('docs/security.md rule sections', () => {
  it('are generated from the one rule list (regenerate with `npm run schemas`)', async () => {
    const { renderSecurityDoc } = await import('../../src/publish/rules-doc.ts');
    expect(docs).toBe(await renderSecurityDoc());
    expect(docs).toContain('## unicode/zero-width\n\n**Severity:** `warn` — Zero-width characters.');
    expect(docs).toContain('In a build, the validator reports this problem as [`files/zero-width`](rules.md#files-zero-width)');
  });
});
