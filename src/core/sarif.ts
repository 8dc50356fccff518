/**
 * The one SARIF 2.1.0 writer: `skilldex scan` and `skilldex validate`/`build` describe their rules
 * and results in these neutral shapes, so both logs have the same structure and GitHub code
 * scanning treats them alike. Pure: returns the text to write.
 */

export type SarifLevel = 'error' | 'warning' | 'note';

export interface SarifRule {
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

export interface SarifLocation {
  /** Path relative to the directory the tool ran in, `/`-separated. */
  file: string;
  line: number;
  column: number;
  message?: string;
  snippet?: string;
}

export interface SarifResult extends SarifLocation {
  ruleId: string;
  level: SarifLevel;
  message: string;
  related?: readonly SarifLocation[];
  /** Stable across unrelated edits above the problem, so GitHub tracks one alert per problem. */
  fingerprint: Record<string, string>;
  properties?: Record<string, unknown>;
}

export interface SarifTool {
  name: string;
  version: string;
  informationUri?: string;
  rules: readonly SarifRule[];
}

/** `exec/download-pipe-shell` → `ExecDownloadPipeShell`, SARIF's `reportingDescriptor.name`. */
const pascalName = (id: string): string => id.replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase()).replace(/^\w/, (c) => c.toUpperCase());

const physical = (l: SarifLocation) => ({
  physicalLocation: {
    artifactLocation: { uri: encodeURI(l.file), uriBaseId: '%SRCROOT%' },
    region: { startLine: l.line, startColumn: l.column, ...(l.snippet !== undefined ? { snippet: { text: l.snippet } } : {}) },
  },
});

/**
 * A SARIF 2.1.0 log with one run: every rule in `tool.driver.rules`, one result per problem with
 * a `%SRCROOT%`-relative location, secondary places as `relatedLocations`.
 *
 * @example sarifLog({ name: 'skilldex-validate', version: '1.0.0', rules }, results, 'The directory skilldex ran in.')
 */
export function sarifLog(tool: SarifTool, results: readonly SarifResult[], rootDescription: string): string {
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
