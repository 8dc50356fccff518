import { z } from 'zod';
import { Diagnostic, RiskSeverity } from './diagnostic.ts';

/** What the scanner concludes about a whole skill. `fail` blocks the build by default. */
export const ScanVerdict = z.enum(['pass', 'review', 'warn', 'fail']);
export type ScanVerdict = z.infer<typeof ScanVerdict>;

/**
 * A scan finding: the {@link Diagnostic} a scanner rule reports, refined to what a manifest
 * publishes in `scan.findings` since format 1.0 (clients read exactly this shape): the risk scale,
 * the evidence and the documentation link always set; the rule's fix is the end of the message
 * (`… Fix: …`) rather than a separate hint, and the skill is the manifest's.
 */
export const Finding = Diagnostic.pick({ rule: true, severity: true, file: true, line: true, column: true, evidence: true, message: true, docs: true, allowed: true })
  .extend({ severity: RiskSeverity })
  .required({ evidence: true, docs: true })
  .meta({ id: 'Finding' });
export type Finding = z.infer<typeof Finding>;

export const ScanResult = z
  .object({
    verdict: ScanVerdict,
    /** Version of the rule set that produced the findings. */
    rulesVersion: z.string(),
    findings: z.array(Finding),
  })
  .meta({ id: 'ScanResult' });
export type ScanResult = z.infer<typeof ScanResult>;
