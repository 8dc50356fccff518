import { describe, expect, it } from 'vitest';
import { agentSkillMarkdown } from '../../src/core/agent-skill-md.ts';
import type { SkillManifest } from '../../src/core/schemas/manifest.ts';

const manifest = {
  name: 'code_review',
  title: 'Code Review',
  description: 'Reviews code.',
  version: '1.0.0',
  format: 'skill-json',
  mode: 'llm',
  timeoutMs: 30_000,
  retry: 0,
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object' },
} as unknown as SkillManifest;

describe('agentSkillMarkdown', () => {
  it('names the registry URL in the run command, and leaves the command out without a usable URL', () => {
    expect(agentSkillMarkdown(manifest, 'https://skills.example.org/')).toContain('npx skilldex run code_review --registry https://skills.example.org/ --input');
    for (const url of [undefined, '', '<registry-url>', 'https://x.example/;rm -rf ~', 'https://x.example/$(id)', "https://x.example/'", 'file:///etc/', 'https://x.example/\n--input']) {
      const text = agentSkillMarkdown(manifest, url);
      expect(text, String(url)).not.toContain('npx skilldex run');
      expect(text).not.toContain('<registry-url>');
      expect(text).toContain('The other files of the function');
    }
  });
});
