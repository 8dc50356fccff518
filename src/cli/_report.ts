import { escapedJson } from '../core/control-chars.ts';
import { formatGithub } from '../core/reporters/github.ts';
import { formatHuman } from '../core/reporters/human.ts';
import { formatJson } from '../core/reporters/json.ts';
import type { Report } from '../core/reporters/report.ts';
import type { SarifOptions } from '../core/reporters/sarif.ts';
import type { Diagnostic } from '../core/schemas/diagnostic.ts';
import { printable, style, withLocalDocs } from './_output.ts';
import { VERSION } from '../core-node/package-version.ts';

const OUTPUT_FORMATS = ['human', 'json', 'sarif', 'github'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The `--format` flag of validate, build and scan. */
export const formatArg = {
  type: 'enum' as const,
  options: [...OUTPUT_FORMATS] as string[],
  default: 'human',
  description: 'Output: human, json, sarif (GitHub code scanning) or github (workflow annotations)',
};

/** SARIF for validate and build: every rule of the one list, loaded only for this format. */
async function validatorSarif(): Promise<SarifOptions> {
  const { ALL_RULES } = await import('../pipeline/rules/all-rules.ts');
  return { name: 'skilldex-validate', version: VERSION, rules: ALL_RULES.map((r) => r.meta), rootDescription: 'The directory skilldex ran in.' };
}

/** A diagnostic's text fields as a terminal or a CI log may show them: control characters visible, never acted on. */
const printableDiagnostic = (d: Diagnostic): Diagnostic => ({
  ...d,
  file: printable(d.file),
  message: printable(d.message),
  // Skilldex's own documents as this copy holds them (node_modules/skilldex/docs/… in an installed project).
  ...(d.docs !== undefined ? { docs: withLocalDocs(d.docs) } : {}),
  ...(d.hint !== undefined ? { hint: withLocalDocs(printable(d.hint)) } : {}),
  ...(d.evidence !== undefined ? { evidence: printable(d.evidence) } : {}),
  ...(d.related ? { related: d.related.map((r) => ({ ...r, file: printable(r.file), message: printable(r.message) })) } : {}),
});

/**
 * Prints a report in the chosen format to stdout: the one set of formats (src/core/reporters/)
 * for every command. File names, messages and evidence quote skills (folder names, field values,
 * matched text), so in the text formats their control characters are shown, never sent to the
 * terminal or the CI log; in JSON and SARIF they are written as `\u` escapes.
 */
export async function printReport(
  report: Report,
  format: OutputFormat,
  options: { extra?: Record<string, unknown>; sarif?: () => SarifOptions | Promise<SarifOptions> } = {},
): Promise<void> {
  if (format === 'json') {
    process.stdout.write(escapedJson(formatJson(report, options.extra)));
    return;
  }
  if (format === 'sarif') {
    const { formatSarif } = await import('../core/reporters/sarif.ts');
    process.stdout.write(escapedJson(formatSarif(report, await (options.sarif ?? validatorSarif)())));
    return;
  }
  const safe: Report = {
    diagnostics: report.diagnostics.map(printableDiagnostic),
    ...(report.scan ? { scan: { ...report.scan, skills: report.scan.skills.map((s) => ({ ...s, name: printable(s.name), path: printable(s.path), findings: s.findings.map(printableDiagnostic) })) } } : {}),
  };
  if (format === 'github') process.stdout.write(formatGithub(safe));
  else {
    const paint = (f: (t: string, s?: NodeJS.WriteStream) => string) => (t: string) => f(t, process.stdout);
    process.stdout.write(formatHuman(safe, { red: paint(style.red), yellow: paint(style.yellow), green: paint(style.green), cyan: paint(style.cyan), dim: paint(style.dim), bold: paint(style.bold), link: withLocalDocs }));
  }
}
