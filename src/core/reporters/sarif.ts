import { anchorOf, type RuleMeta } from '../rule.ts';
import type { Diagnostic, Severity } from '../schemas/diagnostic.ts';
import { isRisk, LEVEL } from './report.ts';

/**
 * SARIF 2.1.0 for GitHub code scanning, the same log for `skilldex validate`/`build` and `skilldex
 * scan`: every rule of the run in `tool.driver.rules`, one result per diagnostic with a
 * `%SRCROOT%`-relative location, its other places as `relatedLocations`. Pure: returns the text.
 */

type SarifLevel = 'error' | 'warning' | 'note';

interface SarifRule {
  id: string;
  /** One line: what the rule checks. */
  title: string;
  /** Why it matters. */
  description: string;
  /** What to do about it, when the rule states it once for every problem. */
  fix?: string;
  /** Absolute URL of the rule's documentation (SARIF requires absolute URIs). */
  helpUri?: string;
  level: SarifLevel;
  /** Extra `properties` of the rule (tags, `security-severity`, precision). */
  properties?: Record<string, unknown>;
}

interface SarifLocation {
  /** Path relative to the directory the tool ran in, `/`-separated. */
  file: string;
  line: number;
  column: number;
  message?: string;
  snippet?: string;
}

interface SarifResult extends SarifLocation {
  ruleId: string;
  level: SarifLevel;
  message: string;
  related?: readonly SarifLocation[];
  /** Stable across unrelated edits above the problem, so GitHub tracks one alert per problem. */
  fingerprint: Record<string, string>;
  properties?: Record<string, unknown>;
}

interface SarifTool {
  name: string;
  version: string;
  informationUri?: string;
  rules: readonly SarifRule[];
}

/** `exec/download-pipe-shell` → `ExecDownloadPipeShell`, SARIF's `reportingDescriptor.name`. */
const pascalName = (id: string): string => id.replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase()).replace(/^\w/, (c) => c.toUpperCase());

/**
 * A relative path as a URI reference. encodeURI leaves `#` and `?` as they are, so
 * `references/c#-tips.md` would read as `references/c` with a fragment, and the alert would land
 * on a file that does not exist: those two are encoded too, and a `:` in the first segment, which
 * would read as a scheme. The characters a path segment may hold (`,` `:` `@` …) stay readable.
 */
