import type { Diagnostic } from '../core/schemas/diagnostic.ts';
import { formatGithub, formatHuman, formatJson } from '../build/format.ts';
import { style } from './_output.ts';

export const DIAGNOSTIC_FORMATS = ['human', 'json', 'github'] as const;
export type DiagnosticFormat = (typeof DIAGNOSTIC_FORMATS)[number];

/** The `--format` flag shared by validate and build. */
export const formatArg = {
  type: 'enum' as const,
  options: [...DIAGNOSTIC_FORMATS] as string[],
  default: 'human',
  description: 'Output: human, json, or github (workflow annotations)',
};

/** Prints diagnostics in the chosen format to stdout. */
export function printDiagnostics(diagnostics: readonly Diagnostic[], format: DiagnosticFormat, extra: Record<string, unknown> = {}): void {
  if (format === 'json') process.stdout.write(formatJson(diagnostics, extra));
  else if (format === 'github') process.stdout.write(formatGithub(diagnostics));
  else process.stdout.write(formatHuman(diagnostics, style));
}
