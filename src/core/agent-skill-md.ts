import { stringify } from 'yaml';
import { discoveryName } from './names.ts';
import { functionSignature } from './signature.ts';
import type { SkillManifest } from './schemas/manifest.ts';

/**
 * A registry URL that can stand unquoted in a shell command an agent may copy: http(s), a host,
 * an optional port and a path of URL-safe characters. Anything else (`;`, `$(…)`, quotes, spaces)
 * is left out rather than escaped.
 */
const SHELL_SAFE_URL = /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?(?:\/[A-Za-z0-9._~\/-]*)?$/;

/**
 * What the Agent Skills form reads of a manifest: fields a skill's draft already has (the build
 * writes it on a worker thread, before the registry-wide fields are known).
 */
export type AgentSkillFields = Pick<
  SkillManifest,
  'name' | 'format' | 'description' | 'license' | 'mode' | 'version' | 'category' | 'title' | 'inputSchema' | 'outputSchema' | 'timeoutMs' | 'retry' | 'prompt' | 'pipeline'
>;

/**
 * The SKILL.md that represents a skill.json function skill to Agent Skills clients (discovery
 * indexes, `npx skills add`, `skilldex install`). Its name is the kebab-case form of the function
 * name; its body carries the signature, the schemas and prompt.md, so an agent can use the
 * function by reading. The command that runs it names `registryUrl`, and is left out when there
 * is no usable URL, so an agent is never told to run a command holding a placeholder.
 *
 * @example
 * agentSkillMarkdown(manifest, 'https://skills.example.org/'); // "---\nname: code-review\n…"
 */
export function agentSkillMarkdown(m: AgentSkillFields, registryUrl: string | undefined): string {
  const frontmatter = stringify(
    {
      name: discoveryName(m.name, m.format),
      description: m.description,
      ...(m.license ? { license: m.license } : {}),
      metadata: { 'skilldex-function': m.name, 'skilldex-mode': m.mode, version: m.version, ...(m.category ? { category: m.category } : {}) },
    },
    { lineWidth: 0 },
  );
  const json = (value: unknown) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
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
  if (registryUrl !== undefined && SHELL_SAFE_URL.test(registryUrl)) {
    sections.push('## Running it', `\`\`\`sh\nnpx skilldex run ${m.name} --registry ${registryUrl} --input '{…}'\n\`\`\``);
  } else {
    sections.push('## Files');
  }
  sections.push('The other files of the function (skill.json, prompt.md, index.ts) are included beside this file.');
  return `---\n${frontmatter}---\n\n${sections.join('\n\n')}\n`;
}
