import { describe, expect, it } from 'vitest';
import { inputProblem } from '../../src/mcp/input-limits.ts';
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
