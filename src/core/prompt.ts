/**
 * The two ways an agent's system prompt lists skills. Pure and browser-safe.
 *
 * - `agent-skills`: the Agent Skills reference (`skills-ref to-prompt`), one element per line,
 *   text HTML-escaped like Python's `html.escape`.
 * - `available-skills`: the skills index's compact `<available-skills>` with the name as an attribute.
 */

export type PromptStyle = 'agent-skills' | 'available-skills';
export const PROMPT_STYLES: readonly PromptStyle[] = ['agent-skills', 'available-skills'];

export interface PromptSkill {
  name: string;
  description: string;
  /** Where the agent reads the full instructions: an absolute SKILL.md path or a URL. */
  location?: string;
}

/** Python's `html.escape(s, quote=True)`, which the reference implementation uses. */
export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

/**
 * Renders skills for a system prompt. With no skills the block is empty but present, as in the
 * reference implementation, so an agent's prompt template never has to special-case it.
 *
 * @example
 * toPrompt([{ name: 'pdf', description: 'Read PDFs', location: '/skills/pdf/SKILL.md' }]);
 * // <available_skills>\n<skill>\n<name>\npdf\n</name>\n<description>\nRead PDFs\n</description>\n
 * // <location>\n/skills/pdf/SKILL.md\n</location>\n</skill>\n</available_skills>
 * toPrompt([{ name: 'pdf', description: 'Read PDFs' }], { style: 'available-skills' });
 * // <available-skills>\n  <skill name="pdf">\n    Read PDFs\n  </skill>\n</available-skills>
 */
export function toPrompt(skills: readonly PromptSkill[], options: { style?: PromptStyle } = {}): string {
  const style = options.style ?? 'agent-skills';
  if (style === 'available-skills') {
    const lines = ['<available-skills>'];
    for (const skill of skills) {
      lines.push(`  <skill name="${escapeHtml(skill.name)}">`, `    ${escapeHtml(skill.description)}`, '  </skill>');
    }
    lines.push('</available-skills>');
    return lines.join('\n');
  }
  const lines = ['<available_skills>'];
  for (const skill of skills) {
    lines.push('<skill>', '<name>', escapeHtml(skill.name), '</name>', '<description>', escapeHtml(skill.description), '</description>');
    if (skill.location !== undefined) lines.push('<location>', escapeHtml(skill.location), '</location>');
    lines.push('</skill>');
  }
  lines.push('</available_skills>');
  return lines.join('\n');
}

/**
 * The skills index's `skill load` output: a `# Skill: <name>` heading, a blank line, then the body.
 *
 * @example
 * renderSkillLoad('code-refactor', '## Steps\n…'); // '# Skill: code-refactor\n\n## Steps\n…'
 */
export const renderSkillLoad = (name: string, body: string): string => `# Skill: ${name}\n\n${body}`;
