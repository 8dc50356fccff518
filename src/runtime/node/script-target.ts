import { EXPORTS_EXECUTE, SCRIPT_EXTENSION_LIST, SCRIPT_LANGUAGES } from '../../core/script-language.ts';
import { extensionOf } from '../../scanner/magic.ts';
import type { SkillManifest } from '../../core/schemas/manifest.ts';
import type { ProtocolError } from '../../core/schemas/outcome.ts';
import { RegistryError } from '../../core/errors/registry-error.ts';
import { scriptFile } from '../tool-id.ts';

/**
 * The manifest a run of one named script uses (a tool id `skill:<name>:<script>`, or the `script`
 * run option). The entry itself runs as declared. Any other script under scripts/ runs in its place,
 * in the same sandbox and limits, as a script-protocol script (or through the harness, for a
 * JavaScript/TypeScript file that exports `execute`); the skill's input and output schemas and
 * actions describe its entry, not this script, so they are not applied to it.
 */
export async function manifestForScript(manifest: SkillManifest, script: string, readText: (path: string) => Promise<string>): Promise<SkillManifest | ProtocolError> {
  let relPath: string;
  try {
    relPath = scriptFile(manifest, script);
  } catch (error) {
    if (!(error instanceof RegistryError)) throw error;
    // A script part that is ambiguous or not a path inside the skill is the caller's mistake.
    return { code: error.code === 'AMBIGUOUS_SCRIPT' || error.code === 'INVALID_PATH' ? 'INVALID_PARAM' : 'SKILL_NOT_FOUND', message: error.message, ...(error.hint ? { details: { hint: error.hint } } : {}) };
  }
  if (manifest.entry && manifest.entry.path.replace(/^\.\//, '') === relPath) return manifest;
  const language = SCRIPT_LANGUAGES[extensionOf(relPath)];
  if (!language) return { code: 'SKILL_NOT_FOUND', message: `${manifest.name}: ${relPath} is not a script the runner can start`, details: { hint: `runnable scripts end in ${SCRIPT_EXTENSION_LIST}` } };
  const module = (language === 'javascript' || language === 'typescript') && EXPORTS_EXECUTE.test(await readText(relPath));
  const { inputSchema: _input, outputSchema: _output, actions: _actions, pipeline: _pipeline, outputMapping: _mapping, ...rest } = manifest;
  return { ...rest, mode: 'code', entry: { path: relPath, runner: module ? 'module' : 'protocol', language } };
}
