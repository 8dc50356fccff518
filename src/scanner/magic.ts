/**
 * File formats recognised by their leading "magic" bytes. The scanner trusts bytes, not names: a
 * file's extension only tells us what the author claims it is.
 */
export interface BinaryFormat {
  id: string;
  /** Extensions (lower case, no dot) that honestly carry this format. */
  extensions: readonly string[];
  /** Native code a machine can run directly. */
  executable: boolean;
}

const F = (id: string, extensions: string[], executable = false): BinaryFormat => ({ id, extensions, executable });

export const FORMATS = {
  png: F('png', ['png', 'apng']),
  jpeg: F('jpeg', ['jpg', 'jpeg', 'jpe', 'jfif']),
  gif: F('gif', ['gif']),
  webp: F('webp', ['webp']),
  bmp: F('bmp', ['bmp', 'dib']),
  ico: F('ico', ['ico', 'cur']),
  tiff: F('tiff', ['tif', 'tiff']),
  pdf: F('pdf', ['pdf', 'ai']),
  zip: F('zip', ['zip', 'jar', 'war', 'apk', 'docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'epub', 'whl', 'nupkg', 'vsix', 'xpi', 'ipa', 'skill', 'mcpb', 'dxt', 'kmz', 'key', 'numbers', 'pages', 'sketch', 'egg']),
  gzip: F('gzip', ['gz', 'tgz', 'svgz']),
  bzip2: F('bzip2', ['bz2', 'tbz', 'tbz2']),
  xz: F('xz', ['xz', 'txz']),
  zstd: F('zstd', ['zst']),
  sevenZip: F('7z', ['7z']),
  rar: F('rar', ['rar']),
  tar: F('tar', ['tar']),
  wasm: F('wasm', ['wasm']),
  woff: F('woff', ['woff']),
  woff2: F('woff2', ['woff2']),
  ttf: F('ttf', ['ttf', 'ttc']),
  otf: F('otf', ['otf']),
  mp3: F('mp3', ['mp3']),
  mp4: F('mp4', ['mp4', 'm4a', 'm4v', 'mov', 'heic', 'avif', '3gp']),
  ogg: F('ogg', ['ogg', 'oga', 'ogv', 'opus']),
  wav: F('wav', ['wav']),
  flac: F('flac', ['flac']),
  sqlite: F('sqlite', ['sqlite', 'sqlite3', 'db']),
  elf: F('elf', ['so', 'o', 'bin', 'elf', 'node', 'out', ''], true),
  pe: F('pe', ['exe', 'dll', 'sys', 'scr', 'node', 'bin', 'efi', ''], true),
  macho: F('mach-o', ['dylib', 'bundle', 'node', 'bin', 'o', ''], true),
  javaClass: F('java-class', ['class']),
} as const;

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0): boolean =>
  b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);
/** Signatures as byte lists, built once: sniffing runs on every file of every skill. */
const signatures = new Map<string, number[]>();
const ascii = (s: string): number[] => {
  let sig = signatures.get(s);
  if (!sig) signatures.set(s, (sig = Array.from(s, (c) => c.charCodeAt(0))));
  return sig;
};

