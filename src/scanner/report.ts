import type { Report } from '../core/reporters/report.ts';
import type { SarifOptions } from '../core/reporters/sarif.ts';
import type { ScanResult, ScanVerdict } from '../core/schemas/scan.ts';
import { SCANNER_RULES } from './catalog.ts';
import { RULES_VERSION } from './scan.ts';
import { VERDICT_RANK } from './verdict.ts';

/** One scanned skill, as `skilldex scan` found it. */
export interface SkillScanReport {
  /** The skill's name. */
  name: string;
  /** The skill folder relative to the working directory, `/`-separated (`.` for the cwd itself). */
  path: string;
  result: ScanResult;
}

/** The worst verdict over several skills (`pass` for none). */
export function worstVerdict(verdicts: readonly ScanVerdict[]): ScanVerdict {
  let worst: ScanVerdict = 'pass';
  for (const v of verdicts) if (VERDICT_RANK[v] > VERDICT_RANK[worst]) worst = v;
  return worst;
}

/**
 * Scan results as a report for the one set of output formats (src/core/reporters/): each
 * finding named by its file from the working directory and by its skill.
 *
 * @example process.stdout.write(formatHuman(scanReport([{ name: 'pdf', path: 'skills/pdf', result }])));
 */
export function scanReport(scans: readonly SkillScanReport[]): Report {
  const skills = scans.map(({ name, path, result }) => {
    const folder = path === '' || path === '.' ? '' : `${path.replace(/\/$/, '')}/`;
    return { name, path, verdict: result.verdict, rulesVersion: result.rulesVersion, findings: result.findings.map((f) => ({ ...f, file: `${folder}${f.file}`, skill: name })) };
  });
  return {
    diagnostics: skills.flatMap((s) => s.findings),
    scan: { verdict: worstVerdict(skills.map((s) => s.verdict)), rulesVersion: scans[0]?.result.rulesVersion ?? RULES_VERSION, skills },
  };
}

/**
 * The SARIF log of a scan: the scanner's rules, its rule set's version, and help links on the
 * site when its URL is known.
 */
export const scanSarifOptions = (siteUrl?: string): SarifOptions => ({
  name: 'skilldex-scan',
  version: RULES_VERSION,
  rules: SCANNER_RULES.map((r) => r.meta),
  ...(siteUrl ? { siteUrl } : {}),
  informationPath: 'security/',
  rootDescription: 'The directory skilldex scan ran in.',
});
