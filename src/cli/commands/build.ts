import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defineCommand } from 'citty';
import { buildRegistry, foreignOutputProblem, outputPlaceProblem } from '../../pipeline/index.ts';
import { CliError, EXIT } from '../_errors.ts';
import { formatArg, printReport, type OutputFormat } from '../_report.ts';
import { err, printable, style } from '../_output.ts';
import { progressLine } from '../_progress.ts';
import { requireRegistryRoot } from '../_registry-root.ts';

export default defineCommand({
  meta: { name: 'build', description: 'Build the static registry (index.json, manifests, files, archives, discovery indexes) without the site; a build cache in <root>/.cache/skilldex/ makes the next build redo only what changed' },
  args: {
    root: { type: 'string', description: 'Registry root (holds skills/)', default: '.' },
    out: { type: 'string', description: 'Output folder', default: 'dist' },
    lenient: { type: 'boolean', description: 'Import mode: publish every valid skill and list the rejected ones', default: false },
    format: formatArg,
  },
  async run({ args }) {
    const root = resolve(String(args.root));
    // A missing root or skills folder is a usage error; an empty skills folder builds an empty registry.
    const config = await requireRegistryRoot(root, String(args.root), 'build');
    const outDir = resolve(String(args.out));
    const misplaced = outputPlaceProblem(root, config.skillsDir, outDir);
    if (misplaced) throw new CliError('E_OUT_DIR', misplaced, { hint: 'pass another --out, such as dist (the default)', exitCode: EXIT.usage });
    if ((await stat(outDir).catch(() => undefined))?.isDirectory() === false) {
      throw new CliError('E_OUT_DIR', `${printable(String(args.out))} is a file, not a folder`, { hint: 'pass a folder for --out; it is created if it does not exist', exitCode: EXIT.usage });
    }
    const foreign = foreignOutputProblem(outDir);
    if (foreign) throw new CliError('E_OUT_DIR', printable(foreign), { hint: 'pass a new or empty folder for --out, or empty this one', exitCode: EXIT.usage });
    const progress = progressLine();
    let result;
    try {
      result = await buildRegistry({ root, config, outDir, lenient: args.lenient, onProgress: (p) => progress.update(p.phase, p.done, p.total) });
    } finally {
      progress.end();
    }
    await printReport({ diagnostics: result.diagnostics }, args.format as OutputFormat, { extra: { published: result.manifests.length, rejected: result.rejected } });
    if (args.format === 'human') {
      for (const r of result.rejected) err(`${style.yellow('rejected', process.stderr)} ${printable(r.dir)}: ${[...new Set(r.errors.map((e) => e.rule))].join(', ')}`);
      for (const n of result.notDiscoverable) err(`${style.dim('not in discovery indexes', process.stderr)} ${printable(n.name)}: ${printable(n.reason)}`);
      if (result.index) err(`published ${result.index.totalSkills} ${result.index.totalSkills === 1 ? 'skill' : 'skills'} to ${printable(String(args.out))}`);
      else err(`${style.red('nothing written', process.stderr)}: fix the errors above, or pass --lenient to publish the valid skills only`);
    }
    return result.ok || (args.lenient && result.index) ? EXIT.ok : EXIT.failure;
  },
});
