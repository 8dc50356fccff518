/**
 * What a client gets for a line on stdio that is not a JSON-RPC message. The SDK's transport drops
 * such a line without a word; the server answers a line that is not JSON with a parse error when
 * its request id can be read, says on stderr what it ignored, and keeps serving. Raw lines, since
 * the SDK's client cannot send malformed ones.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, REPO } from '../helpers/cli.ts';
import { buildExamples, tempDir } from '../runtime/_registries.ts';

let registry: string;
let cacheDir: string;

beforeAll(async () => {
  registry = await buildExamples();
  cacheDir = await tempDir('mcp-malformed-cache');
}, 120_000);

/** Writes `lines` to a fresh `skilldex mcp`, then a ping; resolves with stdout's messages once the ping is answered. */
async function session(lines: readonly string[]): Promise<{ replies: unknown[]; stderr: string }> {
  const child = spawn(process.execPath, [CLI, 'mcp', '--registry', registry, '--cache-dir', cacheDir, '--poll', '0'], { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const replies: unknown[] = [];
  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer to the ping: ${stderr}`)), 30_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as { id?: unknown };
      replies.push(message);
      if (message.id === 'last') {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  for (const line of [...lines, '{"jsonrpc":"2.0","id":"last","method":"ping"}']) child.stdin.write(`${line}\n`);
  try {
    await done;
  } finally {
    child.stdin.end();
    child.kill();
  }
  return { replies, stderr };
}

describe('skilldex mcp on stdio, given lines that are not JSON-RPC messages', () => {
  it('answers a line that is not JSON with a parse error for its id, and keeps serving', async () => {
    const { replies, stderr } = await session(['{"jsonrpc":"2.0","id":7,', '', '{"jsonrpc":"2.0","id":8,"method":"ping"}']);
    expect(replies).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: -32700, message: expect.stringContaining('not valid JSON') } },
      { jsonrpc: '2.0', id: 8, result: {} },
      { jsonrpc: '2.0', id: 'last', result: {} },
    ]);
    expect(stderr).toContain('skilldex mcp: the message is not valid JSON');
  });

  it('answers with a null id where no id can be read, refuses a batch, and says on stderr what it ignored', async () => {
    const { replies, stderr } = await session(['not json at all', '[{"jsonrpc":"2.0","id":10,"method":"ping"}]', '{}']);
    expect(replies).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringContaining('not valid JSON') } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('batch') } },
      { jsonrpc: '2.0', id: 'last', result: {} },
    ]);
    expect(stderr).toContain('skilldex mcp: the message is not valid JSON');
    expect(stderr).toContain('skilldex mcp: ignored a message that is JSON but not a JSON-RPC message');
  });

  it('answers a request the SDK cannot read (params not an object, a progress token of another type, no method, a fractional id) instead of leaving its client waiting', async () => {
    const { replies, stderr } = await session([
      '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":"x"}',
      '{"jsonrpc":"2.0","id":"p","method":"tools/call","params":{"name":"list_skills","_meta":{"progressToken":{"a":1}}}}',
      '{"jsonrpc":"2.0","id":8}',
      '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    ]);
    const invalid = (id: unknown, what: string) => ({ jsonrpc: '2.0', id, error: { code: -32600, message: expect.stringMatching(new RegExp(`^not a valid JSON-RPC request \\(${what}`)) } });
    expect(replies).toEqual([
      invalid(9, 'params: Invalid input: expected object'),
      invalid('p', 'params\\._meta\\.progressToken: '),
      invalid(8, 'method: '),
      invalid(null, 'id: must be a string or an integer'),
      { jsonrpc: '2.0', id: 'last', result: {} },
    ]);
    expect(stderr).toContain('skilldex mcp: not a valid JSON-RPC request (params: ');
  });
});
