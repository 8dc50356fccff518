import { describe, expect, it } from 'vitest';
import type { SkillManifest } from '../../src/core/schemas/manifest.ts';
import { skillTools } from '../../src/mcp/skill-tools.ts';

const base = { title: 't', description: 'Does things.', version: '1.0.0', format: 'package', mode: 'code', tags: [], keywords: [], calls: [], calledBy: [], tools: [], files: [], diagnostics: [] } as unknown as SkillManifest;
const manifest = (extra: Partial<SkillManifest>): SkillManifest => ({ ...base, ...extra }) as SkillManifest;

describe('skillTools', () => {
  it('maps ABP tools, protocol actions and typed functions to MCP tools with object schemas', () => {
    const tools = skillTools(
      [
        manifest({ name: 'units', abp: { tools: [{ name: 'convert', description: 'Convert.', parameters: { value: { type: 'number', required: true }, to: { type: 'string' } } }] }, outputSchema: { type: 'object', properties: { result: { type: 'number' } } } }),
        manifest({
          name: 'semver',
          entry: { path: 'scripts/s.sh', runner: 'protocol', language: 'shell' },
          actions: [{ name: 'compare' }],
          inputSchema: { type: 'object', properties: { action: { type: 'string' }, params: { type: 'object', properties: { a: { type: 'string' } } } } },
          outputSchema: { type: 'object', properties: { success: { type: 'boolean' }, data: { type: 'object', properties: { result: { type: 'integer' } } } } },
        }),
        manifest({ name: 'count', format: 'skill-json', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'string' }, outputSchema: { type: 'number' } }),
        manifest({ name: 'readme', mode: 'instructions' }),
      ],
      new Set(['list_skills']),
    );
    expect(tools.map((t) => t.name)).toEqual(['count', 'semver__compare', 'units__convert']);
    const [count, compare, convert] = tools;
    expect(convert?.inputSchema).toEqual({ type: 'object', properties: { value: { type: 'number' }, to: { type: 'string' } }, required: ['value'] });
    expect(convert?.call).toEqual({ skill: 'units', abpTool: 'convert', wrapInput: false, wrapOutput: false });
    expect(compare?.inputSchema).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(compare?.outputSchema).toEqual({ type: 'object', properties: { result: { type: 'integer' } } });
    expect(compare?.description).toBe('Does things. (skill semver, action compare)');
    // Non-object schemas are wrapped, and the dialect is dropped.
    expect(count?.inputSchema).toEqual({ type: 'object', properties: { input: { type: 'string' } }, required: ['input'] });
    expect(count?.outputSchema).toEqual({ type: 'object', properties: { result: { type: 'number' } }, required: ['result'] });
    expect(count?.call).toMatchObject({ wrapInput: true, wrapOutput: true });
  });
});
