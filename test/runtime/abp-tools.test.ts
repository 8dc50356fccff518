import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abpParametersSchema } from '../../src/core/abp-schema.ts';
import { type NodeRegistry, openRegistry } from '../../src/runtime/node/index.ts';
import { runSkilldex } from '../helpers/cli.ts';
import { serveDirectory, type StaticServer } from '../helpers/static-server.ts';
import { buildExamples, REPO_ROOT, tempDir } from './_registries.ts';

/** ABP tools of the example skills (Python protocol script, TypeScript module), over HTTP, library and CLI. */
let server: StaticServer;
let registry: NodeRegistry;
let cacheDir: string;

beforeAll(async () => {
  server = await serveDirectory(await buildExamples());
  cacheDir = await tempDir('cache');
  registry = await openRegistry(server.url, { cacheDir });
});
afterAll(() => server.close());

const cli = (args: string[]) => runSkilldex(REPO_ROOT, [...args, '--registry', server.url, '--cache-dir', cacheDir]);

describe('ABP tools', () => {
  it('converts a tool declaration to JSON Schema', () => {
    expect(abpParametersSchema({ name: 't', parameters: { location: { type: 'string', required: true, description: 'City' }, unit: { type: 'str', default: 'celsius' }, n: { type: 'int' }, raw: { type: 'weird' } } })).toEqual({
      type: 'object',
      properties: { location: { type: 'string', description: 'City' }, unit: { type: 'string', default: 'celsius' }, n: { type: 'integer' }, raw: {} },
      required: ['location'],
      additionalProperties: false,
    });
  });

  it('calls a Python protocol tool: the tool is the action, defaults filled in, ABP result shape', async () => {
    const call = await registry.callTool('date-calc', 'addDays', { date: '2026-11-20', days: 3 }, { callId: 'abp_call_1' });
    expect(call).toEqual({ id: 'abp_call_1', tool: 'addDays', result: { output: { date: '2026-11-20', days: 3, result: '2026-11-23', weekday: 'Monday' }, format: 'object', status: 'success', metadata: { calendar: 'proleptic-gregorian' } } });
  });

  it('calls a TypeScript module tool, which gets the tool name in its parameters', async () => {
    const call = await registry.callTool('unit-converter', 'convert', { value: 5, from: 'mi', to: 'km' });
    expect(call.id).toMatch(/^abp_[0-9a-f-]{36}$/);
    expect(call.result?.output).toMatchObject({ result: 8.04672, formatted: '5 mi = 8.04672 km' });
    const units = await registry.callTool('unit-converter', 'listUnits', { dimension: 'temperature' });
    expect((units.result?.output as { count: number }).count).toBeGreaterThan(2);
  });

  it('validates arguments against the declaration before starting anything', async () => {
    expect((await registry.callTool('date-calc', 'addDays', { date: '2026-01-01' })).error).toMatchObject({ code: 'MISSING_PARAM' });
    const wrongType = await registry.callTool('date-calc', 'addDays', { date: '2026-01-01', days: '3' });
    expect(wrongType.error?.code).toBe('INVALID_PARAM');
    expect(wrongType.error?.message).toContain('ABP tool addDays');
    expect((await registry.callTool('date-calc', 'weekday', { date: '2026-01-01', colour: 'red' })).error?.code).toBe('INVALID_PARAM');
    expect((await registry.callTool('date-calc', 'nextMonday', {})).error).toMatchObject({ code: 'UNKNOWN_ACTION', details: { supported_tools: ['daysBetween', 'addDays', 'weekday'] } });
    expect((await registry.callTool('semver-tool', 'parse', {})).error?.message).toContain('declares no ABP tools');
    // The skill's own error comes back in the ABP error shape.
    expect((await registry.callTool('date-calc', 'weekday', { date: '2026-02-30' }))).toMatchObject({ tool: 'weekday', error: { code: 'INVALID_PARAM' } });
  });

  it('runs `skilldex run --tool` and lists the tools in `skilldex info`', async () => {
    const ok = await cli(['run', 'date-calc', '--tool', 'weekday', '--input', '{"date":"2026-11-23","locale":"ja"}', '--call-id', 'c-7']);
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ id: 'c-7', tool: 'weekday', result: { output: { localized: '月曜日' } } });
    const bad = await cli(['run', 'date-calc', '--tool', 'weekday', '--input', '{}']);
    expect(bad.status).toBe(1);
    expect(JSON.parse(bad.stdout).error.code).toBe('MISSING_PARAM');
    expect((await cli(['run', 'date-calc', '--tool', 'weekday', '--protocol'])).status).toBe(2);
    const info = await cli(['info', 'date-calc']);
    // The install line, pasted, reaches the registry info was given.
    expect(info.stdout).toContain(`install    skilldex install date-calc --registry ${server.url} --to claude`);
    expect(info.stdout).toMatch(/abp tools\s+daysBetween\(start: string, end: string, businessDays\?: boolean\) → object\n\s+addDays\(date: string, days: integer, businessDays\?: boolean\) → object/);
  });
});
