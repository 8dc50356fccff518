import type { SkillSource } from '../discover.ts';
import { DiagnosticSink } from '../diagnostics.ts';
import { decodeUtf8, positionAt } from '../../core/parse/source-text.ts';
import { extensionOf } from '../../core/script-language.ts';

/** Extensions read as text: their bytes must be UTF-8 and free of hidden-text characters. */
const TEXT_EXTENSIONS = new Set([
  'md', 'markdown', 'txt', 'json', 'yaml', 'yml', 'toml', 'csv', 'tsv', 'xml', 'html', 'htm', 'css', 'svg',
  'py', 'sh', 'bash', 'zsh', 'js', 'mjs', 'cjs', 'ts', 'mts', 'cts', 'rb', 'pl', 'php', 'ps1', 'sql', 'ini', 'cfg', 'conf', 'env',
]);

/** Executable code by extension: what `package/code-outside-scripts` looks for. */
export const CODE_EXTENSIONS = new Set(['py', 'sh', 'bash', 'zsh', 'js', 'mjs', 'cjs', 'ts', 'mts', 'cts', 'rb', 'pl', 'php', 'ps1', 'bat', 'cmd', 'exe', 'so', 'dll', 'dylib']);

export { extensionOf };

const BIDI = /[\u202A-\u202E\u2066-\u2069]/g;
const TAG = /[\u{E0000}-\u{E007F}]/gu;
const ZERO_WIDTH = /[\u200B\u200C\u200D\u2060\uFEFF\u200E\u200F]/g;

/** Compiled executables by magic number. */
function executableKind(bytes: Uint8Array): string | undefined {
  const b = (i: number) => bytes[i] ?? -1;
  if (b(0) === 0x7f && b(1) === 0x45 && b(2) === 0x4c && b(3) === 0x46) return 'an ELF executable';
  if (b(0) === 0x4d && b(1) === 0x5a) return 'a Windows PE executable';
  const magic = ((b(0) << 24) | (b(1) << 16) | (b(2) << 8) | b(3)) >>> 0;
  if ([0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe].includes(magic)) return 'a Mach-O executable';
  if (magic === 0xcafebabe && b(7) < 0x30) return 'a Mach-O universal binary'; // Java classes share the magic; their byte 7 is the version (≥ 0x2d)
  if (b(0) === 0x00 && b(1) === 0x61 && b(2) === 0x73 && b(3) === 0x6d) return 'a WebAssembly module';
  return undefined;
}

/**
 * Per-file checks: compiled executables, text encoding, and characters that hide text (bidi
 * controls and tag characters are errors, zero-width characters warnings). One diagnostic per
 * rule per file, at the first occurrence, with a count, so a poisoned file stays readable.
 */
export function checkFiles(source: SkillSource, sink: DiagnosticSink, skill: string): void {
  for (const file of source.files) {
    const at = `${source.dir}/${file.path}`;
    const kind = executableKind(file.bytes);
    if (kind) {
      sink.report('files/executable-binary', at, { line: 1, column: 1 }, `'${file.path}' is ${kind}`, { hint: 'ship source code under scripts/ instead of compiled binaries', skill });
      continue;
    }
    const ext = extensionOf(file.path);
    if (!TEXT_EXTENSIONS.has(ext) && file.path !== 'SKILL.md' && ext !== '') continue;
    const decoded = decodeUtf8(file.bytes);
    if (!decoded.ok) {
      if (TEXT_EXTENSIONS.has(ext) || file.path === 'SKILL.md') {
        sink.report('files/encoding', at, decoded.position, `'${file.path}' is not valid UTF-8 (first bad byte at offset ${decoded.byteOffset})`, { hint: 'save the file as UTF-8', skill });
      }
      continue;
    }
    const text = decoded.source.text;
    const hidden = (rule: string, pattern: RegExp, what: string, hint: string) => {
      pattern.lastIndex = 0;
      const first = pattern.exec(text);
      if (!first) return;
      const count = text.match(pattern)?.length ?? 1;
      const code = (first[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');
      sink.report(rule, at, positionAt(decoded.source, first.index), `${count} ${what} character${count > 1 ? 's' : ''}, first U+${code}`, { hint, skill });
    };
    hidden('files/bidi', BIDI, 'bidirectional control', 'remove the control characters; they reorder how text displays (Trojan Source)');
    hidden('files/unicode-tag', TAG, 'Unicode tag', 'remove them; tag characters are invisible and are used to smuggle instructions to models');
    // A leading BOM was stripped by decoding; any other U+FEFF counts as zero-width.
    hidden('files/zero-width', ZERO_WIDTH, 'zero-width', 'remove invisible characters unless the script requires them (e.g. ZWJ in emoji)');
  }
}
