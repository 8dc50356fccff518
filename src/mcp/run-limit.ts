import { z } from 'zod';

/**
 * How many skill runs the MCP server keeps in flight. Each run is a sandbox and at least one
 * interpreter process, held for up to the skill's deadline (ten minutes at most): with no cap,
 * 150 `tools/call` requests sent at once by one client ran about 270 processes.
 */
export const RunLimitOptions = z.object({
  /** Runs in flight across the whole server, every session together. */
  maxRuns: z.number().int().min(1).max(1024).default(8),
  /**
   * Runs in flight for one session (one HTTP client). Over stdio there is one session, and this
   * is `maxRuns`. Without it, half of `maxRuns`, rounded up: no one HTTP client can take every
   * slot and leave the others nothing.
   */
  maxRunsPerSession: z.number().int().min(1).max(1024).optional(),
});
export type RunLimitOptions = z.input<typeof RunLimitOptions>;

/** Gives the slot back; calling it again does nothing. */
export type ReleaseRun = () => void;

/**
 * Why a run was refused, as an agent reads it: which limit, and how the server's operator
 * raises it. The agent can retry once one of its own runs has finished.
 */
export type RunRefusal = { refused: string };

/**
 * The run slots of one server (shared by every session of it): a call past a limit is refused at
 * once instead of queued. A queued call would spend the client's own request timeout (the SDK's
 * is 60 s) waiting, and would still start after its client had given up on it.
 *
 * Pure bookkeeping, no I/O, so the rule can be tested without starting anything.
 *
 * @example
 * const limit = new RunLimit({ maxRuns: 8 });
 * const session = limit.session();
 * const slot = session.acquire();
 * if ('refused' in slot) return toolError(slot.refused);
 * try { … } finally { slot.release(); }
 */
export class RunLimit {
  readonly maxRuns: number;
  readonly maxRunsPerSession: number;
  #inFlight = 0;

  constructor(options: RunLimitOptions = {}) {
    const parsed = RunLimitOptions.parse(options);
    this.maxRuns = parsed.maxRuns;
    this.maxRunsPerSession = Math.min(parsed.maxRuns, parsed.maxRunsPerSession ?? Math.ceil(parsed.maxRuns / 2));
  }

  /** Runs in flight now, across every session. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /**
   * The slots of one session. `perSession: false` (stdio, one client) lets it use every slot of
   * the server.
   */
  session(perSession = true): { acquire(): { release: ReleaseRun } | RunRefusal; readonly inFlight: number } {
    let mine = 0;
    // Over stdio the one session is the whole server, and is told about the server's limit.
    const sessionMax = perSession ? this.maxRunsPerSession : Number.POSITIVE_INFINITY;
    return {
      get inFlight() {
        return mine;
      },
      acquire: () => {
        if (mine >= sessionMax) {
          return { refused: `this session already runs ${mine} skills, the most one session may run at once; wait for one to finish, or ask the server's operator to raise --max-runs-per-session [RATE_LIMITED]` };
        }
        if (this.#inFlight >= this.maxRuns) {
          return { refused: `the server already runs ${this.#inFlight} skills, the most it runs at once; wait for one to finish and call again, or ask the server's operator to raise --max-runs [RATE_LIMITED]` };
        }
        mine += 1;
        this.#inFlight += 1;
        let released = false;
        return {
          release: () => {
            if (released) return;
            released = true;
            mine -= 1;
            this.#inFlight -= 1;
          },
        };
      },
    };
  }
}
