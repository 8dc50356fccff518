import type { FindingSeverity } from '../../core/schemas/scan.ts';
import { RULES } from '../catalog.ts';
import { anchorOf } from '../rule.ts';
import { RULES_VERSION } from '../scan.ts';
import { displayPath, type SkillScanReport } from './report.ts';

const LEVEL: Record<FindingSeverity, 'error' | 'warning' | 'note'> = { critical: 'error', high: 'error', warn: 'warning', info: 'note' };
/** GitHub code scanning ranks security alerts by this score (critical ≥ 9, high ≥ 7, medium ≥ 4). */
const SECURITY_SEVERITY: Record<FindingSeverity, string> = { critical: '9.5', high: '8.0', warn: '5.0', info: '2.0' };

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
  const index = new Map<string, number>(RULES.map((r, i) => [r.id, i]));
  const rules = RULES.map((r) => ({
    id: r.id,
    name: r.id.replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase()).replace(/^\w/, (c) => c.toUpperCase()),
    shortDescription: { text: r.title },
    fullDescription: { text: r.explanation },
    help: { text: `${r.explanation}\n\nFix: ${r.fix}`, markdown: `${r.explanation}\n\n**Fix:** ${r.fix}` },
    ...(base ? { helpUri: new URL(`security/#${anchorOf(r.id)}`, base).href } : {}),
    defaultConfiguration: { level: LEVEL[r.severity] },
    properties: { tags: ['security'], 'security-severity': SECURITY_SEVERITY[r.severity], precision: 'medium' },
  }));
  const results = reports.flatMap((report) =>
    report.result.findings.map((f) => ({
      ruleId: f.rule,
      ...(index.has(f.rule) ? { ruleIndex: index.get(f.rule) } : {}),
      level: LEVEL[f.severity],
      message: { text: `${f.message}\nEvidence: ${f.evidence}` },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: encodeURI(displayPath(report, f)), uriBaseId: '%SRCROOT%' },
            region: { startLine: f.line, startColumn: f.column, snippet: { text: f.evidence } },
          },
        },
      ],
      // Stable across unrelated edits above the finding, so GitHub tracks one alert per problem.
      partialFingerprints: { 'skilldexFinding/v1': `${f.rule}:${displayPath(report, f)}:${f.evidence}` },
      properties: { skill: report.name, severity: f.severity, 'security-severity': SECURITY_SEVERITY[f.severity] },
    })),
  );
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'skilldex-scan',
            version: RULES_VERSION,
            semanticVersion: RULES_VERSION.split('.').map(Number).join('.'),
            ...(base ? { informationUri: new URL('security/', base).href } : {}),
            rules,
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The directory skilldex scan ran in.' } } },
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
