import type { RiskSeverity } from '../core/schemas/diagnostic.ts';
import type { Finding, ScanVerdict } from '../core/schemas/scan.ts';

/** Which verdict each severity leads to. `info` never changes the verdict. */
const VERDICT_OF_SEVERITY: Record<RiskSeverity, ScanVerdict> = { info: 'pass', warn: 'review', high: 'warn', critical: 'fail' };

/** Verdicts from best to worst, the order `--fail-on` and `scan.blockOn` compare in. */
export const VERDICT_RANK: Record<ScanVerdict, number> = { pass: 0, review: 1, warn: 2, fail: 3 };

/**
 * A skill's verdict is the worst verdict of its findings: any `critical` → `fail`, else any `high`
 * → `warn`, else any `warn` → `review`, else `pass` (only `info` findings, or none).
 *
 * @example verdictOf([{ severity: 'high', … }]) // 'warn'
 */
export function verdictOf(findings: readonly Pick<Finding, 'severity'>[]): ScanVerdict {
  let verdict: ScanVerdict = 'pass';
  for (const f of findings) {
    const v = VERDICT_OF_SEVERITY[f.severity];
    if (VERDICT_RANK[v] > VERDICT_RANK[verdict]) verdict = v;
  }
  return verdict;
}

/** True when `verdict` is at least as bad as `threshold` (e.g. `warn` reaches `review`). */
export const reaches = (verdict: ScanVerdict, threshold: ScanVerdict): boolean => VERDICT_RANK[verdict] >= VERDICT_RANK[threshold];
