/**
 * The one worker pool (src/core-node/worker-pool.ts) with real worker threads: a request whose
 * handler throws, or whose worker dies, fails alone with a clear error; the other requests are
 * answered, nothing waits forever, and a closed pool refuses work.
 */
import { describe, expect, it } from 'vitest';
import { createWorkerPool, PoolUnavailableError } from '../../src/core-node/worker-pool.ts';

const WORKER = new URL('./_crashing-worker.ts', import.meta.url);

describe('worker pool', () => {
  it('answers every request with the data each worker started with, in any order of completion', async () => {
    const pool = createWorkerPool<number, number>(WORKER, { size: 2, data: { factor: 3 } });
    try {
      expect(await Promise.all(Array.from({ length: 20 }, (_, i) => pool.run(i)))).toEqual(Array.from({ length: 20 }, (_, i) => i * 3));
    } finally {
      await pool.close();
    }
  });

  it('fails only the request whose handler threw, or whose worker died, and goes on with the rest', async () => {
    const pool = createWorkerPool<number | 'throw' | 'crash', number>(WORKER, { size: 2, data: { factor: 2 } });
    try {
      const requests: (number | 'throw' | 'crash')[] = [1, 'crash', 2, 'throw', 3, 'crash', 'crash', 4, 5];
      const settled = await Promise.allSettled(requests.map((r) => pool.run(r)));
      const outcome = settled.map((s) => (s.status === 'fulfilled' ? s.value : `${(s.reason as Error).name}: ${(s.reason as Error).message}`));
      expect(outcome).toEqual([
        2,
        'WorkerStoppedError: the worker thread stopped (exit code 3)',
        4,
        'Error: the check threw',
        6,
        'WorkerStoppedError: the worker thread stopped (exit code 3)',
        'WorkerStoppedError: the worker thread stopped (exit code 3)',
        8,
        10,
      ]);
      expect(settled.filter((s) => s.status === 'rejected').map((s) => (s as PromiseRejectedResult).reason)).toSatisfy((reasons: unknown[]) =>
        reasons.every((r) => r instanceof Error && !(r instanceof PoolUnavailableError)),
      );
      // Workers that died were replaced: the pool still answers.
      expect(await pool.run(21)).toBe(42);
    } finally {
      await pool.close();
    }
  });

  it('answers the requests queued at a worker behind one that killed it, on the worker that replaces it', async () => {
    // One worker holding all four at once: the crash is the second, the two after it were posted
    // to the same thread and never started there.
    const pool = createWorkerPool<number | 'crash', number>(WORKER, { size: 1, depth: 4, data: { factor: 5 } });
    try {
      const settled = await Promise.allSettled([1, 'crash', 2, 3].map((r) => pool.run(r as number | 'crash')));
      expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).name))).toEqual([5, 'WorkerStoppedError', 10, 15]);
    } finally {
      await pool.close();
    }
  });

  it('rejects what is queued or running when it is closed, and refuses new work', async () => {
    const pool = createWorkerPool<number, number>(WORKER, { size: 1, data: { factor: 1 } });
    const settling = Promise.allSettled(Array.from({ length: 5 }, (_, i) => pool.run(i)));
    await pool.close();
    const settled = await settling;
    // The worker may have answered the first request before the pool closed; none is left hanging.
    expect(settled.filter((s) => s.status === 'rejected').length).toBeGreaterThanOrEqual(4);
    for (const s of settled) if (s.status === 'rejected') expect(s.reason).toBeInstanceOf(PoolUnavailableError);
    await expect(pool.run(1)).rejects.toBeInstanceOf(PoolUnavailableError);
  });
});
