import type { EntryLanguage } from './schemas/manifest.ts';

/** The interpreter a script runs with, by file extension (the script protocol's Interpreters list). */
export const SCRIPT_LANGUAGES: Readonly<Record<string, EntryLanguage>> = { py: 'python', sh: 'shell', bash: 'shell', js: 'javascript', mjs: 'javascript', cjs: 'javascript', ts: 'typescript', mts: 'typescript' };

/** A JavaScript or TypeScript file that exports `execute` is a module entry, called through the harness rather than the script protocol. */
export const EXPORTS_EXECUTE = /export\s+(?:async\s+)?function\s+execute\b|export\s+(?:const|let|var)\s+execute\b|export\s*\{[^}]*\bexecute\b[^}]*\}/;

/** The extension of a path, lower-case, without the dot ('' when there is none). */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}
