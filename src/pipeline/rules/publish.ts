import { reportedRule } from './rule.ts';

/**
 * Rules that only make sense for a pull request: they compare the working tree with a base (a
 * git ref or a published index.json), so the pull-request checks in src/publish/changes.ts report
 * them; a registry overrides their severity in `skilldex.config.json` `rules` like any other rule.
 */
const reportedBy = 'the pull-request checks (src/publish/changes.ts)';

export const publishVersionNotBumped = reportedRule({
  id: 'publish/version-not-bumped',
  engine: 'publish',
  severity: 'error',
  description: 'A published skill version is immutable: content changed since the base (git ref or published index.json) but `version` did not.',
  hint: 'raise `version`; a published version never changes',
  reportedBy,
});

export const publishVersionLowered = reportedRule({
  id: 'publish/version-lowered',
  engine: 'publish',
  severity: 'error',
  description: '`version` is lower than in the base; versions only move forward.',
  hint: 'set a version above the published one',
  reportedBy,
});

export const publishMixedChange = reportedRule({
  id: 'publish/mixed-change',
  engine: 'publish',
  severity: 'warning',
  description: 'The pull request changes build code or workflows together with skills; a maintainer must review it.',
  hint: 'split the pull request: skills in one, build code in another',
  reportedBy,
});
