import type { Finding, ScanResult, ScanVerdict } from '../../core/schemas/scan.ts';
import { VERDICT_RANK } from '../verdict.ts';

/** One scanned skill as the formatters see it. */
export interface SkillScanReport {
  /** The skill's name. */
  name: string;
  /** The skill folder relative to the working directory, `/`-separated (`.` for the cwd itself). */
  path: string;
  result: ScanResult;
}

/** A finding's file as seen from the working directory. */
export const displayPath = (report: SkillScanReport, finding: Finding): string =>
  report.path === '' || report.path === '.' ? finding.file : `${report.path.replace(/\/$/, '')}/${finding.file}`;

/** The worst verdict over several skills (`pass` for none). */
export function worstVerdict(reports: readonly SkillScanReport[]): ScanVerdict {
  let worst: ScanVerdict = 'pass';
  for (const r of reports) if (VERDICT_RANK[r.result.verdict] > VERDICT_RANK[worst]) worst = r.result.verdict;
  return worst;
}
