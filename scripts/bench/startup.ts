/**
 * Start-up figures: `skilldex --version` and `skilldex validate` on one skill, each the median
 * of several fresh processes, beside the floor of starting the same Node with nothing to do.
 * One untimed run first fills Node's compile cache, as any second use of the CLI finds it.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fmtMs, median, node, projectRoot, round, type BenchModule } from './harness.ts';

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
  samples: { floor: number[]; version: number[]; validateOne: number[] };
}

export const startup: BenchModule = {
  name: 'startup',
  async once({ runs, quick, log }): Promise<StartupFigures> {
    const n = quick ? 5 : Math.max(7, runs);
    const samples = { floor: [] as number[], version: [] as number[], validateOne: [] as number[] };
    // Interleaved, so load from other work on the machine falls on all three alike.
    for (let r = 0; r < n; r++) {
      samples.floor.push(...timeRuns(['-e', ''], 1));
      samples.version.push(...timeRuns([bin, '--version'], 1));
      samples.validateOne.push(...timeRuns([bin, 'validate', ONE_SKILL], 1));
    }
    const figures = {
      runs: n,
      floorMs: round(median(samples.floor), 0),
      versionMs: round(median(samples.version), 0),
      validateOneMs: round(median(samples.validateOne), 0),
      samples: { floor: samples.floor.map((x) => round(x, 0)), version: samples.version.map((x) => round(x, 0)), validateOne: samples.validateOne.map((x) => round(x, 0)) },
    };
    log(`start-up: node ${figures.floorMs} ms, --version ${figures.versionMs} ms, validate one skill ${figures.validateOneMs} ms (median of ${n})`);
    return figures;
  },
  renderOnce(f: StartupFigures) {
    return [
      `| \`skilldex --version\` | ${fmtMs(f.versionMs)} | ${fmtMs(f.floorMs)} (\`node -e ''\`) |`,
      `| \`skilldex validate\` one skill (skills/code/code-review) | ${fmtMs(f.validateOneMs)} | ${fmtMs(f.floorMs)} (\`node -e ''\`) |`,
    ];
  },
};
