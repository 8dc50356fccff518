/**
 * Scanning on worker threads: the scanner is pure and CPU-bound (dozens of regular expressions
 * over every text file), so a large build or `skilldex scan` over many skills runs `scanSkill`
 * on the generic pool (src/core-node/worker-pool.ts) beside the main thread. Results are
 * identical to calling `scanSkill` directly: the workers run that very function.
 */
import { createWorkerPool, defaultPoolSize } from '../core-node/worker-pool.ts';
import { siblingModule } from '../core/module-file.ts';
import type { ScanResult } from '../core/schemas/scan.ts';
import type { ScanInput, ScanOptions } from './scan.ts';

/** A pool of scanners: `scanSkill` on worker threads. */
export interface ScanPool {
  /** Scans one skill on the next free worker. */
  scan(input: ScanInput, options?: ScanOptions): Promise<ScanResult>;
  /** Stops the workers; pending scans are rejected. */
  close(): Promise<void>;
}

/** What a scan worker receives (src/scanner/worker.ts). */
export interface ScanRequest {
  input: ScanInput;
  options: ScanOptions;
}

export function createScanPool(size = defaultPoolSize()): ScanPool {
  const pool = createWorkerPool<ScanRequest, ScanResult>(siblingModule(import.meta.url, './worker'), { size });
  return {
    scan: (input, options = {}) => pool.run({ input: cloneable(input), options }),
    close: () => pool.close(),
  };
}

/**
 * Posting a typed array copies its whole underlying buffer; a file read into a slice of a shared
 * pool (small Buffers are) would drag the pool along, so such views are copied to their own bytes.
 */
export function cloneable(input: ScanInput): ScanInput {
  return {
    ...input,
    files: input.files.map((f) =>
      f.bytes.byteOffset === 0 && f.bytes.byteLength === f.bytes.buffer.byteLength ? { path: f.path, bytes: f.bytes } : { path: f.path, bytes: f.bytes.slice() },
    ),
  };
}
