/**
 * A build worker (./read.ts runs it): the per-skill phase (./prepare.ts) for each request.
 */
import { serveRequests } from '../../core-node/worker-pool.ts';
import type { PrepareRequest, PreparedSkill } from './prepare.ts';

/**
 * The bytes with a buffer of their own. A small Buffer is a view into a larger one (a shared pool,
 * or the 64 kB zlib writes a gzip stream into), and posting a view copies its whole buffer: an
 * archive of 2 kB cost 64 kB and ~2 ms of postMessage. The owned copies are then posted as copies,
 * not transferred: for a skill's few small buffers, detaching and adopting each one cost five times
 * what copying its bytes did (300 skills: 419 ms against 78 ms).
 */
const own = (bytes: Uint8Array): Uint8Array => (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice());

serveRequests(
  () => import('./prepare.ts'),
  async ({ prepareSkill }, request: PrepareRequest): Promise<PreparedSkill> => {
    const prepared = await prepareSkill(request);
    for (const f of prepared.source.files) if (f.bytes) f.bytes = own(f.bytes);
    const packed = prepared.packed;
    if (packed) {
      packed.archive = own(packed.archive);
      if (packed.agent) packed.agent = { skillMd: own(packed.agent.skillMd), archive: own(packed.agent.archive) };
    }
    return prepared;
  },
);
