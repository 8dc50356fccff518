/**
 * A worker module for the pool's test: answers a number with its double, throws on 'throw' and
 * ends its thread on 'crash', as a worker that runs out of memory or hits a fatal error would.
 */
import { serveRequests } from '../../src/core-node/worker-pool.ts';

serveRequests(
  async (data: { factor: number }) => data,
  ({ factor }, request: number | 'throw' | 'crash') => {
    if (request === 'throw') throw new Error('the check threw');
    if (request === 'crash') process.exit(3);
    return request * factor;
  },
);
