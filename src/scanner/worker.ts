/** A scan worker (see pool.ts): runs `scanSkill` on each request and answers with the result. */
import module from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type { ScanReply, ScanRequest } from './pool.ts';

const port = parentPort;
if (!port) throw new Error('src/scanner/worker.ts runs only as a worker thread');

// Node's compile cache is per thread: without it every worker type-strips and compiles the
// scanner's modules again (~100 ms of CPU each, on every build). The pool passes the main
// thread's cache folder; the scanner is imported only after it is enabled.
const cacheDir = (workerData as { compileCacheDir?: string } | undefined)?.compileCacheDir;
if (cacheDir) module.enableCompileCache?.(cacheDir);
const loading = import('./scan.ts');

port.on('message', async ({ id, input, options }: ScanRequest) => {
  let reply: ScanReply;
  try {
    const { scanSkill } = await loading;
    reply = { id, result: scanSkill(input, options) };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
