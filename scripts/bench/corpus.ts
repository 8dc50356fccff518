/**
 * Corpus figures: `skilldex validate` and `validate --no-scan` over ~2,000 skills shaped like
 * public collections (scripts/generate-corpus.ts), beside the reference validator `skills-ref`
 * (one Node process over every skill, through its library; scripts/bench/skills-ref-run.ts) and
 * the floor of reading and hashing every file of the corpus once. Each is a fresh process, timed
 * from spawn to exit, so start-up counts for every contender; runs are interleaved. Skilldex runs
 * as installed from npm (the CLI bundle), as `skills-ref` does; `--no-scan` is timed from the
 * checkout's TypeScript sources too, which a contributor runs.
 */
import { join } from 'node:path';
import { child, fmtS, installedCli, median, node, projectRoot, round, runChild, setAside, type BenchModule } from './harness.ts';

export const CORPUS_SKILLS = 2000;
const CORPUS_SEED = 20261123;

export interface CorpusFigures {
  skills: number;
  files: number;
  bytes: number;
  runs: number;
  floorMs: number;
  skillsRefMs: number;
  noScanMs: number;
  scanMs: number;
  /** `validate --no-scan` run from the checkout's sources. */
  checkoutNoScanMs: number;
  /** validate --no-scan / skills-ref (goal: below 1). */
  noScanToSkillsRef: number;
  /** validate / skills-ref (goal: at most 2). */
  scanToSkillsRef: number;
  samples: Record<'floor' | 'skillsRef' | 'noScan' | 'scan' | 'checkoutNoScan', number[]>;
}

export const corpus: BenchModule = {
  name: 'corpus',
  async once({ runs, quick, work, log }): Promise<CorpusFigures> {
    const count = quick ? 200 : CORPUS_SKILLS;
    // Imported here, not at the top: every bench child loads this module, and the generator brings yaml.
    const { generateCorpus } = await import('../generate-corpus.ts');
    setAside(work, join(work, `corpus-${count}`));
    const generated = generateCorpus({ count, seed: CORPUS_SEED, out: join(work, `corpus-${count}`) });
    log(`corpus: ${generated.skillDirs.length} skills, ${generated.fileCount} files (${(generated.bytes / 1e6).toFixed(1)} MB)`);
    const skillsDir = join(generated.root, 'skills');
    const installed = installedCli(work);
    const checkout = join(projectRoot, 'bin', 'skilldex.mjs');
    const skilldex = (...args: string[]) => runChild<undefined>([node, installed, 'validate', ...args, skillsDir]);
    const fromCheckout = () => runChild<undefined>([node, checkout, 'validate', '--no-scan', skillsDir]);
    // Untimed: fills Node's compile cache for each CLI, as every run after a user's first finds it.
    await skilldex('--no-scan');
    await fromCheckout();
    const samples: CorpusFigures['samples'] = { floor: [], skillsRef: [], noScan: [], scan: [], checkoutNoScan: [] };
    for (let r = 0; r < runs; r++) {
      samples.floor.push((await child('hash-floor', { root: generated.root })).wallMs);
      const ref = await runChild<{ skills: number; invalid: number; errors: string[] }>([node, join(projectRoot, 'scripts', 'bench', 'skills-ref-run.ts'), generated.root]);
      if (ref.result.skills !== generated.skillDirs.length || ref.result.invalid > 0) throw new Error(`skills-ref did not accept the corpus: ${JSON.stringify(ref.result)}`);
      samples.skillsRef.push(ref.wallMs);
      samples.noScan.push((await skilldex('--no-scan')).wallMs);
      samples.scan.push((await skilldex()).wallMs);
      samples.checkoutNoScan.push((await fromCheckout()).wallMs);
      log(`  corpus run ${r + 1}: floor ${fmtS(samples.floor.at(-1))}, skills-ref ${fmtS(samples.skillsRef.at(-1))}, validate --no-scan ${fmtS(samples.noScan.at(-1))}, validate ${fmtS(samples.scan.at(-1))}, checkout's validate --no-scan ${fmtS(samples.checkoutNoScan.at(-1))}`);
    }
    const m = (xs: number[]) => round(median(xs), 0);
    const skillsRefMs = m(samples.skillsRef);
    return {
      skills: generated.skillDirs.length,
      files: generated.fileCount,
      bytes: generated.bytes,
      runs,
      floorMs: m(samples.floor),
      skillsRefMs,
      noScanMs: m(samples.noScan),
      scanMs: m(samples.scan),
      checkoutNoScanMs: m(samples.checkoutNoScan),
      noScanToSkillsRef: round(m(samples.noScan) / skillsRefMs, 2),
      scanToSkillsRef: round(m(samples.scan) / skillsRefMs, 2),
      samples: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, v.map((x) => round(x, 0))])) as CorpusFigures['samples'],
    };
  },
  renderOnce(f: CorpusFigures) {
    const corpusLabel = `${f.skills.toLocaleString('en-US')}-skill corpus (${f.files.toLocaleString('en-US')} files, ${(f.bytes / 1e6).toFixed(1)} MB)`;
    return [
      `| ${corpusLabel}: \`skills-ref\` validate, one process | ${fmtS(f.skillsRefMs)} | ${fmtS(f.floorMs)} (read + sha256 every file) |`,
      `| ${corpusLabel}: \`skilldex validate --no-scan\`, installed package | ${fmtS(f.noScanMs)} (${f.noScanToSkillsRef}× skills-ref) | ${fmtS(f.floorMs)} |`,
      `| ${corpusLabel}: \`skilldex validate\` (with the security scan), installed package | ${fmtS(f.scanMs)} (${f.scanToSkillsRef}× skills-ref) | ${fmtS(f.floorMs)} |`,
      `| ${corpusLabel}: \`skilldex validate --no-scan\`, checkout (TypeScript sources) | ${fmtS(f.checkoutNoScanMs)} (${round(f.checkoutNoScanMs / f.skillsRefMs, 2)}× skills-ref) | ${fmtS(f.floorMs)} |`,
    ];
  },
};