/** Identifies a binary format from the first bytes, or returns undefined for unknown/text. */
export function sniffFormat(b: Uint8Array): BinaryFormat | undefined {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return FORMATS.png;
  if (startsWith(b, [0xff, 0xd8, 0xff])) return FORMATS.jpeg;
  if (startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a'))) return FORMATS.gif;
  if (startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8)) return FORMATS.webp;
  if (startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WAVE'), 8)) return FORMATS.wav;
  if (startsWith(b, ascii('%PDF-'))) return FORMATS.pdf;
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04]) || startsWith(b, [0x50, 0x4b, 0x05, 0x06])) return FORMATS.zip;
  if (startsWith(b, [0x1f, 0x8b])) return FORMATS.gzip;
  if (startsWith(b, ascii('BZh'))) return b.length > 3 && b[3]! >= 0x31 && b[3]! <= 0x39 ? FORMATS.bzip2 : undefined;
  if (startsWith(b, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return FORMATS.xz;
  if (startsWith(b, [0x28, 0xb5, 0x2f, 0xfd])) return FORMATS.zstd;
  if (startsWith(b, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return FORMATS.sevenZip;
  if (startsWith(b, ascii('Rar!\u001a\u0007'))) return FORMATS.rar;
  if (startsWith(b, ascii('ustar'), 257)) return FORMATS.tar;
  if (startsWith(b, [0x00, 0x61, 0x73, 0x6d])) return FORMATS.wasm;
  if (startsWith(b, ascii('wOFF'))) return FORMATS.woff;
  if (startsWith(b, ascii('wOF2'))) return FORMATS.woff2;
  if (startsWith(b, [0x00, 0x01, 0x00, 0x00, 0x00])) return FORMATS.ttf;
  if (startsWith(b, ascii('OTTO'))) return FORMATS.otf;
  if (startsWith(b, ascii('ID3'))) return FORMATS.mp3;
  if (startsWith(b, ascii('ftyp'), 4)) return FORMATS.mp4;
  if (startsWith(b, ascii('OggS'))) return FORMATS.ogg;
  if (startsWith(b, ascii('fLaC'))) return FORMATS.flac;
  if (startsWith(b, ascii('SQLite format 3\u0000'))) return FORMATS.sqlite;
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])) return FORMATS.tiff;
  if (startsWith(b, [0x00, 0x00, 0x01, 0x00]) && b.length > 6) return FORMATS.ico;
  if (startsWith(b, [0x7f, 0x45, 0x4c, 0x46])) return FORMATS.elf;
  if (isPortableExecutable(b)) return FORMATS.pe;
  for (const sig of [[0xfe, 0xed, 0xfa, 0xce], [0xfe, 0xed, 0xfa, 0xcf], [0xce, 0xfa, 0xed, 0xfe], [0xcf, 0xfa, 0xed, 0xfe]]) {
    if (startsWith(b, sig)) return FORMATS.macho;
  }
  // CAFEBABE is both a Mach-O universal binary and a Java class; the next word tells them apart
  // (a fat header's architecture count is small, a class file's version is ≥ 45).
  if (startsWith(b, [0xca, 0xfe, 0xba, 0xbe]) && b.length >= 8) {
    const next = ((b[4]! << 24) | (b[5]! << 16) | (b[6]! << 8) | b[7]!) >>> 0;
    return next < 45 ? FORMATS.macho : FORMATS.javaClass;
  }
  if (startsWith(b, ascii('BM')) && b.length >= 26 && !looksLikeText(b)) return FORMATS.bmp;
  return undefined;
}

/** `MZ` alone is too weak (a text file may start with it); require the `PE\0\0` header it points at. */
function isPortableExecutable(b: Uint8Array): boolean {
  if (!startsWith(b, [0x4d, 0x5a]) || b.length < 0x40) return false;
  const offset = b[0x3c]! | (b[0x3d]! << 8) | (b[0x3e]! << 16) | (b[0x3f]! << 24);
  if (offset > 0 && offset + 4 <= b.length) return startsWith(b, [0x50, 0x45, 0x00, 0x00], offset);
  // A truncated or stub-only DOS executable: still native code if the header is mostly binary.
  return !looksLikeText(b);
}

/** True when the first KB has no NUL and few control bytes, i.e. plausibly some text encoding. */
export function looksLikeText(b: Uint8Array): boolean {
  const n = Math.min(b.length, 1024);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const v = b[i]!;
    if (v === 0) return false;
    if (v < 0x09 || (v > 0x0d && v < 0x20)) control++;
  }
  return control <= n * 0.05;
}

/** Lower-case extension without the dot: `a/b.tar.gz` → `gz`, `Makefile` → ``. */
export function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** Extensions that promise a binary format; text content under one of these names is a disguise. */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set(
  Object.values(FORMATS).flatMap((f) => f.extensions).filter((e) => e !== '' && e !== 'bin' && e !== 'db' && e !== 'key' && e !== 'o' && e !== 'out'),
);

/** Extensions that promise human-readable text (source, docs, data). */
export const TEXT_EXTENSIONS: ReadonlySet<string> = new Set([
  'md', 'markdown', 'mdx', 'txt', 'rst', 'adoc', 'json', 'jsonc', 'json5', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'conf',
  'csv', 'tsv', 'xml', 'html', 'htm', 'css', 'svg', 'sh', 'bash', 'zsh', 'fish', 'ps1', 'psm1', 'bat', 'cmd', 'py',
  'pyw', 'js', 'mjs', 'cjs', 'ts', 'mts', 'cts', 'jsx', 'tsx', 'rb', 'pl', 'php', 'lua', 'go', 'rs', 'java', 'kt',
  'swift', 'c', 'h', 'cpp', 'hpp', 'cs', 'r', 'sql', 'graphql', 'vue', 'svelte', 'astro', 'tex', 'env', 'template',
  'tmpl', 'j2', 'hbs', 'mustache', 'ipynb', 'lock', 'log', 'diff', 'patch',
]);
