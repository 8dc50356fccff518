/** A scan worker (see pool.ts): runs `scanSkill` on each request and answers with the result. */
import { parentPort } from 'node:worker_threads';
import type { ScanReply, ScanRequest } from './pool.ts';
import { scanSkill } from './scan.ts';

const port = parentPort;
if (!port) throw new Error('src/scanner/worker.ts runs only as a worker thread');

port.on('message', ({ id, input, options }: ScanRequest) => {
  let reply: ScanReply;
  try {
    reply = { id, result: scanSkill(input, options) };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
