import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendFile, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { memoryKeyValueStore, memoryStore } from '../../src/runtime/context-services.ts';
import { fileMemoryStore } from '../../src/runtime/node/file-memory.ts';
import { fileSessionStore, MAX_SESSION_BYTES } from '../../src/runtime/node/file-session.ts';
import { MAX_HELD_BYTES, MAX_LINE_BYTES, MAX_REQUESTS, MAX_STORED_BYTES, serveContextChannel } from '../../src/runtime/node/service-channel.ts';
import { tempDir } from './_registries.ts';

/**
 * The runner's end of the service channel against hostile input, over a real Unix socket: what a
 * skill writes on fd 3 is untrusted, so bad lines get errors, oversized or endless input closes
 * the channel, and nothing reaches a service that is not on the table.
 */
let server: Server | undefined;
afterEach(() => server?.close());

async function channel(): Promise<{ client: Socket; lines: (count?: number) => Promise<Record<string, any>[]>; closed: Promise<void> }> {
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
  // Waits for `count` replies when told how many are due (a loaded machine may take longer than
  // a fixed pause), else a moment for whatever is on its way.
  const lines = async (count = 0) => {
    const parsed = () => text.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
    for (const end = Date.now() + 5000; parsed().length < count && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 100));
    return parsed();
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
    const replies = await lines(7);
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

  it(`refuses what a run asks to store past ${MAX_STORED_BYTES} bytes, and still answers the rest`, async () => {
    const { client, lines } = await channel();
    // One key overwritten: the scratch never holds more than one value, yet the run's sends add up.
    // Each line is exactly MAX_LINE_BYTES long, so the sixteenth uses up the budget.
    const line = (id: number) => {
      const empty = JSON.stringify({ id, service: 'scratch', method: 'set', args: ['k', ''] });
      return JSON.stringify({ id, service: 'scratch', method: 'set', args: ['k', 'v'.repeat(MAX_LINE_BYTES - empty.length)] });
    };
    expect(line(1)).toHaveLength(MAX_LINE_BYTES);
    const fit = MAX_STORED_BYTES / MAX_LINE_BYTES;
    for (let i = 0; i < fit + 2; i++) client.write(`${line(i)}\n`);
    client.write(`${JSON.stringify({ id: 'w', service: 'memory', method: 'write', args: [{ content: 'one more' }] })}\n`);
    client.write(`${JSON.stringify({ id: 'keys', service: 'scratch', method: 'keys', args: [] })}\n`);
    let replies = await lines();
    while (replies.at(-1)?.id !== 'keys') replies = await lines();
    expect(replies.filter((r) => r.ok && typeof r.id === 'number').map((r) => r.id)).toEqual([...Array(fit).keys()]);
    expect(replies.filter((r) => !r.ok).map((r) => r.id)).toEqual([fit, fit + 1, 'w']);
    expect(replies.at(-2)).toMatchObject({ id: 'w', error: { code: 'PERMISSION_DENIED', message: expect.stringContaining('more than 16 MB to store') } });
    expect(replies.at(-1)).toEqual({ id: 'keys', ok: true, value: ['k'] });
    client.destroy();
  });
  it('holds back the requests of a skill that does not read its replies, and answers every one once it does', async () => {
    const path = join(await tempDir('channel'), 's.sock');
    const services = { memory: memoryStore(), session: memoryKeyValueStore(), scratch: memoryKeyValueStore() };
    let runnerEnd: Socket | undefined;
    server = createServer((socket) => {
      runnerEnd = socket;
      serveContextChannel(socket, services);
    });
    await new Promise<void>((resolve) => server!.listen(path, resolve));
    const client = connect(path);
    client.on('error', () => {});
    client.pause();
    // 1,000 requests for a 64 KB value: 64 MB of replies for a skill that reads none of them.
    const value = 'v'.repeat(64 * 1024);
    const gets = 1000;
    client.write(`${JSON.stringify({ id: 0, service: 'scratch', method: 'set', args: ['big', value] })}\n`);
    for (let id = 1; id <= gets; id++) client.write(`${JSON.stringify({ id, service: 'scratch', method: 'get', args: ['big'] })}\n`);
    const ticks: number[] = [];
    const ticking = setInterval(() => ticks.push(Date.now()), 20);
    await new Promise((resolve) => setTimeout(resolve, 500));
    clearInterval(ticking);
    // The runner keeps at most what it may hold plus what the kernel buffers, and its timers still run.
    expect(runnerEnd!.writableLength).toBeLessThan(2 * MAX_HELD_BYTES);
    expect(ticks.length).toBeGreaterThan(10);

    const chunks: string[] = [];
    let lineEnds = 0;
    client.setEncoding('utf8');
    const all = new Promise<void>((resolve) =>
      client.on('data', (chunk: string) => {
        chunks.push(chunk);
        lineEnds += chunk.split('\n').length - 1;
        if (lineEnds === gets + 1) resolve();
      }),
    );
    client.resume();
    await all;
    const replies = chunks.join('').trim().split('\n').map((line) => JSON.parse(line));
    expect(replies.map((r) => r.id)).toEqual([...Array(gets + 1).keys()]);
    expect(replies.slice(1).every((r) => r.ok && r.value === value)).toBe(true);
    client.destroy();
  });
});

