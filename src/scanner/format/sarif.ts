import { sarifLog, type SarifLevel } from '../../core/sarif.ts';
import type { RiskSeverity } from '../../core/schemas/diagnostic.ts';
import { anchorOf } from '../../core/rule.ts';
import { SCANNER_RULES } from '../catalog.ts';
import { RULES_VERSION } from '../scan.ts';
import { displayPath, type SkillScanReport } from './report.ts';

export const LEVEL: Record<RiskSeverity, SarifLevel> = { critical: 'error', high: 'error', warn: 'warning', info: 'note' };
/** GitHub code scanning ranks security alerts by this score (critical ≥ 9, high ≥ 7, medium ≥ 4). */
const SECURITY_SEVERITY: Record<RiskSeverity, string> = { critical: '9.5', high: '8.0', warn: '5.0', info: '2.0' };

export interface SarifOptions {
  /**
   * Absolute base URL of the published site, e.g. `https://skills.example.org/`. Rule `helpUri`s
   * are `<siteUrl>/security/#<anchor>`; SARIF requires absolute URIs, so without it they are left out.
   */
  siteUrl?: string;
}

/**
 * SARIF 2.1.0 that GitHub code scanning ingests: every rule in `tool.driver.rules` (with `helpUri`
 * when a site URL is known), one result per finding with a repo-relative `artifactLocation.uri`.
 *
 * @example writeFileSync('scan.sarif', formatSarif(reports, { siteUrl: 'https://skills.example.org/' }));
 */
export function formatSarif(reports: readonly SkillScanReport[], options: SarifOptions = {}): string {
  const base = options.siteUrl ? (options.siteUrl.endsWith('/') ? options.siteUrl : `${options.siteUrl}/`) : undefined;
  const rules = SCANNER_RULES.map(({ meta: r }) => ({
    id: r.id,
    title: r.docs.description,
    description: r.docs.explanation,
    fix: r.hint,
    ...(base ? { helpUri: new URL(`security/#${anchorOf(r.id)}`, base).href } : {}),
    level: LEVEL[r.severity],
    properties: { tags: ['security'], 'security-severity': SECURITY_SEVERITY[r.severity], precision: 'medium' },
  }));
  const results = reports.flatMap((report) =>
    report.result.findings.map((f) => ({
      ruleId: f.rule,
      level: LEVEL[f.severity],
      message: `${f.message}\nEvidence: ${f.evidence}`,
      file: displayPath(report, f),
      line: f.line,
      column: f.column,
      snippet: f.evidence,
      fingerprint: { 'skilldexFinding/v1': `${f.rule}:${displayPath(report, f)}:${f.evidence}` },
      properties: { skill: report.name, severity: f.severity, 'security-severity': SECURITY_SEVERITY[f.severity] },
    })),
  );
  const tool = { name: 'skilldex-scan', version: RULES_VERSION, ...(base ? { informationUri: new URL('security/', base).href } : {}), rules };
  return sarifLog(tool, results, 'The directory skilldex scan ran in.');
}
