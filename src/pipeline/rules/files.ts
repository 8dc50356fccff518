import type { SkillSource } from '../model.ts';
import { DiagnosticSink } from '../diagnostics.ts';
import { decodeUtf8, positionAt } from '../../core/parse/source-text.ts';
import { extensionOf, sniffFormat, TEXT_EXTENSIONS } from '../../scanner/magic.ts';
import type { ScannerRuleId } from '../../scanner/catalog.ts';
import { hiddenCharacterRuns, type HiddenClass } from '../../scanner/rules/hidden-unicode.ts';
import type { ValidatorRuleId } from './catalog.ts';

export { extensionOf };

/** Executable code by extension: what `package/code-outside-scripts` looks for. */
export const CODE_EXTENSIONS = new Set(['py', 'sh', 'bash', 'zsh', 'js', 'mjs', 'cjs', 'ts', 'mts', 'cts', 'rb', 'pl', 'php', 'ps1', 'bat', 'cmd', 'exe', 'so', 'dll', 'dylib']);

/** What each compiled format is called in a message; WebAssembly is refused like native code. */
const EXECUTABLE_KINDS: Readonly<Record<string, string>> = {
  elf: 'an ELF executable',
  pe: 'a Windows PE executable',
  'mach-o': 'a Mach-O executable',
  wasm: 'a WebAssembly module',
};

/**
 * The validator's rule for each class of hidden character. Detection is the scanner's (one
 * character set, the same exceptions for emoji joiners and flag tags); variation-selector runs
 * are the scanner's alone.
 */
const HIDDEN_RULES: Partial<Record<HiddenClass, { rule: ValidatorRuleId; what: string; hint: string }>> = {
  bidi: { rule: 'files/bidi', what: 'bidirectional control', hint: 'remove the control characters; they reorder how text displays (Trojan Source)' },
  tag: { rule: 'files/unicode-tag', what: 'Unicode tag', hint: 'remove them; tag characters are invisible and are used to smuggle instructions to models' },
  zw: { rule: 'files/zero-width', what: 'zero-width', hint: 'remove invisible characters unless the script requires them (e.g. ZWJ in emoji)' },
};

/**
 * Scanner rules that find the same problem as one of the rules here, and the rule that reports
 * it. The build's scan leaves these problems to the validator, so one problem gives one
 * diagnostic; `skilldex scan` on its own still reports them under the scanner's id.
 */
export const REPORTED_BY_VALIDATOR = {
  'unicode/bidi-control': 'files/bidi',
  'unicode/tag-characters': 'files/unicode-tag',
  'unicode/zero-width': 'files/zero-width',
  'file/executable-binary': 'files/executable-binary',
  'file/disguised-executable': 'files/executable-binary',
  'file/symlink': 'files/symlink',
} as const satisfies Partial<Record<ScannerRuleId, ValidatorRuleId>>;

/**
 * Per-file checks: compiled executables, text encoding, and characters that hide text (bidi
 * controls and tag characters are errors, zero-width characters warnings). One diagnostic per
 * rule per file, at the first occurrence, with a count, so a poisoned file stays readable.
 */
export function checkFiles(source: SkillSource, sink: DiagnosticSink, skill: string): void {
  for (const file of source.files) {
    const at = `${source.dir}/${file.path}`;
    const format = sniffFormat(file.bytes);
    const kind = format ? EXECUTABLE_KINDS[format.id] : undefined;
    if (kind) {
      sink.report('files/executable-binary', at, { line: 1, column: 1 }, `'${file.path}' is ${kind}`, { hint: 'ship source code under scripts/ instead of compiled binaries', skill });
      continue;
    }
    const ext = extensionOf(file.path);
    const text = TEXT_EXTENSIONS.has(ext) || file.path === 'SKILL.md';
    if (!text && ext !== '') continue;
    const decoded = decodeUtf8(file.bytes);
    if (!decoded.ok) {
      if (text) sink.report('files/encoding', at, decoded.position, `'${file.path}' is not valid UTF-8 (first bad byte at offset ${decoded.byteOffset})`, { hint: 'save the file as UTF-8', skill });
      continue;
    }
    // A leading BOM was stripped by decoding; any other U+FEFF counts as zero-width.
    const found = new Map<HiddenClass, { offset: number; count: number; first: number }>();
    for (const run of hiddenCharacterRuns(decoded.source.text)) {
      const seen = found.get(run.cls);
      if (seen) seen.count += run.length;
      else found.set(run.cls, { offset: run.offset, count: run.length, first: run.first });
    }
    for (const cls of ['bidi', 'tag', 'zw'] as const) {
      const seen = found.get(cls);
      const rule = HIDDEN_RULES[cls];
      if (!seen || !rule) continue;
      const code = seen.first.toString(16).toUpperCase().padStart(4, '0');
      sink.report(rule.rule, at, positionAt(decoded.source, seen.offset), `${seen.count} ${rule.what} character${seen.count > 1 ? 's' : ''}, first U+${code}`, { hint: rule.hint, skill });
    }
  }
}
