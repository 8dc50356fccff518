import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RegistryConfig } from '../core/schemas/config.ts';
import { decodeUtf8, positionAt } from '../core/parse/source-text.ts';
import { parseJsonFile } from '../core/parse/json-file.ts';
import { ConfigError } from './config-error.ts';

export const CONFIG_FILE = 'skilldex.config.json';


/** Reads `skilldex.config.json` from the registry root; a missing file means all defaults. */
export async function loadConfig(root: string): Promise<RegistryConfig> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(join(root, CONFIG_FILE)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return RegistryConfig.parse({});
    throw error;
  }
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
  return result.data;
}
