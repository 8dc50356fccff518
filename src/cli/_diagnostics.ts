import type { ValidatorDiagnostic as Diagnostic } from '../core/schemas/diagnostic.ts';
import { formatGithub, formatHuman, formatJson } from '../pipeline/reporters.ts';
import { printable, style } from './_output.ts';
import { VERSION } from './_version.ts';

const DIAGNOSTIC_FORMATS = ['human', 'json', 'sarif', 'github'] as const;
export type DiagnosticFormat = (typeof DIAGNOSTIC_FORMATS)[number];

/** The `--format` flag shared by validate and build. */
export const formatArg = {
  type: 'enum' as const,
  options: [...DIAGNOSTIC_FORMATS] as string[],
  default: 'human',
  description: 'Output: human, json, sarif (GitHub code scanning) or github (workflow annotations)',
};

/**
 * Prints diagnostics in the chosen format to stdout. File names and messages quote skills
 * (folder names, field values), so in the text formats their control characters are shown,
 * never sent to the terminal or the CI log; JSON and SARIF escape them themselves.
 */
export async function printDiagnostics(diagnostics: readonly Diagnostic[], format: DiagnosticFormat, extra: Record<string, unknown> = {}): Promise<void> {
  if (format === 'json') {
    process.stdout.write(formatJson(diagnostics, extra));
    return;
  }
  if (format === 'sarif') {
    const { formatSarif } = await import('../pipeline/sarif-report.ts');
    process.stdout.write(formatSarif(diagnostics, { version: VERSION }));
    return;
  }
  const safe = diagnostics.map((d) => ({
    ...d,
    file: printable(d.file),
    message: printable(d.message),
    ...(d.hint !== undefined ? { hint: printable(d.hint) } : {}),
    ...(d.related ? { related: d.related.map((r) => ({ ...r, file: printable(r.file), message: printable(r.message) })) } : {}),
  }));
  if (format === 'github') process.stdout.write(formatGithub(safe));
  else process.stdout.write(formatHuman(safe, style));
}
