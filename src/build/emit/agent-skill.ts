import { stringify } from 'yaml';
import { toKebab } from '../../core/names.ts';
import { functionSignature } from '../../core/signature.ts';
import type { SkillManifest } from '../../core/schemas/manifest.ts';

/**
 * The SKILL.md that represents a skill.json function skill to Agent Skills clients (discovery
 * indexes, `npx skills add`). Its name is the kebab-case form of the function name; its body
 * carries the signature, the schemas and prompt.md, so an agent can use the function by reading.
 */
export function agentSkillMarkdown(m: SkillManifest, registryUrl: string | undefined): string {
  const frontmatter = stringify(
    {
      name: toKebab(m.name),
      description: m.description,
      ...(m.license ? { license: m.license } : {}),
      metadata: { 'skilldex-function': m.name, 'skilldex-mode': m.mode, version: m.version, ...(m.category ? { category: m.category } : {}) },
    },
    { lineWidth: 0 },
  );
  const json = (value: unknown) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
  const registry = registryUrl ?? '<registry-url>';
  const sections = [
    `# ${m.title}`,
    m.description,
    '## Signature',
    `\`${functionSignature(m.name, m.inputSchema, m.outputSchema)}\``,
    `Mode: **${m.mode}**. Timeout ${m.timeoutMs} ms, ${m.retry} retr${m.retry === 1 ? 'y' : 'ies'}.`,
    '## Input schema',
    json(m.inputSchema ?? {}),
    '## Output schema',
    json(m.outputSchema ?? {}),
  ];
  if (m.prompt) sections.push('## Instructions (prompt.md)', m.prompt.trim());
  if (m.pipeline) {
    sections.push('## Pipeline', m.pipeline.map((s, i) => `${i + 1}. \`${s.step}\` calls \`${s.skill}\`${s.condition ? ` when \`${s.condition}\`` : ''}`).join('\n'));
  }
  sections.push('## Running it', `\`\`\`sh\nnpx skilldex run ${m.name} --registry ${registry} --input '{…}'\n\`\`\``, 'The other files of the function (skill.json, prompt.md, index.ts) are included beside this file.');
  return `---\n${frontmatter}---\n\n${sections.join('\n\n')}\n`;
}
