import { resolve } from 'node:path';
import { defineCommand } from 'citty';
import { buildRegistry, ConfigError } from '../../build/index.ts';
import { CliError, EXIT } from '../_errors.ts';
import { formatArg, printDiagnostics, type DiagnosticFormat } from '../_diagnostics.ts';
import { err, style } from '../_output.ts';

export default defineCommand({
  meta: { name: 'build', description: 'Build the static registry (index.json, manifests, files, archives, discovery indexes) without the site' },
  args: {
    root: { type: 'string', description: 'Registry root (holds skills/)', default: '.' },
    out: { type: 'string', description: 'Output folder', default: 'dist' },
    lenient: { type: 'boolean', description: 'Import mode: publish every valid skill and list the rejected ones', default: false },
    format: formatArg,
  },
  async run({ args }) {
    try {
      const result = await buildRegistry({ root: resolve(String(args.root)), outDir: resolve(String(args.out)), lenient: args.lenient });
      printDiagnostics(result.diagnostics, args.format as DiagnosticFormat, { published: result.manifests.length, rejected: result.rejected });
      if (args.format === 'human') {
        for (const r of result.rejected) err(`${style.yellow('rejected', process.stderr)} ${r.dir}: ${r.errors.map((e) => e.rule).join(', ')}`);
        for (const n of result.notDiscoverable) err(`${style.dim('not in discovery indexes', process.stderr)} ${n.name}: ${n.reason}`);
        if (result.index) err(`published ${result.index.totalSkills} skills to ${String(args.out)}`);
        else err(`${style.red('nothing written', process.stderr)}: fix the errors above, or pass --lenient to publish the valid skills only`);
      }
      return result.ok || (args.lenient && result.index) ? EXIT.ok : EXIT.failure;
    } catch (error) {
      if (error instanceof ConfigError) throw new CliError('E_CONFIG', error.message, { hint: 'fix skilldex.config.json; its schema is schemas/config.schema.json' });
      throw error;
    }
  },
});
