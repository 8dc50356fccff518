import type { EntryLanguage } from './schemas/manifest.ts';

/** The interpreter a script runs with, by file extension (the script protocol's Interpreters list). */
export const SCRIPT_LANGUAGES: Readonly<Record<string, EntryLanguage>> = { py: 'python', sh: 'shell', bash: 'shell', js: 'javascript', mjs: 'javascript', cjs: 'javascript', ts: 'typescript', mts: 'typescript' };

/** The extensions of {@link SCRIPT_LANGUAGES} as people read them: `.py, .sh, …`. */
export const SCRIPT_EXTENSION_LIST = Object.keys(SCRIPT_LANGUAGES)
  .map((extension) => `.${extension}`)
  .join(', ');

/** A JavaScript or TypeScript file that exports `execute` is a module entry, called through the harness rather than the script protocol. */
export const EXPORTS_EXECUTE = /export\s+(?:async\s+)?function\s+execute\b|export\s+(?:const|let|var)\s+execute\b|export\s*\{[^}]*\bexecute\b[^}]*\}/;
