import { resolve } from 'node:path';
import { defineCommand } from 'citty';
import { ConfigError, validateRegistry } from '../../build/index.ts';
import { CliError, EXIT } from '../_errors.ts';
import { formatArg, printDiagnostics, type DiagnosticFormat } from '../_diagnostics.ts';

export default defineCommand({
  meta: { name: 'validate', description: 'Validate the skills of a registry and report every problem as file:line:col rule message' },
  args: {
    root: { type: 'string', description: 'Registry root (holds skills/ and skilldex.config.json)', default: '.' },
    format: formatArg,
    scan: { type: 'boolean', description: 'Run the security scanner too (--no-scan to skip)', default: true },
  },
  async run({ args }) {
    const root = resolve(String(args.root));
    try {
      const result = await validateRegistry(root, { scan: args.scan });
      printDiagnostics(result.diagnostics, args.format as DiagnosticFormat, {
        accepted: result.accepted.map((s) => s.draft.name),
        rejected: result.rejected.map((r) => ({ dir: r.dir, name: r.name })),
      });
      return result.diagnostics.some((d) => d.severity === 'error') ? EXIT.failure : EXIT.ok;
    } catch (error) {
      if (error instanceof ConfigError) throw new CliError('E_CONFIG', error.message, { hint: 'fix skilldex.config.json; its schema is schemas/config.schema.json' });
      throw error;
    }
  },
});
