import { reportedRule } from './rule.ts';

// Earlier versions come from git history (src/pipeline/history/), not from a folder, so no
// per-skill check reports these: the history reader and the earlier versions' gate do.
export const versionsHistoryIncomplete = reportedRule({
  id: 'versions/history-incomplete',
  severity: 'warning',
  description: 'The registry is built from a shallow clone or a repository git cannot read: only current versions are published.',
  hint: 'build from a full clone (`git fetch --unshallow`, or `fetch-depth: 0` in actions/checkout); see docs/hosting.md',
  reportedBy: 'the history reader (src/pipeline/history/read-history.ts)',
});

export const versionsVersionRejected = reportedRule({
  id: 'versions/version-rejected',
  severity: 'warning',
  description: 'An earlier version, as of the last commit it was published from, fails validation or the security scan, or is not a semantic version; it is left out.',
  hint: 'nothing to do if the version should stay unpublished; otherwise fix it in a commit that declares that version again',
  reportedBy: 'the earlier versions\' gate (src/pipeline/history/old-versions.ts)',
});
