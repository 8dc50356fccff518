import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { inputProblem } from '../../src/mcp/input-limits.ts';
import { invalidRequest } from '../../src/mcp/request-checks.ts';
import { LineLimit, requestIdAtEdges } from '../../src/mcp/stdio-line-limit.ts';

describe('inputProblem', () => {
  it('accepts ordinary arguments and names the limit an oversized or deep one breaks', () => {
    expect(inputProblem({ text: 'hello', options: { n: [1, 2, 3] } })).toBeUndefined();
    expect(inputProblem({ text: 'é'.repeat(600_000) })).toBe('arguments are larger than 1 MB');
    let deep: unknown = 0;
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect(inputProblem(deep)).toBe('arguments nest deeper than 64 levels');
    expect(inputProblem(Array.from({ length: 200_000 }, () => 0))).toBe('arguments hold more than 100000 values');
  });
});

describe('LineLimit', () => {
  it('passes whole lines, drops an oversized one and reports its request id', async () => {
    const dropped: (string | number | undefined)[] = [];
    const limit = new LineLimit(100, (id) => dropped.push(id));
    const out: string[] = [];
    limit.on('data', (chunk: Buffer) => out.push(chunk.toString()));
    limit.write('{"a":1}\n{"b"');
    limit.write(':2}\n');
    limit.write(`{"method":"tools/call","params":{"x":"${'z'.repeat(150)}`);
    limit.write(`"},"jsonrpc":"2.0","id":7}\n{"jsonrpc":"2.0","id":"q","x":"${'z'.repeat(200)}"}\n{"c":3}\n`);
    limit.end();
    await new Promise((resolve) => limit.on('end', resolve));
    expect(out).toEqual(['{"a":1}\n', '{"b":2}\n', '{"c":3}\n']);
    expect(dropped).toEqual([7, 'q']);
  });

  it('reports a line that is not JSON with its id instead of passing it on, and skips blank lines', async () => {
    const malformed: [string | number | undefined, string][] = [];
    const limit = new LineLimit(100, () => {}, (id, problem) => malformed.push([id, problem]));
    const out: string[] = [];
    limit.on('data', (chunk: Buffer) => out.push(chunk.toString()));
    limit.write('{"jsonrpc":"2.0","id":3,\n\n  \n{"a":1}\nplain words\n[{"id":4}]\n');
    limit.end();
    await new Promise((resolve) => limit.on('end', resolve));
    expect(out).toEqual(['{"a":1}\n']);
    expect(malformed).toEqual([[3, 'not-json'], [undefined, 'not-json'], [undefined, 'batch']]);
  });

  it('finds ids at either edge of a message', () => {
    expect(requestIdAtEdges('{"jsonrpc":"2.0","id":12,"method"', 'zzz"}}')).toBe(12);
    expect(requestIdAtEdges('{"method":"x"', ',"jsonrpc":"2.0","id":"abc"}\n')).toBe('abc');
    expect(requestIdAtEdges('{"method":"x"', '"x":1}')).toBeUndefined();
  });
});

describe('invalidRequest', () => {
  it('names what keeps a message with an id from being a request, and leaves requests, notifications and responses alone', () => {
    expect(invalidRequest({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: 'x' })).toBe('params: Invalid input: expected object, received string');
    expect(invalidRequest({ jsonrpc: '2.0', id: 8 })).toBe('method: Invalid input: expected string, received undefined');
    expect(invalidRequest({ jsonrpc: '1.0', id: 5, method: 'ping' })).toMatch(/^jsonrpc: /);
    expect(invalidRequest({ jsonrpc: '2.0', id: 1.5, method: 'ping' })).toBe('id: must be a string or an integer');
    expect(invalidRequest({ jsonrpc: '2.0', id: 3, method: 'ping', params: { _meta: { progressToken: { a: 1 } } } })).toMatch(/^params\._meta\.progressToken: /);
    expect(invalidRequest({ jsonrpc: '2.0', id: 3, method: 'ping' })).toBeUndefined();
    expect(invalidRequest({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
    expect(invalidRequest({ jsonrpc: '2.0', id: 3, result: 'not an object' })).toBeUndefined();
    expect(invalidRequest({})).toBeUndefined();
  });

  it('LineLimit reports such a request with its id, or without one when the id itself is wrong', async () => {
    const malformed: [string | number | undefined, string, string | undefined][] = [];
    const limit = new LineLimit(1000, () => {}, (id, problem, detail) => malformed.push([id, problem, detail]));
    const out: string[] = [];
    limit.on('data', (chunk: Buffer) => out.push(chunk.toString()));
    limit.write('{"jsonrpc":"2.0","id":"a","method":"tools/call","params":"x"}\n{"jsonrpc":"2.0","id":true,"method":"ping"}\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    limit.end();
    await new Promise((resolve) => limit.on('end', resolve));
    expect(out).toEqual(['{"jsonrpc":"2.0","id":1,"method":"ping"}\n']);
    expect(malformed).toEqual([
      ['a', 'invalid-request', 'params: Invalid input: expected object, received string'],
      [undefined, 'invalid-request', 'id: must be a string or an integer'],
    ]);
  });
});

describe('LineLimit with an output to keep up with', () => {
  it('reads no further while maxInFlight requests are open, counting a reused id each time and a cancelled request out', async () => {
    const stream = new PassThrough();
    const limit = new LineLimit(1000, () => {}, () => {}, { stream, maxQueuedBytes: 1024, maxInFlight: 2 });
    const passed: number[] = [];
    limit.on('data', (chunk: Buffer) => passed.push(JSON.parse(chunk.toString()).id ?? -1));
    const request = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;
    limit.write(request(1) + request(1) + request(2) + request(3));
    await new Promise((resolve) => setImmediate(resolve));
    // Two requests with id 1 are open: the third line waits.
    expect(passed).toEqual([1, 1]);
    limit.answered(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(passed).toEqual([1, 1, 2]);
    // A cancelled request gets no answer from the SDK: its cancellation counts it out.
    const cancel = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } })}\n`;
    limit.answered(1);
    limit.answered(99);
    await new Promise((resolve) => setImmediate(resolve));
    expect(passed).toEqual([1, 1, 2, 3]);
    limit.write(cancel(3) + request(4) + request(5));
    limit.answered(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(passed).toEqual([1, 1, 2, 3, -1, 4, 5]);
  });
});
