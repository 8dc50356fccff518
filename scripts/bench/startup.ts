/**
 * Start-up figures: `skilldex --version` and `skilldex validate` on one skill, each the median
 * of several fresh processes, beside the floor of starting the same Node with nothing to do.
 * One untimed run first fills Node's compile cache, as any second use of the CLI finds it.
 *
 * Two forms of the CLI: the checkout's (TypeScript sources through type stripping, what a
 * contributor runs) and the installed package's (what `npm install skilldex` gives: the CLI
 * bundled by `npm run build:package`), laid out in the scratch folder as the tarball holds it.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fmtMs, installedCli, median, node, projectRoot, round, type BenchModule } from './harness.ts';

const bin = join(projectRoot, 'bin', 'skilldex.mjs');
const ONE_SKILL = join(projectRoot, 'skills', 'code', 'code-review');

function timeRuns(argv: string[], runs: number): number[] {
  const out: number[] = [];
  for (let i = -1; i < runs; i++) {
    const start = performance.now();
    const done = spawnSync(node, argv, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    const ms = performance.now() - start;
    if (done.status !== 0) throw new Error(`${argv.join(' ')} exited ${done.status}: ${String(done.stderr).slice(-2000)}`);
    if (i >= 0) out.push(ms);
  }
  return out;
}

export interface StartupFigures {
  runs: number;
  floorMs: number;
  versionMs: number;
  validateOneMs: number;
  /** The same two commands, run by the installed package's CLI. */
  installed: { versionMs: number; validateOneMs: number };
  samples: { floor: number[]; version: number[]; validateOne: number[]; installedVersion: number[]; installedValidateOne: number[] };
}

export const startup: BenchModule = {
  name: 'startup',
  async once({ runs, quick, work, log }): Promise<StartupFigures> {
    const n = quick ? 5 : Math.max(7, runs);
    const installed = installedCli(work);
    const samples = { floor: [] as number[], version: [] as number[], validateOne: [] as number[], installedVersion: [] as number[], installedValidateOne: [] as number[] };
    // Interleaved, so load from other work on the machine falls on all three alike.
    for (let r = 0; r < n; r++) {
      samples.floor.push(...timeRuns(['-e', ''], 1));
      samples.version.push(...timeRuns([bin, '--version'], 1));
      samples.validateOne.push(...timeRuns([bin, 'validate', ONE_SKILL], 1));
      samples.installedVersion.push(...timeRuns([installed, '--version'], 1));
      samples.installedValidateOne.push(...timeRuns([installed, 'validate', ONE_SKILL], 1));
    }
    const ms = (xs: number[]) => round(median(xs), 0);
    const rounded = (xs: number[]) => xs.map((x) => round(x, 0));
    const figures = {
      runs: n,
      floorMs: ms(samples.floor),
      versionMs: ms(samples.version),
      validateOneMs: ms(samples.validateOne),
      installed: { versionMs: ms(samples.installedVersion), validateOneMs: ms(samples.installedValidateOne) },
      samples: { floor: rounded(samples.floor), version: rounded(samples.version), validateOne: rounded(samples.validateOne), installedVersion: rounded(samples.installedVersion), installedValidateOne: rounded(samples.installedValidateOne) },
    };
    log(`start-up: node ${figures.floorMs} ms; checkout: --version ${figures.versionMs} ms, validate one skill ${figures.validateOneMs} ms; installed: --version ${figures.installed.versionMs} ms, validate one skill ${figures.installed.validateOneMs} ms (median of ${n})`);
    return figures;
  },
  renderOnce(f: StartupFigures) {
    return [
      `| \`skilldex --version\`, installed package / checkout | ${fmtMs(f.installed.versionMs)} / ${fmtMs(f.versionMs)} | ${fmtMs(f.floorMs)} (\`node -e ''\`) |`,
      `| \`skilldex validate\` one skill (skills/code/code-review), installed package / checkout | ${fmtMs(f.installed.validateOneMs)} / ${fmtMs(f.validateOneMs)} | ${fmtMs(f.floorMs)} (\`node -e ''\`) |`,
    ];
  },
};
