/**
 * The thread that walks the skills folder for the last build's record (./last-build.ts) while the
 * build it keys writes the registry on the main thread.
 */
import { serveRequests } from '../core-node/worker-pool.ts';
import type { WalkRequest } from './last-build.ts';

serveRequests(
  () => import('./last-build.ts'),
  ({ walkInputs }, request: WalkRequest) => walkInputs(request),
);
