import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defineCommand } from 'citty';
import { lastBuild, recordLastBuild, type BuildSummary } from '../../pipeline/last-build.ts';
import { siteUrlOption } from '../_site-url.ts';
import { CliError, EXIT } from '../_errors.ts';
import { formatArg, printReport, type OutputFormat } from '../_report.ts';
import { err, printable, style } from '../_output.ts';
import { progressLine } from '../_progress.ts';

export default defineCommand({
  meta: { name: 'build', description: 'Build the static registry (index.json, manifests, files, archives, discovery indexes) without the site; a build cache in <root>/.cache/skilldex/ makes the next build redo only what changed' },
  args: {
    root: { type: 'string', description: 'Registry root (holds skills/)', default: '.' },
    out: { type: 'string', description: 'Output folder', default: 'dist' },
    lenient: { type: 'boolean', description: 'Import mode: publish every valid skill and list the rejected ones', default: false },
    'site-url': { type: 'string', description: "Where the registry will be served, for its absolute links (index.json's registry.url, the run command in generated SKILL.md files); overrides skilldex.config.json siteUrl (default: $SKILLDEX_SITE_URL)", valueHint: 'url' },
    format: formatArg,
  },
  async run({ args }) {
    const root = resolve(String(args.root));
    const outDir = resolve(String(args.out));
    // As the site build takes it: the flag, else the environment, else the config's siteUrl.
    const siteUrl = siteUrlOption((args['site-url'] as string | undefined) ?? (process.env.SKILLDEX_SITE_URL || undefined));
    const settings = { root, outDir, lenient: args.lenient, scan: true, ...(siteUrl ? { siteUrl } : {}) };
    // Nothing changed since the last build: its answer stands, without loading the pipeline
    // (most of a no-op's time) or checking what that build checked (src/pipeline/last-build.ts).
    const last = lastBuild(settings);
    if ('summary' in last) return report(last.summary, { written: true, unchanged: true }, String(args.out), args.format as OutputFormat, args.lenient);

    const [{ buildRegistry, foreignOutputProblem, OUTPUT_PROOF, outputPlaceProblem }, { requireRegistryRoot }] = await Promise.all([import('../../pipeline/index.ts'), import('../_registry-root.ts')]);
    // A missing root or skills folder is a usage error; an empty skills folder builds an empty registry.
    const config = { ...(await requireRegistryRoot(root, String(args.root), 'build')), ...(siteUrl ? { siteUrl } : {}) };
    const misplaced = outputPlaceProblem(root, config.skillsDir, outDir);
    if (misplaced) throw new CliError('E_OUT_DIR', misplaced, { hint: 'pass another --out, such as dist (the default)', exitCode: EXIT.usage });
    if ((await stat(outDir).catch(() => undefined))?.isDirectory() === false) {
      throw new CliError('E_OUT_DIR', `${printable(String(args.out))} is a file, not a folder`, { hint: 'pass a folder for --out; it is created if it does not exist', exitCode: EXIT.usage });
    }
    const foreign = foreignOutputProblem(outDir);
    if (foreign) throw new CliError('E_OUT_DIR', printable(foreign), { hint: 'pass a new or empty folder for --out, or empty this one', exitCode: EXIT.usage });
    // The key of the input, for the record: a walk that lists every folder (no record yet) runs
    // on a thread of its own once the skills are read, while the build writes on this one. A file
    // changed meanwhile changes the next key or leaves this build unrecorded (src/pipeline/last-build.ts).
    let inputs: ReturnType<typeof last.inputs> | undefined;
    const walk = () => (inputs ??= last.inputs(config.skillsDir));
    const progress = progressLine();
    let result;
    try {
      result = await buildRegistry({ root, config, outDir, lenient: args.lenient, onProgress: (p) => progress.update(p.phase, p.done, p.total), onSkillsRead: walk });
    } finally {
      progress.end();
    }
    const summary: BuildSummary = { ok: result.ok, published: result.manifests.length, diagnostics: result.diagnostics, rejected: result.rejected, notDiscoverable: result.notDiscoverable };
    // A build that could not read git's history in full has output a readable history would change.
    if (result.index) recordLastBuild(settings, result.historyRead ? await walk() : undefined, OUTPUT_PROOF, summary);
    return report(summary, { written: result.index !== undefined, unchanged: false }, String(args.out), args.format as OutputFormat, args.lenient);
  },
});

/** Prints a build's report (the last build's, when nothing changed since) and returns the exit code. */
async function report(summary: BuildSummary, { written, unchanged }: { written: boolean; unchanged: boolean }, out: string, format: OutputFormat, lenient: boolean): Promise<number> {
  await printReport({ diagnostics: summary.diagnostics }, format, { extra: { published: summary.published, rejected: summary.rejected, unchanged } });
  if (format === 'human') {
    for (const r of summary.rejected) err(`${style.yellow('rejected', process.stderr)} ${printable(r.dir)}: ${printable([...new Set(r.errors.map((e) => e.rule))].join(', '))}`);
    for (const n of summary.notDiscoverable) err(`${style.dim('not in discovery indexes', process.stderr)} ${printable(n.name)}: ${printable(n.reason)}`);
    const skills = `${summary.published} ${summary.published === 1 ? 'skill' : 'skills'}`;
    if (unchanged) err(`nothing changed since the last build: ${printable(out)} holds its ${skills}`);
    else if (written) err(`published ${skills} to ${printable(out)}`);
    else err(`${style.red('nothing written', process.stderr)}: fix the errors above, or pass --lenient to publish the valid skills only`);
  }
  return summary.ok || (lenient && written) ? EXIT.ok : EXIT.failure;
}
