import { describe, expect, it } from 'vitest';
import { RunLimit } from '../../src/mcp/run-limit.ts';

/** The bookkeeping of run slots on its own: shares, refusals, and slots given back once. */
describe('RunLimit', () => {
  it('gives each session half of the cap, rounded up, unless told otherwise, and never more than the cap', () => {
    expect([new RunLimit(), new RunLimit({ maxRuns: 3 }), new RunLimit({ maxRuns: 1 }), new RunLimit({ maxRuns: 4, maxRunsPerSession: 9 })].map((limit) => [limit.maxRuns, limit.maxRunsPerSession])).toEqual([
      [8, 4],
      [3, 2],
      [1, 1],
      [4, 4],
    ]);
  });

  it('refuses a session past its share, then the server past its cap, naming which', () => {
    const limit = new RunLimit({ maxRuns: 3, maxRunsPerSession: 2 });
    const [a, b] = [limit.session(), limit.session()];
    const taken = [a.acquire(), a.acquire(), a.acquire(), b.acquire(), b.acquire()];
    expect(taken.map((slot) => ('refused' in slot ? slot.refused.split(',')[0] : 'ok'))).toEqual(['ok', 'ok', 'this session already runs 2 skills', 'ok', 'the server already runs 3 skills']);
    expect([limit.inFlight, a.inFlight, b.inFlight]).toEqual([3, 2, 1]);
  });

  it('gives a slot back once, however often it is released', () => {
    const limit = new RunLimit({ maxRuns: 2 });
    const session = limit.session(false);
    const slot = session.acquire();
    if ('refused' in slot) throw new Error(slot.refused);
    session.acquire();
    slot.release();
    slot.release();
    expect([limit.inFlight, session.inFlight]).toEqual([1, 1]);
  });

  it('lets the one session of stdio use the whole cap, and tells it about the server', () => {
    const session = new RunLimit({ maxRuns: 2 }).session(false);
    const taken = [session.acquire(), session.acquire(), session.acquire()];
    expect(taken.map((slot) => ('refused' in slot ? slot.refused : 'ok'))).toEqual(['ok', 'ok', expect.stringMatching(/^the server already runs 2 skills, .*--max-runs \[RATE_LIMITED\]$/)]);
  });

  it('refuses a cap that is not a whole number from 1 to 1024', () => {
    for (const maxRuns of [0, -1, 1.5, 2000]) expect(() => new RunLimit({ maxRuns }), String(maxRuns)).toThrow();
  });
});
