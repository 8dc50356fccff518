import { z } from 'zod';
import { RegistryConfig } from './config.ts';
import { SkillManifest } from './manifest.ts';
import { DiscoveryIndexV1, DiscoveryIndexV2, RegistryIndex } from './registry-index.ts';
import { SkillJson } from './skill-json.ts';
import { SkillMdFrontmatter } from './skill-md.ts';

/**
 * The published JSON Schemas, generated from the zod definitions (the single source of every
 * shape). `npm run schemas` writes them to schemas/; a test fails when the committed copies are
 * stale. skill.json's schema targets draft-07 like the skill.json meta-schema it mirrors; the rest use 2020-12.
 */
export function publishedJsonSchemas(): Record<string, unknown> {
  const io = { io: 'input', unrepresentable: 'any' } as const;
  return {
    'skill-md.schema.json': z.toJSONSchema(SkillMdFrontmatter, io),
    'skill-json.schema.json': z.toJSONSchema(SkillJson, { ...io, target: 'draft-07' }),
    'manifest.schema.json': z.toJSONSchema(SkillManifest, { ...io, io: 'output' }),
    'index.schema.json': z.toJSONSchema(RegistryIndex, { ...io, io: 'output' }),
    'config.schema.json': z.toJSONSchema(RegistryConfig, io),
    'discovery-0.2.0.schema.json': z.toJSONSchema(DiscoveryIndexV2, { ...io, io: 'output' }),
    'discovery-0.1.0.schema.json': z.toJSONSchema(DiscoveryIndexV1, { ...io, io: 'output' }),
  };
}
