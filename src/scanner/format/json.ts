import { RULES_VERSION } from '../scan.ts';
import { displayPath, worstVerdict, type SkillScanReport } from './report.ts';

/**
 * Machine-readable report: `{rulesVersion, verdict, skills: [{name, path, verdict, findings}]}`,
 * where each finding follows the `Finding` schema with `file` relative to the working directory.
 *
 * @example JSON.parse(formatJson(reports)).skills[0].verdict // 'pass'
 */
export function formatJson(reports: readonly SkillScanReport[]): string {
  const value = {
    rulesVersion: reports[0]?.result.rulesVersion ?? RULES_VERSION,
    verdict: worstVerdict(reports),
    skills: reports.map((r) => ({
      name: r.name,
      path: r.path,
      verdict: r.result.verdict,
      rulesVersion: r.result.rulesVersion,
      findings: r.result.findings.map((f) => ({ ...f, file: displayPath(r, f) })),
    })),
  };
  return `${JSON.stringify(value, null, 2)}\n`;
}
