import { codePointLabel } from '../../core/control-chars.ts';
import { typescriptProblem } from '../../core-node/typescript-syntax.ts';
import { positionAt } from '../../core/parse/source-text.ts';
import type { ScannerRuleId } from '../../scanner/catalog.ts';
import { extensionOf, sniffFormat, TEXT_EXTENSIONS } from '../../scanner/magic.ts';
import type { HiddenClass } from '../../scanner/rules/hidden-unicode.ts';
import type { SkillSourceFile } from '../model.ts';
import { defineRule, reportedRule } from './rule.ts';

// Reading a folder already refuses what must never be read or published (links, devices,
// unsafe paths, oversized files), so it reports these itself.
const reportedBy = 'reading a skill folder (src/pipeline/discover.ts)';

export const filesSymlink = reportedRule({
  id: 'files/symlink',
  severity: 'error',
  description: 'Symbolic links are never followed or published.',
  hint: 'replace the link with the file itself',
  covers: ['file/symlink'],
  reportedBy,
});

export const filesSpecial = reportedRule({
  id: 'files/special',
  severity: 'error',
  description: 'Only regular files and folders may appear in a skill.',
  hint: 'replace it with a regular file, or remove it',
  reportedBy,
});

export const filesPath = reportedRule({
  id: 'files/path',
  severity: 'error',
  description: 'File paths must be relative, printable ASCII, without `..` or any of `\\ ? # [ ] % : " | * < >` (discovery RFC; URLs and Windows), with names every file system holds: at most 255 characters, not a Windows device name (`CON`, `aux.txt`), not ending in a dot or a space. A skill\'s folder and its category folder may hold no control or invisible character, nor be a Windows device name (a SKILL.md skill\'s folder is its name: `name/windows-device`).',
  hint: 'rename the file using letters, digits, `-`, `_` and `.` only',
  reportedBy,
});

export const filesTooLarge = reportedRule({
  id: 'files/too-large',
  severity: 'error',
  description: 'A file exceeds `limits.maxFileBytes`.',
  hint: 'shrink the file or publish it elsewhere and link to it',
  reportedBy,
});

export const filesSkillTooLarge = reportedRule({
  id: 'files/skill-too-large',
  severity: 'error',
  description: 'The skill exceeds `limits.maxSkillBytes` in total.',
  hint: 'move large assets out of the skill',
  reportedBy,
});

export const filesTooMany = reportedRule({
  id: 'files/too-many',
  severity: 'error',
  description: 'The skill has more than `limits.maxFiles` files.',
  hint: 'move bulky material out of the skill or raise limits.maxFiles',
  reportedBy,
});

/** What each compiled format is called in a message; WebAssembly is refused like native code. */
const EXECUTABLE_KINDS: Readonly<Record<string, string>> = {
  elf: 'an ELF executable',
  pe: 'a Windows PE executable',
  'mach-o': 'a Mach-O executable',
  wasm: 'a WebAssembly module',
};

/** The kind of compiled executable a file's bytes are, by their magic number. */
export const executableKind = (file: SkillSourceFile): string | undefined => {
  const format = sniffFormat(file.bytes);
  return format ? EXECUTABLE_KINDS[format.id] : undefined;
};

/** A file read as text by its name: a text extension, or SKILL.md. (Files without an extension are tried too, quietly.) */
export const isTextByName = (path: string): boolean => TEXT_EXTENSIONS.has(extensionOf(path)) || path === 'SKILL.md';

export const filesExecutableBinary = defineRule({
  id: 'files/executable-binary',
  severity: 'error',
  scope: 'files',
  description: 'Compiled executables (ELF, PE, Mach-O, WebAssembly) are not accepted.',
  hint: 'ship source code under scripts/ instead of compiled binaries',
  covers: ['file/executable-binary', 'file/disguised-executable'],
  check(ctx, report) {
    for (const file of ctx.src.files) {
      const kind = ctx.executable(file);
      if (kind) report({ file: file.path, line: 1, column: 1 }, `'${file.path}' is ${kind}`);
    }
  },
});

/**
 * Paths are case-sensitive in git and on Linux, not on macOS or Windows: there, two files whose
 * paths differ only in case are one file, so a checkout or an install keeps one of them, and
 * clients refuse a manifest that lists both.
 */
