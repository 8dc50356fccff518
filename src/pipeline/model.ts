import type { SkillManifest } from '../core/schemas/manifest.ts';
import { resolveSegments } from '../core/paths.ts';
import { extensionOf } from '../scanner/magic.ts';
import { SCRIPT_LANGUAGES } from '../core/script-language.ts';

/**
 * The build's shared model: what discovery reads, what normalising produces, and the two path
 * helpers both the rules and normalising rely on. It imports nothing from the pipeline, so
 * discover, cache, normalize and the rules can all depend on it without depending on each other.
 */

/** One skill folder found under skills/, with every file read (never executed). */
export interface SkillSource {
  /** Folder relative to the registry root, `/`-separated: `skills/memory/search`. */
  dir: string;
  absDir: string;
  folderName: string;
  /** The declaring file. */
  declaration: 'SKILL.md' | 'skill.json';
  files: SkillSourceFile[];
}

export interface SkillSourceFile {
  /** Path inside the skill, `/`-separated. */
  path: string;
  bytes: Uint8Array;
  size: number;
  /** Hex SHA-256. */
  hex: string;
}

/** The manifest before registry-wide facts (calledBy, usedBy, lastModified, scan, diagnostics) are known. */
export type DraftManifest = Omit<SkillManifest, 'calledBy' | 'usedBy' | 'lastModified' | 'diagnostics' | 'scan'>;

/** Executable code by extension: what `package/code-outside-scripts` looks for, and what `skilldex migrate` moves under scripts/. */
export const CODE_EXTENSIONS: ReadonlySet<string> = new Set(['py', 'sh', 'bash', 'zsh', 'js', 'mjs', 'cjs', 'ts', 'mts', 'cts', 'rb', 'pl', 'php', 'ps1', 'bat', 'cmd', 'exe', 'so', 'dll', 'dylib']);


/** Programs directly under scripts/ (not helpers in subfolders): the candidates for a package's entry. */
export function entryCandidates(src: SkillSource): string[] {
  return src.files.map((f) => f.path).filter((p) => /^scripts\/[^/]+$/.test(p) && SCRIPT_LANGUAGES[extensionOf(p)] !== undefined);
}

/** `./scripts/x.ts` → `scripts/x.ts`; undefined for anything that leaves the folder. */
export function normaliseResourcePath(raw: string): string | undefined {
  if (raw.startsWith('/') || raw.includes('\\') || /^[a-z]+:/i.test(raw)) return undefined;
  return resolveSegments([], raw)?.join('/');
}
