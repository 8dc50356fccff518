/** A scan worker (see pool.ts): runs `scanSkill` on each request and answers with the result. */
import { serveRequests } from '../core-node/worker-pool.ts';
import type { ScanRequest } from './pool.ts';

serveRequests(
  () => import('./scan.ts'),
  ({ scanSkill }, { input, options }: ScanRequest) => scanSkill(input, options),
);
