/**
 * A build worker (src/scanner/pool.ts runs it): the per-skill phase (./prepare.ts) for each
 * request. The files' bytes and archives move to the main thread instead of being copied.
 */
import { serveRequests, Transferring } from '../../core-node/worker-pool.ts';
import type { PrepareRequest, PreparedSkill } from './prepare.ts';

/**
 * The bytes with a buffer of their own: a small Buffer is a view into a shared pool, which can
 * be neither transferred nor copied alone.
 */
const own = (bytes: Uint8Array): Uint8Array => (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice());

serveRequests(
  () => import('./prepare.ts'),
  async ({ prepareSkill }, request: PrepareRequest) => {
    const prepared = await prepareSkill(request);
    for (const f of prepared.source.files) if (f.bytes) f.bytes = own(f.bytes);
    const packed = prepared.packed;
    if (packed) {
      packed.archive = own(packed.archive);
      if (packed.agent) packed.agent = { skillMd: own(packed.agent.skillMd), archive: own(packed.agent.archive) };
    }
    const buffers = [...prepared.source.files.flatMap((f) => (f.bytes ? [f.bytes] : [])), ...(packed ? [packed.archive, ...(packed.agent ? [packed.agent.skillMd, packed.agent.archive] : [])] : [])].map((b) => b.buffer as ArrayBuffer);
    return new Transferring<PreparedSkill>(prepared, [...new Set(buffers)]);
  },
);