export const filesCaseCollision = defineRule({
  id: 'files/case-collision',
  severity: 'error',
  scope: 'files',
  description: 'Two files of the skill have paths that differ only in case; on macOS and Windows they are one file.',
  hint: 'rename or remove one of them',
  check(ctx, report) {
    const first = new Map<string, string>();
    for (const file of ctx.src.files) {
      const key = file.path.toLowerCase();
      const other = first.get(key);
      if (other === undefined) first.set(key, file.path);
      else report({ file: file.path, line: 1, column: 1 }, `'${file.path}' and '${other}' differ only in case: on macOS and Windows they are one file, so a checkout or an install keeps only one`);
    }
  },
});

/** TypeScript files Node runs by erasing their types: entries and what they import. */
const TYPESCRIPT = /\.[mc]?ts$/;

export const filesTypescriptSyntax = defineRule({
  id: 'files/typescript-syntax',
  severity: 'error',
  scope: 'files',
  description: 'A TypeScript file uses syntax Node cannot run by erasing types: `enum`, `namespace`, parameter properties, `import x = require()`, `<T>x`.',
  hint: 'use a const object or a union of string literals for an enum, plain exports for a namespace, assignments in the constructor body for parameter properties, and `x as T` for an assertion',
  check(ctx, report) {
    for (const file of ctx.src.files) {
      if (!TYPESCRIPT.test(file.path) || file.path.endsWith('.d.ts')) continue;
      const text = ctx.decoded(file);
      if (!text?.ok) continue;
      const problem = typescriptProblem(text.source.text);
      if (problem) report({ file: file.path, line: 1, column: 1 }, `'${file.path}' cannot run: ${problem} (Node runs TypeScript by erasing its types)`);
    }
  },
});

export const filesEncoding = defineRule({
  id: 'files/encoding',
  severity: 'error',
  scope: 'files',
  description: 'A text file is not valid UTF-8.',
  hint: 'save the file as UTF-8',
  check(ctx, report) {
    for (const file of ctx.src.files) {
      const decoded = ctx.decoded(file);
      if (decoded && !decoded.ok && isTextByName(file.path)) {
        report({ file: file.path, ...decoded.position }, `'${file.path}' is not valid UTF-8 (first bad byte at offset ${decoded.byteOffset})`);
      }
    }
  },
});

/**
 * A rule for one class of hidden character. Detection is the scanner's (one character set, the
 * same exceptions for emoji joiners and flag tags); variation-selector runs are the scanner's
 * alone. One diagnostic per file, at the first occurrence, with a count, so a poisoned file stays
 * readable.
 */
const hiddenCharacterRule = <const Id extends string>(
  cls: HiddenClass,
  what: string,
  meta: { id: Id; severity: 'error' | 'warning'; description: string; hint: string; covers: readonly ScannerRuleId[] },
) =>
  defineRule({
    ...meta,
    scope: 'files',
    check(ctx, report) {
      for (const file of ctx.src.files) {
        const runs = ctx.hiddenRuns(file).filter((run) => run.cls === cls);
        const first = runs[0];
        const decoded = ctx.decoded(file);
        if (!first || !decoded?.ok) continue;
        const count = runs.reduce((sum, run) => sum + run.length, 0);
        report({ file: file.path, ...positionAt(decoded.source, first.offset) }, `${count} ${what} character${count > 1 ? 's' : ''}, first ${codePointLabel(first.first)}`);
      }
    },
  });

export const filesBidi = hiddenCharacterRule('bidi', 'bidirectional control', {
  id: 'files/bidi',
  severity: 'error',
  description: 'Bidirectional control characters can hide what text really says.',
  hint: 'remove the control characters; they reorder how text displays (Trojan Source)',
  covers: ['unicode/bidi-control'],
});

export const filesUnicodeTag = hiddenCharacterRule('tag', 'Unicode tag', {
  id: 'files/unicode-tag',
  severity: 'error',
  description: 'Unicode tag characters (U+E0000–E007F) smuggle invisible instructions.',
  hint: 'remove them; tag characters are invisible and are used to smuggle instructions to models',
  covers: ['unicode/tag-characters'],
});

// A leading BOM is stripped by decoding; any other U+FEFF counts as zero-width.
export const filesZeroWidth = hiddenCharacterRule('zw', 'zero-width', {
  id: 'files/zero-width',
  severity: 'warning',
  description: 'Zero-width characters can hide text.',
  hint: 'remove invisible characters unless the script requires them (e.g. ZWJ in emoji)',
  covers: ['unicode/zero-width'],
});
