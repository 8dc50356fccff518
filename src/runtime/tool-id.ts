import type { SkillManifest } from '../core/schemas/manifest.ts';
import { checkAssetPath } from './asset-path.ts';
import { RegistryError } from '../core/errors/registry-error.ts';

/**
 * A tool id as index.json's `tools` lists them: `skill:<name>:<script>`, `<script>` being a file
 * directly under scripts/ without its extension (`skill:json-toolkit:json_tool` for
 * scripts/json_tool.py). `skill:<name>` alone names the skill.
 */
export interface ToolId {
  name: string;
  script?: string;
}

/**
 * Reads a tool id; undefined for anything else (a plain skill name, a `skill://` resource URI).
 *
 * @example
 * parseToolId('skill:data-analysis:compare'); // { name: 'data-analysis', script: 'compare' }
 * parseToolId('data-analysis');               // undefined
 */
export function parseToolId(text: string): ToolId | undefined {
  if (!text.startsWith('skill:')) return undefined;
  const rest = text.slice('skill:'.length);
  const colon = rest.indexOf(':');
  const name = colon === -1 ? rest : rest.slice(0, colon);
  const script = colon === -1 ? undefined : rest.slice(colon + 1);
  // Skill names never hold '/', ':' or spaces; a `skill://` URI is not a tool id.
  if (!/^[^/:\s]+$/.test(name) || script === '') return undefined;
  return script === undefined ? { name } : { name, script };
}

/** The tool id of a script file (`scripts/compare.py` → `skill:<name>:compare`). */
export const toolIdOf = (name: string, scriptPath: string): string => `skill:${name}:${scriptPath.replace(/^scripts\//, '').replace(/\.[^./]+$/, '')}`;

/**
 * The published file a script reference names: `compare.py`, `compare` (the tool id's form, without
 * extension), `scripts/compare.py`, or a whole tool id of this skill. A stem that two files share
 * (`compare.py` and `compare.sh`) is refused rather than guessed. Undefined names the skill's entry.
 *
 * @example
 * scriptFile(manifest, 'compare');                     // 'scripts/compare.py'
 * scriptFile(manifest, 'skill:data-analysis:compare'); // 'scripts/compare.py'
 */
export function scriptFile(manifest: SkillManifest, script: string | undefined): string {
  const tool = script === undefined ? undefined : parseToolId(script);
  if (tool && tool.name.toLowerCase() !== manifest.name.toLowerCase()) {
    throw new RegistryError('ASSET_NOT_FOUND', `tool id '${script}' belongs to '${tool.name}', not to ${manifest.name}`, { hint: `use one of ${manifest.name}'s tool ids: ${manifest.tools.join(', ') || '(none)'}` });
  }
  const wanted = (tool ? tool.script : script) ?? manifest.entry?.path.replace(/^\.\//, '').replace(/^scripts\//, '');
  const scripts = manifest.files.map((f) => f.path).filter((p) => p.startsWith('scripts/'));
  if (wanted === undefined) throw new RegistryError('ASSET_NOT_FOUND', `${manifest.name} has no entry script`, { hint: scripts.length ? `name one: ${scripts.map((s) => toolIdOf(manifest.name, s)).join(', ')}` : `${manifest.name} has no scripts` });
  const relPath = checkAssetPath(wanted.startsWith('scripts/') ? wanted : `scripts/${wanted}`);
  if (scripts.includes(relPath)) return relPath;
  const byStem = scripts.filter((p) => p.replace(/\.[^./]+$/, '') === relPath);
  if (byStem.length === 1) return byStem[0] as string;
  if (byStem.length > 1) throw new RegistryError('AMBIGUOUS_SCRIPT', `${manifest.name}: '${wanted}' could be ${byStem.join(' or ')}`, { hint: 'give the file name with its extension' });
  throw new RegistryError('ASSET_NOT_FOUND', `${manifest.name} has no script '${wanted}'`, {
    hint: scripts.length ? `scripts: ${scripts.map((s) => s.slice(8)).join(', ')}; tool ids: ${manifest.tools.join(', ') || '(none)'}` : `${manifest.name} has no scripts`,
  });
}