const artifactUri = (file: string): string => {
  const uri = encodeURI(file).replace(/[?#]/g, encodeURIComponent);
  const slash = uri.indexOf('/');
  const first = slash === -1 ? uri : uri.slice(0, slash);
  return first.includes(':') ? first.replaceAll(':', '%3A') + uri.slice(first.length) : uri;
};

const physical = (l: SarifLocation) => ({
  physicalLocation: {
    artifactLocation: { uri: artifactUri(l.file), uriBaseId: '%SRCROOT%' },
    region: { startLine: l.line, startColumn: l.column, ...(l.snippet !== undefined ? { snippet: { text: l.snippet } } : {}) },
  },
});

/** A SARIF 2.1.0 log with one run. */
function sarifLog(tool: SarifTool, results: readonly SarifResult[], rootDescription: string): string {
  const index = new Map<string, number>(tool.rules.map((r, i) => [r.id, i]));
  const rules = tool.rules.map((r) => ({
    id: r.id,
    name: pascalName(r.id),
    shortDescription: { text: r.title },
    fullDescription: { text: r.description },
    help: r.fix !== undefined ? { text: `${r.description}\n\nFix: ${r.fix}`, markdown: `${r.description}\n\n**Fix:** ${r.fix}` } : { text: r.description },
    ...(r.helpUri ? { helpUri: r.helpUri } : {}),
    defaultConfiguration: { level: r.level },
    ...(r.properties ? { properties: r.properties } : {}),
  }));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: tool.name,
            version: tool.version,
            semanticVersion: tool.version.split('.').map(Number).join('.'),
            ...(tool.informationUri ? { informationUri: tool.informationUri } : {}),
            rules,
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { description: { text: rootDescription } } },
        results: results.map((r) => ({
          ruleId: r.ruleId,
          ...(index.has(r.ruleId) ? { ruleIndex: index.get(r.ruleId) } : {}),
          level: r.level,
          message: { text: r.message },
          locations: [physical(r)],
          ...(r.related?.length ? { relatedLocations: r.related.map((l, id) => ({ id, ...(l.message !== undefined ? { message: { text: l.message } } : {}), ...physical(l) })) } : {}),
          partialFingerprints: r.fingerprint,
          ...(r.properties ? { properties: r.properties } : {}),
        })),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/** GitHub code scanning ranks security alerts by this score (critical ≥ 9, high ≥ 7, medium ≥ 4). */
const SECURITY_SEVERITY: Readonly<Partial<Record<Severity, string>>> = { critical: '9.5', high: '8.0', warn: '5.0', info: '2.0' };

export interface SarifOptions {
  /** The tool: `skilldex-validate` or `skilldex-scan`, and its version (the scan's is its rule set's). */
  name: string;
  version: string;
  /** The rules of the run, from the one rule list. */
  rules: readonly RuleMeta[];
  /**
   * Absolute base URL of the published site, e.g. `https://skills.example.org/`. Rule `helpUri`s
   * are the rule's anchor on the site (`security/#…`, `docs/rules/#…`); SARIF requires absolute
   * URIs, so without it they are left out.
   */
  siteUrl?: string;
  /** A page of the site about the tool, with `siteUrl` (`security/`). */
  informationPath?: string;
  /** What `%SRCROOT%` is, for the reader of the log. */
  rootDescription: string;
}

/** The site page of a rule's documentation: the security page for the scanner's, the rules page for the others. */
const sitePathOf = (meta: RuleMeta): string => `${meta.engine === 'scanner' ? 'security/' : 'docs/rules/'}#${anchorOf(meta.id)}`;

/**
 * @example writeFileSync('scan.sarif', formatSarif({ diagnostics }, { name: 'skilldex-scan', version, rules, siteUrl, rootDescription: 'The directory skilldex scan ran in.' }));
 */
export function formatSarif({ diagnostics }: { diagnostics: readonly Diagnostic[] }, options: SarifOptions): string {
  const base = options.siteUrl ? (options.siteUrl.endsWith('/') ? options.siteUrl : `${options.siteUrl}/`) : undefined;
  const rules = options.rules.map((r): SarifRule => ({
    id: r.id,
    title: r.docs.description,
    description: r.docs.explanation ?? r.docs.description,
    fix: r.hint,
    ...(base ? { helpUri: new URL(sitePathOf(r), base).href } : {}),
    level: LEVEL[r.severity as Severity],
    ...(r.engine === 'scanner' ? { properties: { tags: ['security'], 'security-severity': SECURITY_SEVERITY[r.severity as Severity], precision: 'medium' } } : {}),
  }));
  const results = diagnostics.map((d): SarifResult => {
    const properties = { ...(d.skill !== undefined ? { skill: d.skill } : {}), ...(isRisk(d.severity) ? { severity: d.severity, 'security-severity': SECURITY_SEVERITY[d.severity] } : {}) };
    return {
      ruleId: d.rule,
      level: LEVEL[d.severity],
      message: `${d.message}${d.hint ? `\nHint: ${d.hint}` : ''}${d.evidence !== undefined ? `\nEvidence: ${d.evidence}` : ''}`,
      file: d.file,
      line: d.line,
      column: d.column,
      ...(d.evidence !== undefined ? { snippet: d.evidence } : {}),
      ...(d.related ? { related: d.related } : {}),
      // Stable across unrelated edits above the problem: a finding by what it matched, a diagnostic by what it says.
      fingerprint: d.evidence !== undefined ? { 'skilldexFinding/v1': `${d.rule}:${d.file}:${d.evidence}` } : { 'skilldexDiagnostic/v1': `${d.rule}:${d.file}:${d.message}` },
      ...(Object.keys(properties).length > 0 ? { properties } : {}),
    };
  });
  const informationUri = base && options.informationPath ? new URL(options.informationPath, base).href : undefined;
  return sarifLog({ name: options.name, version: options.version, ...(informationUri ? { informationUri } : {}), rules }, results, options.rootDescription);
}