describe('the stores a skill writes through the channel', () => {
  it('an in-memory store holds at most its limit: an overwrite or a delete frees what it held', async () => {
    const store = memoryKeyValueStore(100);
    await store.set('a', 'x'.repeat(60));
    await store.set('a', 'y'.repeat(60));
    await expect(store.set('b', 'z'.repeat(60))).rejects.toThrow('would hold more than 100 characters');
    expect(await store.keys()).toEqual(['a']);
    expect(await store.delete('a')).toBe(true);
    await store.set('b', 'z'.repeat(60));
    expect(await store.get('b')).toBe('z'.repeat(60));
  });

  it(`a session file holds at most ${MAX_SESSION_BYTES} bytes, and a refused set leaves it as it was`, async () => {
    const dir = await tempDir('sessions');
    const session = fileSessionStore(dir, 'chat');
    const big = 'b'.repeat(MAX_SESSION_BYTES / 2);
    await session.set('one', big);
    await expect(session.set('two', big)).rejects.toThrow('the session would hold more than 4 MB');
    expect(await session.keys()).toEqual(['one']);
    await session.set('one', 'small');
    await session.set('two', big);
    expect(await session.keys()).toEqual(['one', 'two']);
  });

  it("the file memory store answers from the file as it is now: after its own write, another writer's append and a rewrite", async () => {
    const dir = await tempDir('memory');
    const memory = fileMemoryStore(dir);
    expect(await memory.search('milk')).toEqual([]);
    await memory.write({ content: 'prefers oat milk' });
    expect((await memory.search('milk')).map((h) => h.snippet)).toEqual(['prefers oat milk']);
    // Repeated searches of an unchanged store reuse its index, and still find the same.
    expect((await memory.search('oat')).map((h) => h.snippet)).toEqual(['prefers oat milk']);
    const file = join(dir, 'entries.jsonl');
    await appendFile(file, `${JSON.stringify({ id: 'm-other', content: 'another run likes milk tea' })}\n`);
    expect((await memory.search('milk')).map((h) => h.snippet).sort()).toEqual(['another run likes milk tea', 'prefers oat milk']);
    // A rewrite of the same size is another file (inode) or another version (mtime).
    const text = await readFile(file, 'utf8');
    await writeFile(`${file}.new`, text.replace('oat milk', 'rye bread'));
    await rename(`${file}.new`, file);
    expect((await memory.search('bread')).map((h) => h.snippet)).toEqual(['prefers rye bread']);
    expect((await memory.search('oat')).map((h) => h.snippet)).toEqual([]);
    await rm(file);
    expect(await memory.search('milk')).toEqual([]);
  });

  it('the file memory store refuses writes once full, and keeps what it held', async () => {
    const dir = await tempDir('memory');
    const memory = fileMemoryStore(dir, 1000);
    await memory.write({ content: 'c'.repeat(400) });
    const file = join(dir, 'entries.jsonl');
    const before = await readFile(file, 'utf8');
    await expect(memory.write({ content: 'd'.repeat(600) })).rejects.toThrow('the memory store is full');
    expect(await readFile(file, 'utf8')).toBe(before);
    expect((await stat(file)).size).toBeLessThanOrEqual(1000);
    await memory.write({ content: 'short' });
    expect((await memory.entries()).map((e) => e.content.length)).toEqual([400, 5]);
    const inMemory = memoryStore(300);
    await inMemory.write({ content: 'e'.repeat(100) });
    await expect(inMemory.write({ content: 'f'.repeat(200) })).rejects.toThrow('the memory store is full');
  });
});
