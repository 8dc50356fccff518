import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryKeyValueStore, memoryStore } from '../../src/runtime/context-services.ts';
import { MAX_LINE_BYTES, MAX_REQUESTS, serveContextChannel } from '../../src/runtime/node/service-channel.ts';
import { tempDir } from './_registries.ts';

/**
 * The runner's end of the service channel against hostile input, over a real Unix socket: what a
 * skill writes on fd 3 is untrusted, so bad lines get errors, oversized or endless input closes
 * the channel, and nothing reaches a service that is not on the table.
 */
let server: Server | undefined;
afterEach(() => server?.close());

async function channel(): Promise<{ client: Socket; lines: () => Promise<Record<string, any>[]>; closed: Promise<void> }> {
  const path = join(await tempDir('channel'), 's.sock');
  const services = { memory: memoryStore(), session: memoryKeyValueStore(), scratch: memoryKeyValueStore() };
  server = createServer((socket) => serveContextChannel(socket, services));
  await new Promise<void>((resolve) => server!.listen(path, resolve));
  const client = connect(path);
  let text = '';
  client.setEncoding('utf8');
  client.on('data', (chunk: string) => void (text += chunk));
  const closed = new Promise<void>((resolve) => client.on('close', () => resolve()));
  client.on('error', () => {});
  const lines = async () => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    return text.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
  };
  return { client, lines, closed };
}

describe('the service channel', () => {
  it('answers in request order and refuses bad JSON, unknown methods and bad arguments with codes', async () => {
    const { client, lines } = await channel();
    client.write('{"id": 1, "service": "scratch", "method": "set", "args": ["k", {"v": 1}]}\n');
    client.write('{"id": 2, "service": "scratch", "method": "get", "args": ["k"]}\n');
    client.write('not json\n');
    client.write('{"id": 3, "service": "memory", "method": "constructor", "args": []}\n');
    client.write('{"id": 4, "service": "__proto__", "method": "get", "args": ["k"]}\n');
    client.write('{"id": 5, "service": "memory", "method": "search", "args": ["q", 1000]}\n');
    client.write('{"id": 6, "service": "memory", "method": "write", "args": [{"content": "x", "type": "gossip"}]}\n');
    const replies = await lines();
    expect(replies.slice(0, 2)).toEqual([{ id: 1, ok: true, value: null }, { id: 2, ok: true, value: { v: 1 } }]);
    expect(replies[2]).toMatchObject({ id: null, ok: false, error: { code: 'INVALID_JSON' } });
    for (const reply of replies.slice(3)) expect(reply).toMatchObject({ ok: false, error: { code: 'INVALID_PARAM' } });
    expect(replies.map((r) => r.id)).toEqual([1, 2, null, 3, 4, 5, 6]);
    client.destroy();
  });

  it.each([['without', ''], ['with', '\n']])(`closes the channel on a line longer than ${MAX_LINE_BYTES} bytes, %s its newline`, async (_label, end) => {
    const { client, lines, closed } = await channel();
    client.write(`{"id": 1, "service": "scratch", "method": "keys", "args": []}\n${'x'.repeat(MAX_LINE_BYTES + 10)}${end}`);
    await closed;
    expect(await lines()).toEqual([{ id: 1, ok: true, value: [] }, expect.objectContaining({ ok: false, error: expect.objectContaining({ message: expect.stringContaining('longer than') }) })]);
  });

  it(`closes the channel after ${MAX_REQUESTS} requests`, async () => {
    const { client, lines, closed } = await channel();
    client.write('{"id": 0, "service": "scratch", "method": "keys", "args": []}\n'.repeat(MAX_REQUESTS + 5));
    await closed;
    const replies = await lines();
    expect(replies.filter((r) => r.ok)).toHaveLength(MAX_REQUESTS);
    expect(replies.at(-1)).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
  });
});
