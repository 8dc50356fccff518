/**
 * The manifest's `usedBy` across format versions (docs/registry-format.md#format-versions): a 2.2
 * client reads a 2.1 manifest, which has no `usedBy`, and falls back to `calledBy`; a client reads a
 * manifest with a field it does not know, which is how a 2.0 or 2.1 client reads a 2.2 manifest.
 */
import { describe, expect, it } from 'vitest';
import type { SkillUser } from '../../src/core/schemas/manifest.ts';
import { REFERENCE_LABELS, skillUsers } from '../../src/core/used-by.ts';
import { zodShapeCheck } from '../../src/runtime/node/zod-shape-check.ts';
import { structuralShapeCheck } from '../../src/runtime/shape-check.ts';

const manifest = {
  name: 'text_stats',
  title: 'Text Stats',
  description: 'Counts a text.',
  version: '1.0.0',
  format: 'skill-json',
  mode: 'code',
  tags: [],
  keywords: [],
  sourcePath: 'skills/text/text-stats',
  sourceFile: 'skill.json',
  hasSkillMd: false,
  calls: [],
  calledBy: ['text_report'],
  timeoutMs: 30_000,
  retry: 0,
  tools: [],
  files: [{ path: 'skill.json', size: 2, digest: `sha256:${'0'.repeat(64)}` }],
  digest: `sha256:${'1'.repeat(64)}`,
  urls: { page: 'skills/text_stats/', manifest: 'skills/text_stats.json', files: 'skills/text_stats/1111/', archive: 'skills/text_stats/1111.tar.gz' },
  diagnostics: [],
};

describe('usedBy across format versions', () => {
  it('reads who uses a skill from usedBy, and from calledBy in a manifest written before 2.2.0', () => {
    const users: SkillUser[] = [{ name: 'conventional-commits', kinds: ['tool-id', 'link'] }];
    for (const check of [zodShapeCheck, structuralShapeCheck]) {
      const current = check.manifest({ ...manifest, usedBy: users });
      expect(current.ok && skillUsers(current.value)).toEqual(users);
      const older = check.manifest(manifest);
      expect(older.ok && skillUsers(older.value)).toEqual([{ name: 'text_report', kinds: ['calls'] }]);
    }
    expect(skillUsers({ ...manifest, usedBy: users }).map((u) => u.kinds.map((k) => REFERENCE_LABELS[k]).join(', '))).toEqual(['uses its tools, links to its docs']);
  });

  it('lets a client read a manifest with a field it does not know, as 2.0 and 2.1 clients read usedBy', () => {
    const later = { ...manifest, addedInALaterFormat: [{ anything: true }] };
    expect(structuralShapeCheck.manifest(later).ok).toBe(true);
    const parsed = zodShapeCheck.manifest(later);
    expect(parsed.ok && Object.keys(parsed.value)).not.toContain('addedInALaterFormat');
  });

  it('refuses a usedBy entry that is not a published name', () => {
    for (const check of [zodShapeCheck, structuralShapeCheck]) expect(check.manifest({ ...manifest, usedBy: [{ name: '../x', kinds: ['link'] }] }).ok).toBe(false);
  });
});
