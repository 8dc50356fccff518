import type { Limits } from '../schemas/config.ts';
import { parseFrontmatter } from './frontmatter.ts';
import { parseJsonFile } from './json-file.ts';
import { decodeUtf8, type Position } from './source-text.ts';

/** The version a skill publishes under when its declaration names none (the build's default). */
export const DEFAULT_VERSION = '1.0.0';

/** A declaration's name and version, read without validating anything else. */
export interface DeclaredIdentity {
  /** The declared name, or undefined when the declaration is unreadable or names none. */
  name: string | undefined;
  /** The declared version; {@link DEFAULT_VERSION} when none is declared. */
  version: string;
  /** Whether `version` was written in the declaration (vs the default). */
  versionDeclared: boolean;
  /** Where `version` is written (or where it should go), for diagnostics. */
  versionAt: Position;
  /** False when the declaration is not UTF-8, not parseable, or not a mapping. */
  readable: boolean;
}

const UNREADABLE: DeclaredIdentity = { name: undefined, version: DEFAULT_VERSION, versionDeclared: false, versionAt: { line: 1, column: 1 }, readable: false };

/**
 * The name and version a `SKILL.md` or `skill.json` declares, with the build's precedence
 * (SKILL.md: `version`, then `metadata.version`). Pure: the pull-request check reads the working
 * tree and its base with it, the build reads older versions out of git history.
 *
 * @example
 * declaredIdentity('SKILL.md', bytes, limits); // { name: 'pdf', version: '1.2.0', versionDeclared: true, … }
 */
export function declaredIdentity(declaration: 'SKILL.md' | 'skill.json', bytes: Uint8Array, limits: Pick<Limits, 'maxFrontmatterBytes' | 'maxDepth' | 'maxAliases'>): DeclaredIdentity {
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) return UNREADABLE;
  if (declaration === 'SKILL.md') {
    const fm = parseFrontmatter(decoded.source, limits);
    if (!fm.data) return UNREADABLE;
    const metadata = fm.data.metadata && typeof fm.data.metadata === 'object' ? (fm.data.metadata as Record<string, unknown>) : {};
    const [version, path] = typeof fm.data.version === 'string' ? [fm.data.version, ['version']] : typeof metadata.version === 'string' ? [metadata.version, ['metadata', 'version']] : [undefined, ['name']];
    return {
      name: typeof fm.data.name === 'string' ? fm.data.name : undefined,
      version: version ?? DEFAULT_VERSION,
      versionDeclared: version !== undefined,
      versionAt: fm.locate(path),
      readable: true,
    };
  }
  const json = parseJsonFile(decoded.source, limits);
  const data = json.data && typeof json.data === 'object' && !Array.isArray(json.data) ? (json.data as Record<string, unknown>) : undefined;
  if (!data) return UNREADABLE;
  const version = typeof data.version === 'string' ? data.version : undefined;
  return {
    name: typeof data.name === 'string' ? data.name : undefined,
    version: version ?? DEFAULT_VERSION,
    versionDeclared: version !== undefined,
    versionAt: json.locate(version !== undefined ? ['version'] : ['name']),
    readable: true,
  };
}
