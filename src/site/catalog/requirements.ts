import type { SkillManifest } from '../../core/schemas/manifest.ts';
import { formatBytes } from './text.ts';

/**
 * What a skill needs to run, as the skill page's requirements block shows it: the interpreters
 * its entry and scripts are written for, the model an llm skill calls, the agents it says it
 * works with, and its size. Read from the manifest only; nothing of the skill is executed.
 */
export interface Requirement {
  label: string;
  value: string;
}

const LANGUAGE: Record<string, string> = {
  python: 'Python 3 (python3)',
  shell: 'a POSIX shell (sh)',
  javascript: 'Node.js (the one that runs skilldex)',
  typescript: 'Node.js with type stripping (the one that runs skilldex)',
};

const BY_EXTENSION: Record<string, keyof typeof LANGUAGE> = { py: 'python', sh: 'shell', bash: 'shell', js: 'javascript', mjs: 'javascript', cjs: 'javascript', ts: 'typescript', mts: 'typescript' };

export function requirements(m: SkillManifest): Requirement[] {
  const rows: Requirement[] = [];
  const languages = new Set<string>();
  if (m.entry) languages.add(m.entry.language);
  for (const file of m.files) {
    if (!file.path.startsWith('scripts/')) continue;
    const language = BY_EXTENSION[file.path.slice(file.path.lastIndexOf('.') + 1).toLowerCase()];
    if (language) languages.add(language);
  }
  if (languages.size > 0) {
    rows.push({ label: 'Runtime', value: [...languages].sort().map((l) => LANGUAGE[l]).join(', ') });
    rows.push({ label: 'Sandbox', value: 'skilldex run confines scripts with bubblewrap (bwrap) on Linux' });
  }
  if (m.mode === 'llm') {
    const declared = typeof m.extra?.model === 'string' ? `; the skill asks for ${m.extra.model}` : '';
    rows.push({ label: 'Model', value: `a chat model behind an OpenAI-compatible endpoint: set SKILLDEX_LLM_BASE_URL, SKILLDEX_LLM_MODEL and SKILLDEX_LLM_API_KEY${declared}` });
  }
  if (m.mode === 'composite' && m.calls.length > 0) rows.push({ label: 'Calls', value: m.calls.join(', ') });
  rows.push({ label: 'Works with', value: m.compatibility ?? (m.hasSkillMd ? 'any agent that reads Agent Skills (SKILL.md); compatibility not stated' : 'agents through skilldex (CLI, library or MCP), and Agent Skills agents through the SKILL.md skilldex install writes') });
  const bytes = m.files.reduce((n, f) => n + f.size, 0);
  rows.push({ label: 'Size', value: `${formatBytes(bytes)} in ${m.files.length} ${m.files.length === 1 ? 'file' : 'files'}` });
  return rows;
}
