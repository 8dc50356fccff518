import { reportedRule } from './rule.ts';

// The scan gate (src/pipeline/phases/decide.ts) turns each skill's scan result into these: the
// scanner's own rules are listed with the scanner (docs/security.md).
const reportedBy = 'the scan gate (src/pipeline/phases/decide.ts)';

export const securityBlocked = reportedRule({
  id: 'security/blocked',
  severity: 'error',
  description: 'The security scan verdict is at or above `scan.blockOn`.',
  hint: "run 'skilldex scan' on the skill for every finding; see docs/security.md to appeal a false positive",
  reportedBy,
});

export const securityFinding = reportedRule({
  id: 'security/finding',
  severity: 'warning',
  description: 'A security scan finding at `warn` or above that does not block; the message names the scanner rule.',
  hint: "answer a false positive with a `skilldex-scan: allow` directive or the registry's scan.allow list",
  reportedBy,
});
