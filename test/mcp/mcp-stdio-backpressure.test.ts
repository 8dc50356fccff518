/**
 * A stdio client that sends requests and does not read the answers: the server must stop reading
 * its requests rather than keep every answer in memory (4 GB in 20 s before), and answer them all
 * once the client reads again. The real CLI process, a real pipe.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, REPO } from '../helpers/cli.ts';
import { buildExamples, tempDir } from '../runtime/_registries.ts';

let registry: string;
let cacheDir: string;

beforeAll(async () => {
  registry = await buildExamples();
  cacheDir = await tempDir('mcp-backpressure-cache');
}, 120_000);

const rssMb = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

describe('skilldex mcp on stdio, given a client that does not read its answers', () => {
  it('stops reading requests while answers pile up, and answers every one once the client reads', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp', '--registry', registry, '--cache-dir', cacheDir, '--poll', '0'], { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      await expect.poll(() => stderr, { timeout: 30_000 }).toContain('MCP server on stdio');
      child.stdout.pause();
      // Each answer lists all 20 skills (~60 KB): 3,000 of them are ~180 MB.
      const requests = 3000;
      for (let id = 1; id <= requests; id++) child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_skills' } })}\n`);
      // Before, the server read all of them at once and held every answer; now most stay unsent here.
      const flushed = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 5000);
        child.stdin.once('drain', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      expect(flushed).toBe(false);
      expect(rssMb(child.pid as number)).toBeLessThan(400);

      const answered = new Set<number>();
      const all = new Promise<void>((resolve) => {
        createInterface({ input: child.stdout }).on('line', (line) => {
          const id = Number(/"id":(\d+)\}$/.exec(line)?.[1]);
          answered.add(id);
          if (answered.size === requests) resolve();
        });
      });
      child.stdout.resume();
      await all;
      expect([...answered].every((id) => id >= 1 && id <= requests)).toBe(true);
      expect(stderr).not.toMatch(/MaxListenersExceededWarning|\n\s+at /);
    } finally {
      child.kill();
    }
  }, 120_000);
});
