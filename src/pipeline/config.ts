import { join } from 'node:path';
import { RegistryConfig } from '../core/schemas/config.ts';
import { decodeUtf8, positionAt } from '../core/parse/source-text.ts';
import { parseJsonFile } from '../core/parse/json-file.ts';
import { ConfigError } from './config-error.ts';
import { readRegularFile } from '../core-node/read-own-file.ts';
import { closest } from '../core/suggest.ts';
import { CONFIG_FILE } from './config-file.ts';

/** Far larger than any config; what is larger is not one. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * Reads `skilldex.config.json` from the registry root; a missing file means all defaults. A pull
 * request can commit it as a link to /dev/zero or a pipe, which a plain read never finishes: only
 * a regular file is read.
 */
export async function loadConfig(root: string): Promise<RegistryConfig> {
  const read = readRegularFile(join(root, CONFIG_FILE), MAX_CONFIG_BYTES, { followLinks: true });
  if (read === null) return RegistryConfig.parse({});
  if (read === undefined) {
    throw new ConfigError(`${CONFIG_FILE} is not a readable file of at most 1 MB (a folder, a pipe, a device, or a link to one?)`, { hint: `make ${CONFIG_FILE} a plain JSON file at the registry root` });
  }
  const bytes = new Uint8Array(read);
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) throw new ConfigError(`${CONFIG_FILE}:${decoded.position.line}:${decoded.position.column} is not valid UTF-8`);
  const parsed = parseJsonFile(decoded.source, { maxDepth: 16 }, 'config');
  const first = parsed.problems[0];
  if (first) {
    const at = positionAt(decoded.source, first.offset);
    throw new ConfigError(`${CONFIG_FILE}:${at.line}:${at.column} ${first.message}`);
  }
  const result = RegistryConfig.safeParse(parsed.data);
  if (!result.success) {
    const issue = result.error.issues[0] as (typeof result.error.issues)[number];
    const at = parsed.locate(issue.path as (string | number)[]);
    throw new ConfigError(`${CONFIG_FILE}:${at.line}:${at.column} ${issue.path.join('.') || 'config'}: ${issue.message}`);
  }
  await checkRuleIds(result.data, parsed.locate);
  return result.data;
}

/** Rules whose severity a config may not change: overriding them would hide what they report. */
const FIXED_SEVERITY: ReadonlySet<string> = new Set(['internal/held-back', 'internal/check-failed']);

/**
 * A severity set for a rule id that does not exist would silently do nothing (a typo such as
 * `frontmatter/unknown-fields` keeps the rule at its default), so every id in `rules` and
 * `scan.rules` must name a rule of the right engine. The rule list is loaded only when the config
 * overrides something: most commands never pay for it. A rule of {@link FIXED_SEVERITY} may not be
 * named at all.
 */
async function checkRuleIds(config: RegistryConfig, locate: (path: (string | number)[]) => { line: number; column: number }): Promise<void> {
  const sections = [
    { path: ['rules'], ids: Object.keys(config.rules), wants: 'validator' as const },
    { path: ['scan', 'rules'], ids: Object.keys(config.scan.rules), wants: 'scanner' as const },
  ];
  if (sections.every((s) => s.ids.length === 0)) return;
  const { ALL_RULES } = await import('./rules/all-rules.ts');
  const engineOf = new Map<string, string>(ALL_RULES.map((r) => [r.meta.id, r.meta.engine === 'scanner' ? 'scanner' : 'validator']));
  for (const { path, ids, wants } of sections) {
    const other = wants === 'scanner' ? 'rules' : 'scan.rules';
    for (const id of ids) {
      const engine = engineOf.get(id);
      if (engine === wants && !FIXED_SEVERITY.has(id)) continue;
      if (engine === wants) {
        const at = locate([...path, id]);
        throw new ConfigError(`${CONFIG_FILE}:${at.line}:${at.column} ${path.join('.')}: the severity of '${id}' cannot be changed; it says why a skill is held back`, {
          hint: `remove "${id}" from "${path.join('.')}"`,
        });
      }
      const at = locate([...path, id]);
      const where = `${CONFIG_FILE}:${at.line}:${at.column} ${path.join('.')}`;
      if (engine) {
        throw new ConfigError(`${where}: '${id}' is a ${engine === 'scanner' ? 'security scanner' : 'validation'} rule; set its severity under "${other}"`, {
          hint: wants === 'scanner' ? 'validation rules are listed in docs/rules.md' : 'scanner rules are listed in docs/security.md',
        });
      }
      const suggestion = closest(id, [...engineOf].filter(([, e]) => e === wants).map(([ruleId]) => ruleId));
      throw new ConfigError(`${where}: no rule '${id}'${suggestion ? `; did you mean '${suggestion}'?` : ''}`, {
        hint: wants === 'scanner' ? 'scanner rule ids are listed in docs/security.md' : 'rule ids are listed in docs/rules.md',
      });
    }
  }
}
