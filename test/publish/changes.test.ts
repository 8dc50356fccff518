/**
 * Which validation diagnostics a pull request is responsible for (src/publish/changes.ts), as
 * pure data: the pull-request tests drive the same through git.
 */
import { describe, expect, it } from 'vitest';
import type { ValidatorDiagnostic } from '../../src/core/schemas/diagnostic.ts';
import { diagnosticsForChange, type SkillChange } from '../../src/publish/changes.ts';

const diagnostic = (rule: string, file: string, message: string, related?: string): ValidatorDiagnostic => ({
  rule, severity: 'error', file, line: 2, column: 3, message, hint: 'h', ...(related ? { related: [{ file: related, line: 2, column: 11, message: 'here' }] } : {}),
});

describe('diagnosticsForChange', () => {
  it('keeps what a renamed skill breaks in an untouched caller, and no other skill\'s own problems', () => {
    const renamed: SkillChange = { status: 'changed', name: 'text_stats_v2', dir: 'skills/text/text-stats' };
    const broken = diagnostic('registry/unknown-call', 'skills/workflow/text-report/skill.json', "'text_report' calls 'text_stats', which is not in the registry", 'skills/text/text-stats/skill.json');
    const linked = diagnostic('registry/broken-link', 'skills/docs/guide/SKILL.md', "the link '../../text/text-stats/README.md' points to skills/text/text-stats/README.md, which skill 'text_stats_v2' does not have", 'skills/text/text-stats/skill.json');
    const unrelated = diagnostic('registry/unknown-call', 'skills/workflow/other/skill.json', "'other' calls 'nobody', which is not in the registry");
    expect(diagnosticsForChange([broken, linked, unrelated], [renamed], ['skills/text/text-stats/skill.json'])).toEqual([broken, linked]);
  });
});
